// One delivery attempt against real loopback HTTP receivers.
import type { IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { classifyStatus, parseRetryAfter, sendWebhook } from '../../functions/webhooks/infra/send';
import { receiverBody } from '../../functions/events/domain/event';
import { generateSigningSecret } from '../../functions/webhooks/domain/signing';
import { systemClock } from '../../functions/platform/clock';

interface Hit {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let server: Server;
let base: string;
let port: number;
const hits: Hit[] = [];
let respond: (response: ServerResponse) => void = (r) => r.end('ok');

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      hits.push({
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      respond(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  hits.length = 0;
  respond = (r) => r.end('ok');
});

const secret = generateSigningSecret();
const event = {
  id: 'evt_abc',
  type: 'webhook.test',
  occurred_at: '2026-01-01T00:00:00.000Z',
  data: { endpointId: 'we_x', message: 'hi' },
};
const send = (url = `${base}/in`, options: Partial<Parameters<typeof sendWebhook>[1]> = {}) =>
  sendWebhook(
    {
      url,
      eventId: event.id,
      body: receiverBody(event),
      secrets: [secret],
      timestampSeconds: Math.floor(Date.now() / 1000),
      clock: systemClock,
    },
    { allowLoopback: true, ...options },
  );

const answering =
  (status: number, headers: Record<string, string> = {}, body = '') =>
  (r: ServerResponse) => {
    r.writeHead(status, headers);
    r.end(body);
  };

describe('sendWebhook', () => {
  it('POSTs the JSON body with verifiable Standard Webhooks headers; 2xx is delivered', async () => {
    respond = answering(200, {}, 'thanks');
    const outcome = await send();
    expect(outcome).toMatchObject({ kind: 'delivered', statusCode: 200, responseBody: 'thanks' });
    expect(outcome.errorKind).toBeUndefined();
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(0);
    const hit = hits[0]!;
    expect(hit.url).toBe('/in');
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['webhook-id']).toBe('evt_abc');
    expect(JSON.parse(hit.body)).toEqual(event);
    const headers = {
      'webhook-id': String(hit.headers['webhook-id']),
      'webhook-timestamp': String(hit.headers['webhook-timestamp']),
      'webhook-signature': String(hit.headers['webhook-signature']),
    };
    expect(new Webhook(secret).verify(hit.body, headers)).toEqual(event);
    respond = answering(204);
    expect((await send()).kind).toBe('delivered');
  });

  it('records the headers sent with each signature cut to its scheme, and the headers of the answer', async () => {
    respond = answering(202, { 'X-Trace': 'abc' });
    const rotated = [generateSigningSecret(), secret];
    const outcome = await sendWebhook(
      {
        url: `${base}/in`,
        eventId: 'evt_rot',
        body: '{}',
        secrets: rotated,
        timestampSeconds: 1700000000,
        clock: systemClock,
      },
      { allowLoopback: true },
    );
    expect(outcome.requestHeaders).toEqual({
      'content-type': 'application/json',
      'content-length': '2',
      'user-agent': expect.stringContaining('ConnectorEventService'),
      'webhook-id': 'evt_rot',
      'webhook-timestamp': '1700000000',
      'webhook-signature': 'v1,… v1,…',
    });
    expect(String(hits[0]!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(outcome.responseHeaders).toMatchObject({ 'x-trace': 'abc' });
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('sends to the path and query of the URL, and to a bracketed IPv6 literal with its Host header', async () => {
    respond = answering(204);
    expect((await send(`${base}/in/a%20b?x=1&y=%2F`)).kind).toBe('delivered');
    expect(hits[0]!.url).toBe('/in/a%20b?x=1&y=%2F');
    expect(hits[0]!.headers.host).toBe(`127.0.0.1:${port}`);
    const v6 = createServer((_, response) => response.end('v6'));
    try {
      await new Promise<void>((resolve) => v6.listen(0, '::1', resolve));
      const v6Port = (v6.address() as AddressInfo).port;
      const outcome = await send(`http://[::1]:${v6Port}/six`);
      expect(outcome).toMatchObject({ kind: 'delivered', responseBody: 'v6' });
    } finally {
      v6.closeAllConnections();
      await new Promise((resolve) => v6.close(resolve));
    }
  });

  it.each([408, 429, 500, 502, 503])('retries on %i', async (status) => {
    respond = answering(status, {}, 'busy');
    expect(await send()).toMatchObject({
      kind: 'retry',
      statusCode: status,
      errorKind: 'http_status',
      responseBody: 'busy',
    });
  });

  it('parses Retry-After in seconds and as an HTTP date', async () => {
    respond = answering(429, { 'Retry-After': '120' });
    expect((await send()).retryAfterSeconds).toBe(120);
    respond = answering(503, { 'Retry-After': new Date(Date.now() + 60_000).toUTCString() });
    const seconds = (await send()).retryAfterSeconds!;
    expect(seconds).toBeGreaterThanOrEqual(58);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
    expect(parseRetryAfter(undefined, 0)).toBeUndefined();
  });

  it.each([408, 500, 502])(
    'ignores Retry-After on %i: only 429 and 503 can push the schedule back',
    async (status) => {
      respond = answering(status, { 'Retry-After': '3600' });
      const outcome = await send();
      expect(outcome).toMatchObject({ kind: 'retry', statusCode: status });
      expect(outcome.retryAfterSeconds).toBeUndefined();
    },
  );

  it.each([400, 401, 404, 410, 422])('fails without retry on %i', async (status) => {
    respond = answering(status);
    expect(await send()).toMatchObject({ kind: 'failed', statusCode: status, errorKind: 'http_status' });
  });

  it.each([301, 302, 307, 308])('does not follow a %i redirect: failed', async (status) => {
    respond = answering(status, { Location: `${base}/elsewhere` });
    expect(await send()).toMatchObject({ kind: 'failed', statusCode: status, errorKind: 'redirect' });
    expect(hits.map((h) => h.url)).toEqual(['/in']);
  });

  it('keeps only the first 16 KiB of the response body', async () => {
    respond = answering(500, {}, 'x'.repeat(100_000));
    const outcome = await send();
    expect(outcome.responseBody).toHaveLength(16 * 1024);
  });

  it('retries on a timeout', async () => {
    respond = () => undefined; // never answers
    const outcome = await send(undefined, { timeoutMs: 200 });
    expect(outcome).toMatchObject({ kind: 'retry', errorKind: 'timeout' });
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(190);
  });

  it('retries on a refused connection and on a DNS failure', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await send(`http://127.0.0.1:${closedPort}/in`)).toMatchObject({
      kind: 'retry',
      errorKind: 'connection',
    });
    const missing = Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    expect(await send('https://hooks.invalid/in', { resolve: () => Promise.reject(missing) })).toMatchObject({
      kind: 'retry',
      errorKind: 'dns',
    });
  });

  it('connects to the vetted address the name resolved to', async () => {
    const outcome = await send(`http://hooks.example.test:${port}/named`, {
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    expect(outcome.kind).toBe('delivered');
    expect(hits[0]!.headers.host).toBe(`hooks.example.test:${port}`);
  });

  it('refuses loopback when it is not allowed (production), literal or resolved', async () => {
    expect(await send(undefined, { allowLoopback: false })).toMatchObject({
      kind: 'failed',
      errorKind: 'blocked_address',
    });
    const viaDns = await send(`http://localhost:${port}/in`, {
      allowLoopback: false,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    expect(viaDns).toMatchObject({ kind: 'failed', errorKind: 'blocked_address' });
    expect(hits).toHaveLength(0);
  });

  it.each([
    ['private', '10.0.0.8'],
    ['link-local', '169.254.1.1'],
    ['CGNAT', '100.64.0.1'],
    ['metadata', '169.254.169.254'],
    ['IPv4-mapped', '::ffff:127.0.0.1'],
    ['unique local IPv6', 'fd12::1'],
  ])('refuses a name resolving to a %s address, even with loopback allowed', async (_kind, address) => {
    const outcome = await send('https://hooks.example.test/in', {
      resolve: async () => [{ address, family: address.includes(':') ? 6 : 4 }],
    });
    expect(outcome).toMatchObject({ kind: 'failed', errorKind: 'blocked_address' });
    expect(outcome.errorMessage).toContain(address);
  });

  it('refuses the whole answer when any resolved address is forbidden (rebinding)', async () => {
    const outcome = await send(`http://hooks.example.test:${port}/in`, {
      resolve: async () => [
        { address: '127.0.0.1', family: 4 },
        { address: '10.0.0.1', family: 4 },
      ],
    });
    expect(outcome).toMatchObject({ kind: 'failed', errorKind: 'blocked_address' });
    expect(hits).toHaveLength(0);
  });

  it('refuses literal forbidden addresses without connecting', async () => {
    for (const url of [
      'https://169.254.169.254/latest/meta-data',
      'https://10.0.0.1/',
      'https://[::ffff:7f00:1]/',
    ]) {
      expect(await send(url)).toMatchObject({ kind: 'failed', errorKind: 'blocked_address', latencyMs: 0 });
    }
  });

  it('classifies statuses as the spec does', () => {
    expect([200, 201, 299].map(classifyStatus)).toEqual(['delivered', 'delivered', 'delivered']);
    expect([408, 429, 500, 599].map(classifyStatus)).toEqual(['retry', 'retry', 'retry', 'retry']);
    expect([400, 403, 404, 409].map(classifyStatus)).toEqual(['failed', 'failed', 'failed', 'failed']);
  });
});
