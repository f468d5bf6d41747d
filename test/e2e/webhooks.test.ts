// Webhook endpoints over HTTP against the local server: every route, validation, tenancy, permissions,
// and signed test deliveries to a real loopback receiver across a secret rotation.
import type { IncomingHttpHeaders, Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook } from '../../functions/webhooks/domain/signing';
import type { RunningServer } from '../support/local-server';
import { api, startLocalServer } from '../support/local-server';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  eventTypeFilters: string[];
  resourceScopes: { vaultIds?: string[]; matterIds?: string[] } | null;
  enabled: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
  previousSecretExpiresAt: string | null;
}

interface Created {
  endpoint: Endpoint;
  signingSecret: string;
}

let server: RunningServer;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
let answer: { status: number; headers?: Record<string, string>; body?: string } = { status: 200 };
const issuedSecrets: string[] = [];

beforeAll(async () => {
  server = await startLocalServer();
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        path: request.url ?? '/',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(answer.status, answer.headers ?? {});
      response.end(answer.body ?? 'ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await server.stop();
  await new Promise((resolve) => receiver.close(resolve));
});

const call = () => api(server);
const json = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body) });

async function create(body: unknown, key?: string): Promise<Created> {
  const response = await api(server, key)('/webhooks/v1/endpoints', json(body));
  const payload = (await response.json()) as Created;
  expect(response.status).toBe(201);
  issuedSecrets.push(payload.signingSecret);
  return payload;
}

async function errorOf(response: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, ...body.error };
}

function newOrgKey(): string {
  return server.otherOrganization('other').apiKey;
}

function ownKey(permissions: string): string {
  return server.createKey(permissions).apiKey;
}

const valid = { url: 'https://hooks.example.com/receive', eventTypeFilters: ['vault.ingest.completed'] };

describe('POST /webhooks/v1/endpoints', () => {
  it('creates an endpoint and shows its whsec_ signing secret once', async () => {
    const { endpoint, signingSecret } = await create({
      ...valid,
      eventTypeFilters: ['vault.ingest.*', 'connection.revoked'],
      resourceScopes: { vaultIds: ['vault_1'] },
      description: 'ingestion hooks',
    });
    expect(signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint).toEqual({
      id: expect.stringMatching(/^we_[a-z2-7]{20}$/),
      url: valid.url,
      description: 'ingestion hooks',
      eventTypeFilters: ['vault.ingest.*', 'connection.revoked'],
      resourceScopes: { vaultIds: ['vault_1'] },
      enabled: true,
      disabledAt: null,
      disabledReason: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: endpoint.createdAt,
      previousSecretExpiresAt: null,
    });
    const fetched = await call()(`/webhooks/v1/endpoints/${endpoint.id}`);
    expect(fetched.status).toBe(200);
    const text = await fetched.text();
    expect(JSON.parse(text)).toEqual({ ...endpoint, failingSince: null }); // reads add the health streak
    expect(text).not.toContain('whsec_');
    expect(text).not.toContain('ermissions');
  });

  it('accepts http on 127.0.0.1 and localhost outside production, and `*`', async () => {
    await create({ url: 'http://127.0.0.1:9/x', eventTypeFilters: ['*'] });
    await create({ url: 'http://localhost:9/x', eventTypeFilters: ['vault.*', 'webhook.test'] });
  });

  const tooMany = Array.from({ length: 101 }, (_, i) => `vault_${i}`);
  const cases: [string, unknown, string][] = [
    ['no url', { eventTypeFilters: ['*'] }, 'url: must be a string'],
    ['a relative url', { ...valid, url: '/hooks' }, 'url: must be an absolute URL'],
    ['an ftp url', { ...valid, url: 'ftp://hooks.example.com/x' }, 'url: must use https'],
    [
      'http on a public host',
      { ...valid, url: 'http://hooks.example.com/x' },
      'url: must use https (http is accepted only for localhost and 127.0.0.1)',
    ],
    [
      'credentials in the url',
      { ...valid, url: 'https://user:pw@hooks.example.com/x' },
      'url: must not embed credentials (user:password@host)',
    ],
    [
      'a url too long',
      { ...valid, url: `https://hooks.example.com/${'a'.repeat(2048)}` },
      'url: must be at most 2048 characters',
    ],
    ['no filters', { url: valid.url }, 'eventTypeFilters: must be an array of strings'],
    [
      'an empty filter list',
      { ...valid, eventTypeFilters: [] },
      'eventTypeFilters: must name at least one filter',
    ],
    [
      'an unknown type',
      { ...valid, eventTypeFilters: ['vault.ingest.done'] },
      'eventTypeFilters.0: unknown event type vault.ingest.done (GET /webhooks/v1/event-types lists them)',
    ],
    [
      'a prefix matching nothing',
      { ...valid, eventTypeFilters: ['*', 'nothing.*'] },
      'eventTypeFilters.1: nothing.* matches no event type',
    ],
    [
      'a malformed wildcard',
      { ...valid, eventTypeFilters: ['vault*'] },
      'eventTypeFilters.0: must be an event type, a prefix wildcard such as vault.* or vault.ingest.*, or *',
    ],
    [
      'a duplicate filter',
      { ...valid, eventTypeFilters: ['vault.*', 'vault.*'] },
      'eventTypeFilters.1: duplicate value vault.*',
    ],
    [
      'too many filters',
      { ...valid, eventTypeFilters: Array.from({ length: 51 }, () => '*') },
      'eventTypeFilters: must name at most 50 filters',
    ],
    [
      'a filter that is not a string',
      { ...valid, eventTypeFilters: [7] },
      'eventTypeFilters.0: must be a string',
    ],
    [
      'empty resource scopes',
      { ...valid, resourceScopes: {} },
      'resourceScopes: must name vaultIds or matterIds',
    ],
    [
      'an empty vault list',
      { ...valid, resourceScopes: { vaultIds: [] } },
      'resourceScopes.vaultIds: must name at least one id (omit the field for no restriction)',
    ],
    [
      'a duplicate matter id',
      { ...valid, resourceScopes: { matterIds: ['m1', 'm1'] } },
      'resourceScopes.matterIds.1: duplicate value m1',
    ],
    [
      'too many vault ids',
      { ...valid, resourceScopes: { vaultIds: tooMany } },
      'resourceScopes.vaultIds: must name at most 100 ids',
    ],
    [
      'a malformed vault id',
      { ...valid, resourceScopes: { vaultIds: ['a b'] } },
      'resourceScopes.vaultIds.0: must be an identifier (letters, digits, _ and -)',
    ],
    [
      'an unknown scope kind',
      { ...valid, resourceScopes: { projectIds: ['p'] } },
      'resourceScopes: Unrecognized key: "projectIds"',
    ],
    [
      'a description too long',
      { ...valid, description: 'd'.repeat(501) },
      'description: must be at most 500 characters',
    ],
    ['an unknown field', { ...valid, secret: 'mine' }, 'Unrecognized key: "secret"'],
  ];

  it.each(cases)('answers 400 INVALID_REQUEST naming the field for %s', async (_name, body, message) => {
    const response = await call()('/webhooks/v1/endpoints', json(body));
    const error = await errorOf(response);
    expect(error).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
    expect(error.message).toContain(message);
  });

  it('answers 400 to a url with control characters or spaces, and stores the normalised url', async () => {
    for (const url of [
      'https://hooks.example.com/in\r\nX-Evil: 1',
      'https://hooks.example.com/\u0000',
      ' https://hooks.example.com/in',
    ]) {
      expect(await errorOf(await call()('/webhooks/v1/endpoints', json({ ...valid, url })))).toEqual({
        status: 400,
        code: 'INVALID_REQUEST',
        message: 'Invalid request body: url: must not contain spaces or control characters',
      });
    }
    const { endpoint } = await create({ ...valid, url: 'https://Bücher.Example/in?q=é' });
    expect(endpoint.url).toBe('https://xn--bcher-kva.example/in?q=%C3%A9');
    const patched = await call()(`/webhooks/v1/endpoints/${endpoint.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ url: 'https:hooks.example.com/cb' }),
    });
    expect(((await patched.json()) as Endpoint).url).toBe('https://hooks.example.com/cb');
  });

  it('answers 400 to a body that is not JSON and to no body', async () => {
    const notJson = await call()('/webhooks/v1/endpoints', { method: 'POST', body: '{"url":' });
    expect(await errorOf(notJson)).toEqual({
      status: 400,
      code: 'INVALID_REQUEST',
      message: 'Request body is not valid JSON',
    });
    const empty = await errorOf(await call()('/webhooks/v1/endpoints', { method: 'POST' }));
    expect(empty).toEqual({
      status: 400,
      code: 'INVALID_REQUEST',
      message: 'Invalid request body: must be an object',
    });
  });
});

describe('permissions', () => {
  it('answers 403 to a key without webhooks:write, and without webhooks:read for reads', async () => {
    const readOnly = ownKey('webhooks:read');
    expect(await errorOf(await api(server, readOnly)('/webhooks/v1/endpoints', json(valid)))).toEqual({
      status: 403,
      code: 'PERMISSION_DENIED',
      message: 'This key lacks the webhooks:write permission',
    });
    const connectorsOnly = ownKey('connectors:read');
    expect((await api(server, connectorsOnly)('/webhooks/v1/endpoints')).status).toBe(403);
    expect((await api(server, connectorsOnly)('/webhooks/v1/event-types')).status).toBe(403);
  });

  it('answers 403 to a filter selecting events the key may not receive; `*` narrows instead', async () => {
    const key = ownKey('webhooks:write,webhooks:read,connectors:read');
    expect(
      await errorOf(
        await api(server, key)('/webhooks/v1/endpoints', json({ ...valid, eventTypeFilters: ['vault.*'] })),
      ),
    ).toEqual({
      status: 403,
      code: 'PERMISSION_DENIED',
      message:
        'eventTypeFilters: this key lacks the vaults:read permission needed to receive vault.ingest.completed, vault.ingest.failed',
    });
    await create({ ...valid, eventTypeFilters: ['connection.*', 'webhook.test'] }, key);
    await create({ ...valid, eventTypeFilters: ['*'] }, key);
  });
});

describe('list, get, update, enable, disable, delete', () => {
  it('lists newest first with limit, offset and hasMore', async () => {
    const key = newOrgKey();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create({ ...valid, description: `n${i}` }, key)).endpoint.id);
    const first = (await (await api(server, key)('/webhooks/v1/endpoints?limit=2')).json()) as {
      data: Endpoint[];
      limit: number;
      offset: number;
      hasMore: boolean;
    };
    expect(first).toMatchObject({ limit: 2, offset: 0, hasMore: true });
    expect(first.data.map((e) => e.id)).toEqual([ids[2], ids[1]]);
    const second = (await (await api(server, key)('/webhooks/v1/endpoints?limit=2&offset=2')).json()) as {
      data: Endpoint[];
      hasMore: boolean;
    };
    expect(second.data.map((e) => e.id)).toEqual([ids[0]]);
    expect(second.hasMore).toBe(false);
    const all = await (await api(server, key)('/webhooks/v1/endpoints')).text();
    expect(all).not.toContain('whsec_');
    expect(JSON.parse(all)).toMatchObject({ limit: 50, offset: 0, hasMore: false });
  });

  it('answers 400 to a bad limit or offset', async () => {
    expect(await errorOf(await call()('/webhooks/v1/endpoints?limit=0'))).toEqual({
      status: 400,
      code: 'INVALID_REQUEST',
      message: 'Invalid query parameters: limit: limit must be at least 1',
    });
    expect((await call()('/webhooks/v1/endpoints?offset=-1')).status).toBe(400);
    expect((await call()('/webhooks/v1/endpoints?limit=abc')).status).toBe(400);
  });

  it('updates url, filters, scopes and description, and removes scopes and description with null', async () => {
    const { endpoint } = await create({ ...valid, description: 'before' });
    const patch = (body: unknown) =>
      call()(`/webhooks/v1/endpoints/${endpoint.id}`, { method: 'PATCH', body: JSON.stringify(body) });
    const changed = await patch({
      url: 'https://other.example.com/in',
      eventTypeFilters: ['matter.*'],
      resourceScopes: { matterIds: ['matter_9'] },
      description: 'after',
    });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({
      id: endpoint.id,
      url: 'https://other.example.com/in',
      eventTypeFilters: ['matter.*'],
      resourceScopes: { matterIds: ['matter_9'] },
      description: 'after',
    });
    const cleared = (await (await patch({ resourceScopes: null, description: null })).json()) as Endpoint;
    expect(cleared).toMatchObject({
      resourceScopes: null,
      description: null,
      url: 'https://other.example.com/in',
    });
    expect(await errorOf(await patch({}))).toEqual({
      status: 400,
      code: 'INVALID_REQUEST',
      message:
        'Invalid request body: must change at least one of url, eventTypeFilters, resourceScopes, description',
    });
    expect((await errorOf(await patch({ url: 'http://hooks.example.com' }))).message).toContain(
      'url: must use https',
    );
    expect((await errorOf(await patch({ eventTypeFilters: ['nope'] }))).message).toContain(
      'eventTypeFilters.0: unknown event type nope',
    );
    const limited = ownKey('webhooks:write,webhooks:read');
    const denied = await api(server, limited)(`/webhooks/v1/endpoints/${endpoint.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ eventTypeFilters: ['billing.*'] }),
    });
    expect((await errorOf(denied)).status).toBe(403);
  });

  it('disables and enables', async () => {
    const { endpoint } = await create(valid);
    const disabled = (await (
      await call()(`/webhooks/v1/endpoints/${endpoint.id}/disable`, { method: 'POST' })
    ).json()) as Endpoint;
    expect(disabled).toMatchObject({ enabled: false, disabledReason: 'disabled through the API' });
    expect(disabled.disabledAt).toEqual(expect.any(String));
    const enabled = (await (
      await call()(`/webhooks/v1/endpoints/${endpoint.id}/enable`, { method: 'POST' })
    ).json()) as Endpoint;
    expect(enabled).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null });
  });

  it('deletes with 204, then answers 404', async () => {
    const { endpoint } = await create(valid);
    const deleted = await call()(`/webhooks/v1/endpoints/${endpoint.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(await errorOf(await call()(`/webhooks/v1/endpoints/${endpoint.id}`))).toEqual({
      status: 404,
      code: 'NOT_FOUND',
      message: 'Webhook endpoint not found',
    });
    expect((await call()(`/webhooks/v1/endpoints/${endpoint.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('answers 404 to an id that cannot exist', async () => {
    for (const id of ['nope', `we_${'a'.repeat(20)}`, 'x'.repeat(3000)]) {
      expect((await call()(`/webhooks/v1/endpoints/${id}`)).status).toBe(404);
    }
  });
});

describe('organization scoping', () => {
  it("answers 404 to every route on another organization's endpoint", async () => {
    const { endpoint } = await create(valid);
    const other = api(server, newOrgKey());
    const path = `/webhooks/v1/endpoints/${endpoint.id}`;
    const attempts: [string, RequestInit][] = [
      [path, {}],
      [path, { method: 'PATCH', body: JSON.stringify({ description: 'mine now' }) }],
      [path, { method: 'DELETE' }],
      [`${path}/enable`, { method: 'POST' }],
      [`${path}/disable`, { method: 'POST' }],
      [`${path}/rotate-secret`, { method: 'POST' }],
      [`${path}/test`, { method: 'POST' }],
    ];
    for (const [url, init] of attempts) {
      expect(await errorOf(await other(url, init))).toEqual({
        status: 404,
        code: 'NOT_FOUND',
        message: 'Webhook endpoint not found',
      });
    }
    const listed = (await (await other('/webhooks/v1/endpoints')).json()) as { data: Endpoint[] };
    expect(listed.data.map((e) => e.id)).not.toContain(endpoint.id);
    expect(await (await call()(path)).json()).toMatchObject({ description: null, enabled: true });
  });
});

describe('GET /webhooks/v1/event-types', () => {
  it('lists the catalog with descriptions, JSON Schemas of data and permissions', async () => {
    const response = await call()('/webhooks/v1/event-types');
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      data: { type: string; description: string; permission: string; schema: Record<string, unknown> }[];
      hasMore: boolean;
    };
    expect(body.hasMore).toBe(false);
    const types = body.data.map((t) => t.type);
    for (const type of [
      'vault.ingest.completed',
      'connection.reauth_required',
      'connection.revoked',
      'webhook.test',
      'webhook.endpoint.disabled',
    ]) {
      expect(types).toContain(type);
    }
    for (const family of ['vault.', 'ocr.', 'transcription.', 'matter.', 'billing.', 'deployment.']) {
      expect(types.some((t) => t.startsWith(family))).toBe(true);
    }
    const ingest = body.data.find((t) => t.type === 'vault.ingest.completed')!;
    expect(ingest.permission).toBe('vaults:read');
    expect(ingest.schema).toMatchObject({
      type: 'object',
      properties: {
        vaultId: { type: 'string' },
        objectId: { type: 'string' },
        durationMs: { type: 'integer' },
        chunkCount: { type: 'integer' },
      },
      required: ['vaultId', 'objectId', 'durationMs', 'chunkCount'],
    });
    for (const t of body.data) expect(t.description.length).toBeGreaterThan(5);
    const page = (await (await call()('/webhooks/v1/event-types?limit=2&offset=1')).json()) as {
      data: { type: string }[];
      hasMore: boolean;
    };
    expect(page.data.map((t) => t.type)).toEqual(types.slice(1, 3));
    expect(page.hasMore).toBe(true);
  });
});

describe('test deliveries and secret rotation', () => {
  async function test(id: string) {
    const response = await call()(`/webhooks/v1/endpoints/${id}/test`, { method: 'POST' });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain('whsec_');
    return JSON.parse(text) as {
      eventId: string;
      delivered: boolean;
      outcome: string;
      statusCode: number | null;
      errorKind: string | null;
      latencyMs: number;
    };
  }

  const webhookHeadersOf = (r: Received) => ({
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  });

  it('sends a signed webhook.test event and reports the outcome', async () => {
    answer = { status: 200 };
    const { endpoint, signingSecret } = await create({
      url: `${receiverUrl}/hook`,
      eventTypeFilters: ['vault.*'],
    });
    received.length = 0;
    const result = await test(endpoint.id);
    expect(result).toMatchObject({ delivered: true, outcome: 'delivered', statusCode: 200, errorKind: null });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(received).toHaveLength(1);
    const delivery = received[0]!;
    expect(delivery.path).toBe('/hook');
    expect(delivery.headers['content-type']).toBe('application/json');
    const payload = new Webhook(signingSecret).verify(delivery.body, webhookHeadersOf(delivery)) as Record<
      string,
      unknown
    >;
    expect(payload).toEqual({
      id: result.eventId,
      type: 'webhook.test',
      occurred_at: expect.stringMatching(/Z$/),
      data: { endpointId: endpoint.id, message: expect.any(String) },
    });
    expect(delivery.headers['webhook-id']).toBe(result.eventId);
  });

  it('reports a 500 as not delivered (retry) and a redirect as failed', async () => {
    const { endpoint } = await create({ url: `${receiverUrl}/hook`, eventTypeFilters: ['*'] });
    answer = { status: 503, headers: { 'Retry-After': '30' } };
    expect(await test(endpoint.id)).toMatchObject({
      delivered: false,
      outcome: 'retry',
      statusCode: 503,
      errorKind: 'http_status',
    });
    answer = { status: 302, headers: { Location: 'http://169.254.169.254/' } };
    expect(await test(endpoint.id)).toMatchObject({
      delivered: false,
      outcome: 'failed',
      statusCode: 302,
      errorKind: 'redirect',
    });
    answer = { status: 200 };
  });

  it('signs with the old and the new secret for 24 hours after a rotation, then with the new one only', async () => {
    answer = { status: 200 };
    const { endpoint, signingSecret: oldSecret } = await create({
      url: `${receiverUrl}/rotating`,
      eventTypeFilters: ['*'],
    });
    const rotated = await call()(`/webhooks/v1/endpoints/${endpoint.id}/rotate-secret`, { method: 'POST' });
    expect(rotated.status).toBe(200);
    const { endpoint: after, signingSecret: newSecret } = (await rotated.json()) as Created;
    issuedSecrets.push(newSecret);
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    const overlapEnd = Date.parse(after.previousSecretExpiresAt!) - Date.parse(after.updatedAt);
    expect(overlapEnd).toBe(24 * 60 * 60 * 1000);

    received.length = 0;
    expect((await test(endpoint.id)).delivered).toBe(true);
    const during = received[0]!;
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [oldSecret, newSecret]) {
      expect(new Webhook(secret).verify(during.body, webhookHeadersOf(during))).toMatchObject({
        type: 'webhook.test',
      });
    }

    await server.advanceClock(24 * 60 * 60 * 1000 + 60_000);
    received.length = 0;
    expect((await test(endpoint.id)).delivered).toBe(true);
    const later = received[0]!;
    expect(String(later.headers['webhook-signature']).split(' ')).toHaveLength(1);
    const nowSeconds = Number(later.headers['webhook-timestamp']);
    expect(verifyWebhook(newSecret, later.headers, later.body, { nowSeconds })).toMatchObject({
      type: 'webhook.test',
    });
    expect(() => verifyWebhook(oldSecret, later.headers, later.body, { nowSeconds })).toThrow(
      'No matching signature',
    );
    expect(await (await call()(`/webhooks/v1/endpoints/${endpoint.id}`)).json()).toMatchObject({
      previousSecretExpiresAt: null,
    });
  });
});

describe('logs', () => {
  it('never contain a signing secret', () => {
    expect(issuedSecrets.length).toBeGreaterThan(5);
    const logs = server.logs();
    for (const secret of issuedSecrets) expect(logs).not.toContain(secret.slice('whsec_'.length));
    expect(logs).not.toContain('whsec_');
  });
});

describe('endpoint URLs in production', () => {
  let prod: RunningServer;
  beforeAll(async () => {
    prod = await startLocalServer({ STAGE: 'prod' });
  });
  afterAll(async () => {
    await prod.stop();
  });

  it.each([
    ['http on localhost', 'http://localhost:3000/in', 'url: must use https'],
    ['https on localhost', 'https://localhost/in', 'url: must not point at localhost'],
    ['a loopback address', 'https://127.0.0.1/in', 'url: must not point at a loopback address'],
    ['a private address', 'https://10.0.0.1/in', 'url: must not point at a private address'],
    ['a link-local address', 'https://169.254.10.1/in', 'url: must not point at a link-local address'],
    ['the metadata address', 'https://169.254.169.254/latest', 'url: must not point at a metadata address'],
    ['an IPv6 loopback', 'https://[::1]/in', 'url: must not point at a loopback address'],
  ])('answers 400 to %s', async (_name, url, message) => {
    const response = await api(prod)('/webhooks/v1/endpoints', json({ url, eventTypeFilters: ['*'] }));
    expect(await errorOf(response)).toEqual({
      status: 400,
      code: 'INVALID_REQUEST',
      message: `Invalid request body: ${message}`,
    });
  });

  it('accepts a public https URL', async () => {
    const response = await api(prod)('/webhooks/v1/endpoints', json(valid));
    expect(response.status).toBe(201);
  });
});
