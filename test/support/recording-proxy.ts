// A recording proxy in front of a provider fake, for the contract tests that check the fake's answers
// against the provider's published description: real HTTP both ways, every exchange kept (method, path
// under the fake's prefix, query, status, JSON body). The fake's own origin in a Location header or a
// JSON body (an upload session's URL, a next link) is rewritten to the proxy's, so the client's follow-up
// requests come through the proxy as well.
import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ManualClock } from '../../functions/platform/clock';
import type { ProviderFake } from '../../sandbox/providers/fake';
import type { FakeHarness } from './fake-harness';
import { startFakeHarness } from './fake-harness';

export interface Exchange {
  method: string;
  /** The path under the fake's prefix (`/v1.0/me`, not `/microsoft/v1.0/me`). */
  path: string;
  query: URLSearchParams;
  status: number;
  headers?: Headers;
  json?: unknown;
}

export interface RecordingProxy {
  base: string;
  exchanges: Exchange[];
  close(): Promise<void>;
}

const HOP = ['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'];

export async function startRecordingProxy(target: string, prefix: string): Promise<RecordingProxy> {
  const exchanges: Exchange[] = [];
  let base = '';
  const server: Server = createServer((request, response) => {
    void (async () => {
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
        body: body.length || !['GET', 'HEAD'].includes(request.method!) ? body : undefined,
        redirect: 'manual',
      });
      let bytes = Buffer.from(await answer.arrayBuffer());
      const url = new URL(request.url!, 'http://proxy');
      const exchange: Exchange = {
        method: request.method!,
        path: url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : url.pathname,
        query: url.searchParams,
        status: answer.status,
        headers: answer.headers,
      };
      if (/application\/json/.test(answer.headers.get('content-type') ?? '') && bytes.length) {
        const text = bytes.toString('utf8').split(target).join(base);
        exchange.json = JSON.parse(text);
        bytes = Buffer.from(text, 'utf8');
      }
      exchanges.push(exchange);
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!HOP.includes(name)) out[name] = name === 'location' ? value.replace(target, base) : value;
      });
      response.writeHead(answer.status, { ...out, 'Content-Length': String(bytes.length) });
      response.end(bytes);
    })().catch((error: unknown) => {
      response.writeHead(502).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    exchanges,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A fake with one grant, behind a recording proxy, for one test file (see fakeBehindRecordingProxy). */
export interface RecordedFake {
  /** The fake (its trees, grants, injected failures); set before the file's tests run. */
  readonly fake: FakeHarness;
  /** The proxy in front of it: its base is the client's, its exchanges what the fake answered. */
  readonly proxy: RecordingProxy;
  /** Every request as the fake received it (its headers: where a token went, and in which header). */
  readonly requests: IncomingMessage[];
}

/**
 * Starts `providerFake` (on `clock`, granting `grant.token` to `grant.account` with `grant.scopes`) and a
 * recording proxy in front of it under `prefix`, before the calling file's tests, and closes both after
 * them: the set-up every description-checking contract test shares.
 */
export function fakeBehindRecordingProxy(
  providerFake: ProviderFake,
  clock: ManualClock,
  grant: { token: string; account: string; scopes: string[] },
  prefix = providerFake.prefix,
): RecordedFake {
  let fake: FakeHarness | undefined;
  let proxy: RecordingProxy | undefined;
  const requests: IncomingMessage[] = [];
  beforeAll(async () => {
    fake = await startFakeHarness(providerFake, clock, (request) => requests.push(request));
    fake.grant(grant.token, grant.account, grant.scopes);
    proxy = await startRecordingProxy(fake.base, prefix);
  });
  afterAll(async () => {
    await proxy?.close();
    await fake?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (!value) throw new Error('the fake and its proxy start in beforeAll: use them in a test or a hook');
    return value;
  };
  return {
    get fake() {
      return started(fake);
    },
    get proxy() {
      return started(proxy);
    },
    requests,
  };
}
