// The TypeScript client (clients/typescript) against the local server: the README's walkthrough
// (connect through the sandbox's consent, browse, link, run and wait, documents across pages, export;
// an endpoint, a published event received and verified, replayed), idempotency keys, and each error
// path as the typed error it maps to, with retries of 429 and 5xx honouring Retry-After.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AuthenticationError,
  Client,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  ValidationError,
  verify,
  WebhookVerificationError,
} from '../../clients/typescript/src/index';
import { consentThroughSandbox } from '../support/connect';
import type { RunningServer } from '../support/local-server';
import { startLocalServer } from '../support/local-server';
import type { Receiver } from '../support/receiver';
import { startReceiver } from '../support/receiver';
import { until } from '../support/until';
import { VECTORS_FILE, type Vector } from '../../scripts/webhook-vectors';

let server: RunningServer;
let receiver: Receiver;
let client: Client;

const VAULT = 'vlt_ts_client';
const fast = { intervalMs: 200, timeoutMs: 60_000 };

beforeAll(async () => {
  receiver = await startReceiver();
  // A burst the rate-limit test exhausts in a few dozen calls, and a sustained rate (20/s) the
  // walkthrough's polling stays under.
  server = await startLocalServer({ RATE_LIMIT_PER_MINUTE: '1200', RATE_LIMIT_BURST: '40' });
  client = new Client({ baseUrl: server.baseUrl, apiKey: server.credentials.apiKey });
});

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

async function connect(provider: 'practice' | 'drive', account: string): Promise<string> {
  const pending = await client.connections.create({ provider, return_url: 'https://app.example.com/back' });
  const { connectionId } = await consentThroughSandbox(pending.connect_url, account);
  return connectionId;
}

describe('the README walkthrough with the TypeScript client', () => {
  let connectionId: string;
  let linkId: string;
  let imported: number;

  it('creates a connection and completes the sandbox consent; the connection is healthy', async () => {
    const providers = await client.providers.list();
    expect(providers.data.map((p) => p.id)).toContain('practice');
    connectionId = await connect('practice', 'acct-ts-1');
    expect(await client.connections.get(connectionId)).toMatchObject({ id: connectionId, status: 'healthy' });
    const listed = await client.connections.list({ limit: 1 }).toArray();
    expect(listed.map((c) => c.id)).toContain(connectionId);
  });

  it('browses the provider across pages (page_token) and into a matter', async () => {
    const sources = client.connections.sources(connectionId, { limit: 2 });
    const pages = [];
    for await (const page of sources.pages()) pages.push(page);
    expect(pages.length).toBeGreaterThan(1);
    const matters = pages.flatMap((p) => p.data);
    expect(new Set(matters.map((m) => m.id)).size).toBe(matters.length);
    const files = await client.connections.sources(connectionId, { parent: matters[0]!.id }).toArray();
    expect(files.length).toBeGreaterThan(1);
    expect(files.every((f) => f.kind === 'file')).toBe(true);

    const link = await client.links.create(connectionId, { vault_id: VAULT, source: { id: matters[0]!.id } });
    expect(link).toMatchObject({ connection_id: connectionId, vault_id: VAULT, status: 'idle' });
    linkId = link.id;
  });

  it('runs the import and waits for its job', async () => {
    const started = await client.links.runs.start(linkId);
    const job = await client.jobs.wait(started, fast);
    expect(job).toMatchObject({ id: started.id, kind: 'sync', status: 'succeeded' });
    imported = (job as { counts: { imported: number } }).counts.imported;
    expect(imported).toBeGreaterThan(1);
    const runs = await client.links.runs.list(linkId).toArray();
    expect(runs.map((r) => r.id)).toContain(started.id);
  });

  it('lists the imported documents one per page, every page', async () => {
    let pages = 0;
    const documents = [];
    for await (const page of client.links.documents(linkId, { limit: 1 }).pages()) {
      pages += 1;
      documents.push(...page.data);
    }
    expect(documents).toHaveLength(imported);
    expect(pages).toBeGreaterThanOrEqual(imported);
    expect(new Set(documents.map((d) => d.document_id)).size).toBe(imported);
  });

  it('exports the documents to a folder of a file-storage connection', async () => {
    const drive = await connect('drive', 'acct-ts-drive');
    const folder = (await client.connections.sources(drive).toArray()).find((s) => s.kind === 'container')!;
    const ids = (await client.links.documents(linkId).toArray()).map((d) => d.document_id);
    const started = await client.exports.create(drive, {
      vault_id: VAULT,
      document_ids: ids,
      destination: { id: folder.id },
    });
    const job = await client.jobs.wait(started.id, fast);
    expect(job).toMatchObject({ kind: 'export', status: 'succeeded', counts: { exported: ids.length } });
  });

  it('receives a published event, verifies it with the client, and replays it', async () => {
    const created = await client.endpoints.create({
      url: receiver.url('/ts-client'),
      eventTypeFilters: ['matter.created'],
    });
    const { endpoint, signingSecret: secret } = created;
    expect(secret).toMatch(/^whsec_/);
    const listed = await client.endpoints.list({ limit: 1 }).toArray();
    expect(listed.map((e) => e.id)).toContain(endpoint.id);

    const system = new Client({ baseUrl: server.baseUrl, apiKey: server.credentials.systemKey });
    const event = await system.events.publish({
      organizationId: server.credentials.organizationId,
      type: 'matter.created',
      data: { matterId: 'mat_ts_client', name: 'Client walkthrough' },
    });
    const received = () => receiver.received.filter((r) => r.path === '/ts-client');
    await until('the delivery', async () => received()[0]);
    const first = received()[0]!;
    expect(verify(first.body, first.headers, secret)).toMatchObject({
      id: event.id,
      type: 'matter.created',
    });
    expect(() => verify(first.body.replace('Client', 'Clint'), first.headers, secret)).toThrow(
      WebhookVerificationError,
    );

    const delivery = await until('the delivery recorded as delivered', async () => {
      const found = (await client.endpoints.deliveries(endpoint.id).toArray()).find(
        (d) => d.eventId === event.id,
      );
      return found?.status === 'delivered' ? found : undefined;
    });
    await client.deliveries.replay(delivery.id);
    await until('the replay', async () => received()[1]);
    const replayed = received()[1]!;
    expect(replayed.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(verify(replayed.body, replayed.headers, secret)).toMatchObject({ id: event.id });
  });
});

const CLIENT_DIR = join(
  import.meta.dirname ?? new URL('.', import.meta.url).pathname,
  '..',
  '..',
  'clients',
  'typescript',
);

/** A free TCP port on loopback. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe("the README's quickstart program", () => {
  it('is in the README as it is in examples/', () => {
    const program = readFileSync(join(CLIENT_DIR, 'examples', 'quickstart.ts'), 'utf8');
    expect(readFileSync(join(CLIENT_DIR, 'README.md'), 'utf8')).toContain(program);
  });

  it('connects, imports, exports and verifies a webhook, run as a customer would', async () => {
    // The program as published imports the package by name; here it imports the package's source.
    const dir = mkdtempSync(join(tmpdir(), 'ces-quickstart-'));
    const program = readFileSync(join(CLIENT_DIR, 'examples', 'quickstart.ts'), 'utf8').replace(
      "from 'ces-client'",
      `from '${join(CLIENT_DIR, 'src', 'index.ts')}'`,
    );
    writeFileSync(join(dir, 'quickstart.mts'), program);
    const child = spawn(process.execPath, ['--import', 'tsx', join(dir, 'quickstart.mts')], {
      cwd: join(CLIENT_DIR, '..', '..'),
      env: {
        ...process.env,
        CES_BASE_URL: server.baseUrl,
        CES_API_KEY: server.credentials.apiKey,
        PORT: String(await freePort()),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let consented: Promise<unknown> | undefined;
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const open = /Open (\S+)/.exec(output);
      if (open && !consented) consented = consentThroughSandbox(open[1]!, 'acct-ts-quickstart');
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const code = await exited;
    await consented;
    expect({ code, output }).toMatchObject({ code: 0 });
    expect(output).toContain('import succeeded');
    expect(output).toContain('export succeeded');
    expect(output).toContain('webhook verified connector.sync.completed');
  }, 120_000);
});

describe('idempotency keys on creates', () => {
  it('answers a retried create with the first outcome, and a reused key with another request 409', async () => {
    const body = { provider: 'practice' as const, return_url: 'https://app.example.com/back' };
    const first = await client.connections.create(body, { idempotencyKey: 'ts-client-create-1' });
    const again = await client.connections.create(body, { idempotencyKey: 'ts-client-create-1' });
    expect(again.connection_id).toBe(first.connection_id);
    // Without a key the client makes one per call: two calls, two connections.
    const [a, b] = [await client.connections.create(body), await client.connections.create(body)];
    expect(a.connection_id).not.toBe(b.connection_id);
    const conflict = await client.connections
      .create({ ...body, provider: 'drive' }, { idempotencyKey: 'ts-client-create-1' })
      .catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(conflict).toMatchObject({ status: 409, code: 'CONFLICT' });
  });
});

describe('errors as typed errors carrying the error body', () => {
  it('401 for an unknown key', async () => {
    const stranger = new Client({ baseUrl: server.baseUrl, apiKey: 'sk_test_not_a_key' });
    const error = await stranger.providers.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({
      status: 401,
      code: 'AUTH_INVALID',
      body: { error: { code: 'AUTH_INVALID' } },
    });
    expect((error as Error).message).not.toContain('sk_test_not_a_key');
  });

  it('403 for a key without the permission', async () => {
    const reader = new Client({
      baseUrl: server.baseUrl,
      apiKey: server.createKey('connectors:read').apiKey,
    });
    const error = await reader.endpoints
      .list()
      .first()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ status: 403, code: 'PERMISSION_DENIED' });
  });

  it('404 for an unknown resource', async () => {
    const error = await client.connections.get('conn_aaaaaaaaaaaaaaaaaaaa').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', requestId: expect.any(String) });
  });

  it('400 for a request the service refuses as invalid (the service answers 400, never 422)', async () => {
    const error = await client.endpoints
      .create({ url: 'not a url', eventTypeFilters: ['matter.created'] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
  });

  it('429 with Retry-After: an error when retrying is off, waited out when it is on', async () => {
    const key = server.createKey('connectors:read').apiKey;
    const impatient = new Client({ baseUrl: server.baseUrl, apiKey: key, retry: { maxRetries: 0 } });
    let limited: unknown;
    // Batches of concurrent calls, so the bucket (20/s refill) empties however slow the machine is.
    for (let i = 0; i < 20 && !limited; i++) {
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, () =>
          impatient.providers.list().then(
            () => undefined,
            (e: unknown) => e,
          ),
        ),
      );
      limited = outcomes.find((outcome) => outcome !== undefined);
    }
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED' });
    const retryAfter = (limited as RateLimitError).retryAfterSeconds!;
    expect(retryAfter).toBeGreaterThanOrEqual(1);

    // At once, on the bucket just emptied, more calls than refill in the second Retry-After asks for:
    // the service refuses some with 429 (the fetch sees them), the client waits each out, all resolve.
    const statuses: number[] = [];
    const patient = new Client({
      baseUrl: server.baseUrl,
      apiKey: key,
      fetch: async (request) => {
        const response = await fetch(request);
        statuses.push(response.status);
        return response;
      },
    });
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 20 }, () => patient.providers.list()));
    expect(answers.every((a) => a.data.length > 0)).toBe(true);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(retryAfter * 1000);
  });
});

describe('retries against a scripted HTTP server', () => {
  // The local server cannot be made to fail on demand: a real server answers 503s, a 422 and a 500.
  async function scripted(
    answers: Array<{ status: number; headers?: Record<string, string>; body?: unknown }>,
  ) {
    const seen: Array<{ method: string; key: string | undefined; at: number }> = [];
    const http = createServer((request, response) => {
      seen.push({
        method: request.method!,
        key: request.headers['idempotency-key'] as string,
        at: Date.now(),
      });
      const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
      response.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers });
      response.end(JSON.stringify(answer.body ?? {}));
      request.resume();
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    return { url, seen, close: () => new Promise<void>((resolve) => http.close(() => resolve())) };
  }
  const unavailable = {
    status: 503,
    headers: { 'Retry-After': '1' },
    body: { error: { code: 'SERVICE_UNAVAILABLE', message: 'later' } },
  };

  it('retries a 503 after its Retry-After, keeping the same Idempotency-Key', async () => {
    const fake = await scripted([unavailable, { status: 202, body: { id: 'evt_1' } }]);
    try {
      const c = new Client({ baseUrl: fake.url, apiKey: 'k' });
      await c.events.publish({
        organizationId: 'org_aaaaaaaaaaaaaaaaaaaa',
        type: 'matter.created',
        data: { matterId: 'm', name: 'n' },
      });
      expect(fake.seen).toHaveLength(2);
      expect(fake.seen[1]!.at - fake.seen[0]!.at).toBeGreaterThanOrEqual(950);
      expect(fake.seen[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
      expect(fake.seen[1]!.key).toBe(fake.seen[0]!.key);
    } finally {
      await fake.close();
    }
  });

  it('stops within its budget and throws the last answer as a ServerError', async () => {
    const fake = await scripted([unavailable]);
    try {
      const c = new Client({ baseUrl: fake.url, apiKey: 'k', retry: { maxRetries: 5, budgetMs: 2_500 } });
      const error = await c.providers.list().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServerError);
      expect(error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      expect(fake.seen).toHaveLength(3); // two waits of 1 s fit in 2.5 s, a third does not
    } finally {
      await fake.close();
    }
  });

  it('does not repeat a POST without an Idempotency-Key after a 500, and maps 422 to ValidationError', async () => {
    const fake = await scripted([{ status: 500, body: { error: { code: 'INTERNAL_ERROR', message: 'x' } } }]);
    try {
      const c = new Client({ baseUrl: fake.url, apiKey: 'k' });
      await expect(c.links.runs.start('lnk_aaaaaaaaaaaaaaaaaaaa')).rejects.toBeInstanceOf(ServerError);
      expect(fake.seen).toHaveLength(1);
    } finally {
      await fake.close();
    }
    const invalid = await scripted([
      { status: 422, body: { error: { code: 'INVALID_REQUEST', message: 'bad' } } },
    ]);
    try {
      const c = new Client({ baseUrl: invalid.url, apiKey: 'k' });
      await expect(c.providers.list()).rejects.toMatchObject({ constructor: ValidationError, status: 422 });
    } finally {
      await invalid.close();
    }
  });
});

describe('webhook verification with the service signer’s test vectors', () => {
  const { tolerance_seconds, vectors } = JSON.parse(readFileSync(VECTORS_FILE, 'utf8')) as {
    tolerance_seconds: number;
    vectors: Vector[];
  };
  it.each(vectors.map((v) => [v.name, v] as const))('%s', (_name, vector) => {
    const run = () =>
      verify(vector.payload, vector.headers, vector.secrets, {
        nowSeconds: vector.now,
        toleranceSeconds: tolerance_seconds,
      });
    if (vector.expected.valid) expect(run()).toEqual(JSON.parse(vector.payload));
    else expect(run).toThrow(expect.objectContaining({ reason: vector.expected.reason }));
  });
});
