// A hostile provider for one client's contract test: the provider's fake behind a proxy that may turn
// each answer against the client (another status, a Location or body pointing elsewhere, a body that
// never ends), and an "internal" listener on another loopback port standing for what a hostile answer
// may point at. Both record what reached them, so a test can assert that our token went to the API's
// origin only and nothing internal was asked. (The suite over every provider has its own, over the
// whole sandbox: test/contract/hostile-provider.contract.test.ts.)
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/** What the proxy does to one answer: the answer as it is, another, or a body that never ends. */
export type Rule = (
  path: string,
  answer: { status: number; headers: Record<string, string>; body: Buffer },
) => { status: number; headers: Record<string, string>; body: Buffer } | 'endless';

export interface HostileProxy {
  /** The proxy's origin: the client's API origin. */
  base: string;
  /** The internal listener's origin. */
  internalUrl: string;
  /** What the proxy (the API's origin) and the internal listener received. */
  apiSeen: Seen[];
  internalSeen: Seen[];
  /** How answers are turned now (none: passed as they are). */
  rule: Rule | undefined;
  /** Forgets what was seen and the rule. */
  reset(): void;
  close(): Promise<void>;
}

const HOP = ['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'];

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * The proxy in front of `target` (a fake's origin, whose own origin in headers and bodies becomes the
 * proxy's); a never-ending body opens as JSON `{"<endlessField>": "` and goes on with spaces.
 */
export async function startHostileProxy(target: string, endlessField: string): Promise<HostileProxy> {
  const apiSeen: Seen[] = [];
  const internalSeen: Seen[] = [];
  const internal = createServer((request, response) => {
    internalSeen.push({ method: request.method!, url: request.url!, headers: request.headers });
    request.resume();
    request.on('end', () => response.writeHead(200, { 'Content-Type': 'text/plain' }).end('internal'));
  });
  const internalUrl = await listen(internal);
  let base = '';
  const state: HostileProxy = {
    base,
    internalUrl,
    apiSeen,
    internalSeen,
    rule: undefined,
    reset() {
      state.rule = undefined;
      apiSeen.length = 0;
      internalSeen.length = 0;
    },
    async close() {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
      await new Promise((resolve) => internal.close(resolve));
    },
  };
  const proxy = createServer((request, response) => {
    void (async () => {
      apiSeen.push({ method: request.method!, url: request.url!, headers: request.headers });
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers))
        if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
          headers.set(name, value);
      const body = Buffer.concat(chunks);
      const answer = await fetch(`${target}${request.url}`, {
        method: request.method,
        headers,
        body: body.length ? body : undefined,
        redirect: 'manual',
      });
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!HOP.includes(name)) out[name] = value.split(target).join(base);
      });
      const bytes = Buffer.from(
        Buffer.from(await answer.arrayBuffer())
          .toString('latin1')
          .split(target)
          .join(base),
        'latin1',
      );
      const turned = state.rule?.(request.url!, { status: answer.status, headers: out, body: bytes }) ?? {
        status: answer.status,
        headers: out,
        body: bytes,
      };
      if (turned === 'endless') {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        response.write(`{"${endlessField}": "`);
        const pump = () => {
          while (response.write(chunk));
        };
        response.on('drain', pump);
        response.on('close', () => response.off('drain', pump));
        pump();
        return;
      }
      response.writeHead(turned.status, { ...turned.headers, 'content-length': String(turned.body.length) });
      response.end(turned.body);
    })().catch(() => response.destroy());
  });
  base = await listen(proxy);
  state.base = base;
  return state;
}
