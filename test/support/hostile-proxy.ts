// A hostile provider for a client's contract test: a proxy in front of a provider fake that turns its
// answers against us by a rule the test sets (another status, a Location or URL pointing elsewhere, a
// body that never ends), and an "internal" server on another loopback port that records whatever
// reaches it. Every request the proxy and the internal server receive is kept, with its headers, so a
// test can assert where our bearer token went.
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
  /** The proxy's origin: what the client is configured with as the API's. */
  base: string;
  /** The internal server's origin: nothing may reach it. */
  internalUrl: string;
  apiSeen: Seen[];
  internalSeen: Seen[];
  close(): Promise<void>;
}

const HOP = ['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'];

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * The proxy in front of the fake at `target` (its origin in headers and bodies rewritten to the
 * proxy's); `rule()` is asked for each answer. `endlessPrefix` starts the body that never ends.
 */
export async function startHostileProxy(
  target: string,
  rule: () => Rule | undefined,
  endlessPrefix: string,
): Promise<HostileProxy> {
  const apiSeen: Seen[] = [];
  const internalSeen: Seen[] = [];
  let proxyBase = '';
  const internal = createServer((request, response) => {
    internalSeen.push({ method: request.method!, url: request.url!, headers: request.headers });
    request.resume();
    request.on('end', () => response.writeHead(200, { 'Content-Type': 'text/plain' }).end('internal'));
  });
  const internalUrl = await listen(internal);
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
        if (!HOP.includes(name)) out[name] = value.split(target).join(proxyBase);
      });
      const bytes = Buffer.from(
        Buffer.from(await answer.arrayBuffer())
          .toString('latin1')
          .split(target)
          .join(proxyBase),
        'latin1',
      );
      const turned = rule()?.(request.url!, { status: answer.status, headers: out, body: bytes }) ?? {
        status: answer.status,
        headers: out,
        body: bytes,
      };
      if (turned === 'endless') {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        response.write(endlessPrefix);
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
  proxyBase = await listen(proxy);
  return {
    base: proxyBase,
    internalUrl,
    apiSeen,
    internalSeen,
    close: async () => {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
      await new Promise((resolve) => internal.close(resolve));
    },
  };
}
