// The foundation as a newcomer meets it: npm start, then curl with the printed key.
import { PROVIDER_IDS } from '../../functions/connectors/providers';
import type { RunningServer } from '../support/local-server';
import { RUNTIME, api, describeLocalOnly, startLocalServer } from '../support/local-server';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: RunningServer;

beforeAll(async () => {
  server = await startLocalServer();
});

afterAll(async () => {
  await server.stop();
});

describe('local server authentication', () => {
  it('answers 200 with rate-limit headers to the development key', async () => {
    const response = await api(server)('/connectors/v1/providers');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit')).toBe('200');
    expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(100);
    expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
    const body = (await response.json()) as { data: { id: string }[] };
    // Every provider module, in the API's enum order: `npm start` points each real one at its fake.
    expect(body.data.map((p) => p.id)).toEqual(PROVIDER_IDS);
  });

  it('answers 401 AUTH_INVALID without a key, with a malformed one, and with a wrong secret', async () => {
    const noKey = await fetch(`${server.baseUrl}/connectors/v1/providers`);
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toEqual({ error: { code: 'AUTH_INVALID', message: expect.any(String) } });
    expect((await api(server, 'not-a-key')('/connectors/v1/providers')).status).toBe(401);
    const [prefix, id] = server.credentials.apiKey.split('_');
    const wrong = await api(server, `${prefix}_${id}_${'A'.repeat(43)}`)('/connectors/v1/providers');
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe('AUTH_INVALID');
  });

  it('answers 403 PERMISSION_DENIED to a key without the route permission, and 401 once it is revoked', async () => {
    const created = server.createKey('webhooks:read');
    const response = await api(server, created.apiKey)('/connectors/v1/providers');
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: { code: 'PERMISSION_DENIED', message: 'This key lacks the connectors:read permission' },
    });
    server.admin('revoke-key', '--key', created.keyId);
    expect((await api(server, created.apiKey)('/connectors/v1/providers')).status).toBe(401);
  });

  it('answers 404 NOT_FOUND in the common body for an unknown route', async () => {
    const response = await api(server)('/connectors/v1/nothing-here');
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });
});

describe('local server request maps', () => {
  it('treats headers and query parameters named like Object members as plain names, never a 500', async () => {
    const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
    const query = names.map((n) => `${n}=1`).join('&');
    for (const path of [
      `/connectors/v1/providers?${query}`,
      `/webhooks/v1/endpoints?${query}`,
      `/nothing?${query}`,
    ]) {
      const response = await api(server)(path, { headers: Object.fromEntries(names.map((n) => [n, 'x'])) });
      expect({ path, status: response.status }).toEqual({
        path,
        status: path === '/nothing?' + query ? 404 : 200,
      });
    }
    const unauthenticated = await fetch(`${server.baseUrl}/connectors/v1/providers?${query}`, {
      headers: Object.fromEntries(names.map((n) => [n, 'x'])),
    });
    expect(unauthenticated.status).toBe(401);
    const oddId = await api(server)('/webhooks/v1/endpoints/__proto__');
    expect(oddId.status).toBe(404);
  });
});

describe('HTTP conformance', () => {
  // The emulated AWS runtime answers as the deployed API Gateway does: a method the REST API does not
  // have is its MISSING_AUTHENTICATION_TOKEN gateway response (404 in this API's body), HEAD and OPTIONS too.
  (RUNTIME === 'aws' ? it : it.skip)(
    'answers an unknown method as API Gateway does: 404 No such route',
    async () => {
      for (const [method, path] of [
        ['PUT', '/webhooks/v1/endpoints'],
        ['HEAD', '/connectors/v1/providers'],
        ['OPTIONS', '/webhooks/v1/endpoints/we_aaaaaaaaaaaaaaaaaaaa'],
      ] as const) {
        const response = await api(server)(path, { method, ...(method === 'PUT' ? { body: '{}' } : {}) });
        expect({ method, status: response.status }).toEqual({ method, status: 404 });
        expect(response.headers.get('allow')).toBeNull();
        if (method !== 'HEAD')
          expect(await response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'No such route' } });
      }
    },
  );

  (RUNTIME === 'local' ? it : it.skip)(
    'answers 405 METHOD_NOT_ALLOWED with Allow, serves HEAD as GET and OPTIONS with Allow (npm start only)',
    async () => {
      const put = await api(server)('/webhooks/v1/endpoints', { method: 'PUT', body: '{}' });
      expect(put.status).toBe(405);
      expect(put.headers.get('allow')).toBe('POST, GET, HEAD, OPTIONS');
      expect(((await put.json()) as { error: { code: string } }).error.code).toBe('METHOD_NOT_ALLOWED');
      expect(put.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

      const head = await api(server)('/connectors/v1/providers', { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      const options = await api(server)('/webhooks/v1/endpoints/we_aaaaaaaaaaaaaaaaaaaa', {
        method: 'OPTIONS',
      });
      expect(options.status).toBe(204);
      expect(options.headers.get('allow')).toBe('GET, PATCH, DELETE, HEAD, OPTIONS');
    },
  );

  it('answers 401 with WWW-Authenticate: Bearer and an X-Request-Id on every answer', async () => {
    const missing = await fetch(`${server.baseUrl}/connectors/v1/providers`);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect(missing.headers.get('x-request-id')).toMatch(UUID);
    const wrong = await api(server, 'lpk_nope_nope')('/connectors/v1/providers');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    const ids = [
      missing.headers.get('x-request-id'),
      (await fetch(`${server.baseUrl}/nothing`)).headers.get('x-request-id'),
      (await api(server)('/connectors/v1/providers')).headers.get('x-request-id'),
    ];
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('answers 415 to a body that is not labelled JSON', async () => {
    const body = JSON.stringify({ url: 'https://hooks.example.com/in', eventTypeFilters: ['*'] });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const response = await api(server)('/webhooks/v1/endpoints', {
        method: 'POST',
        body,
        headers: { 'Content-Type': type },
      });
      expect({ type, status: response.status }).toEqual({ type, status: 415 });
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
        'UNSUPPORTED_MEDIA_TYPE',
      );
    }
    const json = await api(server)('/webhooks/v1/endpoints', {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
    expect(json.status).toBe(201);
  });

  it.each(['offset=', 'limit=', 'limit=0x10', 'limit=1e1', 'limit=+5', 'limit= 5'])(
    'answers 400 to the query %s rather than reading it as a number',
    async (query) => {
      const response = await api(server)(`/webhooks/v1/endpoints?${query}`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('INVALID_REQUEST');
    },
  );

  it('answers 431 in the common error body to a URL or a header over 16 KiB', async () => {
    const longUrl = await fetch(`${server.baseUrl}/connectors/v1/providers?x=${'a'.repeat(17 * 1024)}`);
    expect(longUrl.status).toBe(431);
    expect(((await longUrl.json()) as { error: { code: string } }).error.code).toBe('HEADERS_TOO_LARGE');
    const longHeader = await fetch(`${server.baseUrl}/connectors/v1/providers`, {
      headers: { 'X-Big': 'b'.repeat(17 * 1024) },
    });
    expect(longHeader.status).toBe(431);
    expect(await longHeader.json()).toEqual({
      error: { code: 'HEADERS_TOO_LARGE', message: 'The URL and headers exceed 16 KiB' },
    });
  });
});

describeLocalOnly(
  'ten concurrent requests contending for one bucket take more than a second a batch on DynamoDB Local, so the bucket refills (100/min) about as fast as the test can empty it; the limiter runs on DynamoDB Local in the integration tier (test/integration/rate-limit.test.ts)',
  'local server rate limiting',
  () => {
    it('admits the burst of 200, then answers 429 RATE_LIMIT_EXCEEDED with Retry-After', async () => {
      const created = server.createKey('connectors:read');
      const call = api(server, created.apiKey);
      const statuses: number[] = [];
      let limited: Response | undefined;
      const started = Date.now();
      for (let i = 0; i < 25; i++) {
        const batch = await Promise.all(Array.from({ length: 10 }, () => call('/connectors/v1/providers')));
        for (const response of batch) {
          statuses.push(response.status);
          if (response.status === 429) limited ??= response;
          else await response.arrayBuffer();
        }
      }
      // The 200 burst plus what refills (100/min) while the loop runs: a loaded machine runs it slower.
      const refilled = Math.ceil(((Date.now() - started) / 60_000) * 100);
      const ok = statuses.filter((s) => s === 200).length;
      expect(ok).toBeGreaterThanOrEqual(200);
      expect(ok).toBeLessThanOrEqual(200 + refilled);
      expect(statuses.filter((s) => s === 429).length).toBe(250 - ok);
      expect(limited?.status).toBe(429);
      expect(limited!.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(((await limited!.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMIT_EXCEEDED');
    });
  },
);

describe('local server logs', () => {
  it('never contain an API key secret', () => {
    const secrets = [server.credentials.apiKey, server.credentials.systemKey].map((k) =>
      k.split('_').slice(2).join('_'),
    );
    for (const secret of secrets) expect(server.logs()).not.toContain(secret);
    expect(server.logs()).toContain('"message":"request"');
  });
});
