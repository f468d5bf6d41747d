// The production Clio client (functions/connectors/infra/content/clio.ts) against the sandbox's Clio fake
// over real HTTP: matters and documents with `fields` and cursor pages, changes by `updated_since` with
// trashed documents as deletions, the 303 download followed without our token, the three-step upload
// (idempotent through its external property, never replacing a same-named document), and Clio's errors
// and rate-limit answers.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { ClioApi } from '../../functions/connectors/providers/clio/client';
import { ProviderApiError } from '../../functions/connectors/infra/content/http';
import { ManualClock } from '../../functions/platform/clock';
import type { AccountTree, FolderNode } from '../../sandbox/content/tree';
import { textContent } from '../../sandbox/content/tree';
import { clioFake } from '../../sandbox/providers/clio';
import { clioId, parseFields, trash } from '../../sandbox/providers/clio/documents';
import type { FakeHarness } from '../support/fake-harness';
import { startFakeHarness } from '../support/fake-harness';

const ACCOUNT = 'acct-clio-1';

const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
let fake: FakeHarness;
let base: string;
/** Every request the fake saw: method, path, whether it carried a bearer token. */
const seen: { method: string; path: string; authorized: boolean }[] = [];

beforeAll(async () => {
  fake = await startFakeHarness(clioFake, clock, (request: IncomingMessage) =>
    seen.push({
      method: request.method ?? '',
      path: (request.url ?? '/').split('?')[0]!,
      authorized: Boolean(request.headers.authorization),
    }),
  );
  base = `${fake.base}/clio`;
  fake.grant('tok', ACCOUNT, ['clio']);
});

afterAll(() => fake.close());

const text = (value: string) => ({ contentType: 'text/plain', content: textContent(value) });

async function read(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function failure(promise: Promise<unknown>): Promise<ProviderApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderApiError) return error;
    throw error;
  }
  throw new Error('expected a ProviderApiError');
}

async function pass(client: ClioApi, matter: string, cursor: string | undefined, limit = 2) {
  const files = [];
  let page = await client.changes('tok', matter, { cursor }, limit);
  files.push(...page.files);
  while ('page' in page.next) {
    page = await client.changes('tok', matter, { page: page.next.page }, limit);
    files.push(...page.files);
  }
  return { files, cursor: page.next.cursor };
}

const upload = (client: ClioApi, matter: string, name: string, content: string, key: string) =>
  client.upload('tok', matter, {
    name,
    contentType: 'text/plain',
    size: Buffer.byteLength(content),
    body: Readable.from([Buffer.from(content)]),
    idempotencyKey: key,
  });

describe('Clio client against the fake', () => {
  let t: AccountTree;
  let acme: FolderNode;
  let docs: ReturnType<AccountTree['putFile']>['file'][];
  beforeAll(() => {
    t = fake.tree(ACCOUNT);
    acme = t.addFolder(t.root, 'Acme v. Globex');
    t.addFolder(t.root, 'Estate of Harlow');
    t.addFolder(t.root, 'Rivera dispute');
    docs = ['Complaint.txt', 'Answer.txt', 'Discovery.txt'].map(
      (name) => t.putFile(acme, name, text(`${name} body`)).file,
    );
  });
  const matterId = (folder: FolderNode) => String(clioId(t, folder.id));
  const docId = (nodeId: string) => String(clioId(t, nodeId));

  it('parses Clio field lists, nested ones too', () => {
    expect(parseFields('id,name,latest_document_version{id,size},matter{id}')).toEqual({
      id: true,
      name: true,
      latest_document_version: { id: true, size: true },
      matter: { id: true },
    });
    expect(parseFields(null)).toEqual({ id: true, etag: true });
    expect(() => parseFields('id,{')).toThrow(/malformed/);
  });

  it('browses matters and their documents page by page', async () => {
    const client = new ClioApi({ apiUrl: base });
    const first = await client.browse('tok', undefined, { limit: 2 });
    expect(first.entries).toHaveLength(2);
    expect(first.next).toBeDefined();
    const second = await client.browse('tok', undefined, { limit: 2, token: first.next });
    expect(second.next).toBeUndefined();
    const names = [...first.entries, ...second.entries].map((e) => e.name);
    expect(names).toEqual([
      expect.stringMatching(/^\d{5} Acme v\. Globex$/),
      expect.stringMatching(/Estate of Harlow$/),
      expect.stringMatching(/Rivera dispute$/),
    ]);
    expect(first.entries[0]).toMatchObject({ id: matterId(acme), kind: 'container' });
    const documents = await client.browse('tok', matterId(acme), { limit: 50 });
    expect(documents.entries.map((e) => e.name)).toEqual(['Complaint.txt', 'Answer.txt', 'Discovery.txt']);
    expect(documents.entries[0]).toMatchObject({ kind: 'file', size: 18, version: String(docs[0]!.version) });
    await expect(client.checkContainer('tok', matterId(acme))).resolves.toBeUndefined();
    expect((await failure(client.checkContainer('tok', '999999'))).status).toBe(404);
    expect((await failure(client.checkContainer('tok', 'not-a-number'))).status).toBe(404);
    // The fake answers only the fields asked for, as Clio does: a client that forgot `fields` would
    // get ids and etags only.
    const raw = (await (
      await fetch(`${base}/api/v4/matters.json`, { headers: { Authorization: 'Bearer tok' } })
    ).json()) as { data: Record<string, unknown>[] };
    expect(Object.keys(raw.data[0]!).sort()).toEqual(['etag', 'id']);
  });

  it('imports a matter, then reports changes since the pass began, trashed documents as deleted', async () => {
    const client = new ClioApi({ apiUrl: base });
    const full = await pass(client, matterId(acme), undefined);
    expect(full.files.map((f) => f.name)).toEqual(['Complaint.txt', 'Answer.txt', 'Discovery.txt']);
    // The cursor is Clio's own clock (the Date header) less the overlap minute.
    expect(full.cursor).toBe(new Date(Date.parse('2030-01-01T00:00:00Z') - 60_000).toISOString());

    clock.advance(10 * 60_000);
    const quiet = await pass(client, matterId(acme), full.cursor);
    expect(quiet.files.map((f) => f.name).sort()).toEqual(['Answer.txt', 'Complaint.txt', 'Discovery.txt']);
    clock.advance(10 * 60_000);
    const nothing = await pass(client, matterId(acme), quiet.cursor);
    expect(nothing.files).toEqual([]);

    clock.advance(60_000);
    t.putFile(acme, 'Answer.txt', text('amended answer'));
    t.putFile(acme, 'Settlement.txt', text('settlement'));
    trash(t, docs[2]!, clock.now());
    const changed = await pass(client, matterId(acme), nothing.cursor, 1);
    const byName = new Map(changed.files.map((f) => [f.name, f]));
    expect([...byName.keys()].sort()).toEqual(['Answer.txt', 'Discovery.txt', 'Settlement.txt']);
    expect(byName.get('Discovery.txt')).toMatchObject({ id: docId(docs[2]!.id), deleted: true });
    expect(byName.get('Answer.txt')).toMatchObject({
      deleted: false,
      version: String(t.file(docs[1]!.id)!.version),
    });
  });

  it('downloads through the 303 to storage without sending the token there', async () => {
    const client = new ClioApi({ apiUrl: base });
    seen.length = 0;
    const download = await client.download('tok', docId(docs[0]!.id));
    expect(await read(download.body)).toBe('Complaint.txt body');
    expect(download.size).toBe(18);
    expect(seen.map((s) => [s.method, s.path.replace(/[0-9a-f-]{36}/, 'KEY'), s.authorized])).toEqual([
      ['GET', `/clio/api/v4/documents/${docId(docs[0]!.id)}/download.json`, true],
      ['GET', `/clio/clio-storage/${ACCOUNT}/KEY`, false],
    ]);
    expect((await failure(client.download('tok', '424242'))).status).toBe(404);
  });

  it('uploads in three steps, never over a same-named document, and once per idempotency key', async () => {
    const client = new ClioApi({ apiUrl: base });
    // The user's Complaint.txt holds the name: Clio would keep two, this client refuses the second.
    expect(await client.findFile('tok', matterId(acme), 'Complaint.txt')).toMatchObject({
      id: docId(docs[0]!.id),
    });
    await expect(
      upload(client, matterId(acme), 'Complaint.txt', 'our complaint', 'exp_key_0'),
    ).rejects.toMatchObject({ reason: 'name_taken' });
    seen.length = 0;
    const first = await upload(client, matterId(acme), 'Complaint (2).txt', 'our complaint', 'exp_key_1');
    expect(seen.map((s) => [s.method, s.path.replace(/[0-9a-f-]{36}/, 'KEY'), s.authorized])).toEqual([
      ['GET', '/clio/api/v4/documents.json', true],
      ['GET', '/clio/api/v4/documents.json', true],
      ['POST', '/clio/api/v4/documents.json', true],
      ['PUT', `/clio/clio-storage/${ACCOUNT}/KEY`, false],
      ['PATCH', `/clio/api/v4/documents/${first.id}.json`, true],
    ]);
    expect(await read((await client.download('tok', docId(docs[0]!.id))).body)).toBe('Complaint.txt body');
    expect(await read((await client.download('tok', first.id)).body)).toBe('our complaint');
    expect(await client.findFile('tok', matterId(acme), 'Complaint (2).txt')).toEqual(first);
    // A retried step with the same key finds the document it made.
    expect(await upload(client, matterId(acme), 'Complaint (2).txt', 'our complaint', 'exp_key_1')).toEqual(
      first,
    );
    const listed = await client.browse('tok', matterId(acme), { limit: 50 });
    expect(listed.entries.filter((e) => e.name.startsWith('Complaint'))).toHaveLength(2);
    await expect(upload(client, matterId(acme), '..', 'x', 'exp_key_2')).rejects.toMatchObject({
      reason: 'invalid_name',
    });
  });

  it("reads Clio's errors: 401, 429 with Retry-After and the rate-limit window, 5xx", async () => {
    const client = new ClioApi({ apiUrl: base });
    expect(
      (await failure(new ClioApi({ apiUrl: base }).browse('nope', undefined, { limit: 1 }))).status,
    ).toBe(401);
    fake.fail({ status: 429, retryAfter: 12 });
    expect(await failure(client.browse('tok', undefined, { limit: 1 }))).toMatchObject({
      status: 429,
      retryAfterSeconds: 12,
      providerError: 'RateLimited',
    });
    fake.fail({ status: 503 });
    expect((await failure(client.browse('tok', undefined, { limit: 1 }))).status).toBe(503);
    const answer = await fetch(`${base}/api/v4/matters.json?fields=id`, {
      headers: { Authorization: 'Bearer tok' },
    });
    expect(Number(answer.headers.get('x-ratelimit-limit'))).toBeGreaterThan(0);
    expect(Number(answer.headers.get('x-ratelimit-remaining'))).toBeLessThan(
      Number(answer.headers.get('x-ratelimit-limit')),
    );
    expect(Number(answer.headers.get('x-ratelimit-reset'))).toBe(Math.floor(clock.now() / 60_000 + 1) * 60);
  });
  it('streams a 200 MiB file through the client within a memory budget', async () => {
    const size = 200 * 1024 * 1024;
    const big = t.putFile(acme, 'Big.bin', {
      contentType: 'application/octet-stream',
      content: { kind: 'generated', size },
    }).file;
    const memory = () => {
      const usage = process.memoryUsage();
      return usage.arrayBuffers + usage.heapUsed;
    };
    const baseline = memory();
    const download = await new ClioApi({ apiUrl: base }).download('tok', docId(big.id));
    expect(download.size).toBe(size);
    const hash = createHash('sha256');
    let received = 0;
    let chunks = 0;
    let peak = 0;
    for await (const chunk of download.body as AsyncIterable<Buffer>) {
      hash.update(chunk);
      received += chunk.length;
      if (++chunks % 8 === 0) peak = Math.max(peak, memory() - baseline);
    }
    expect(received).toBe(size);
    // The fake runs in this process too: held whole, the file would add 200 MiB here.
    expect(peak).toBeLessThan(96 * 1024 * 1024);
    expect(hash.digest('hex')).toMatch(/^[0-9a-f]{64}$/);
  });
});
