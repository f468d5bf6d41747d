// The production Dropbox client (functions/connectors/infra/content/dropbox.ts) against the sandbox's
// Dropbox fake over real HTTP: browsing with cursors, the recursive changes feed (create, modify, move,
// delete, a reset cursor), downloads by non-ASCII paths (header-safe Dropbox-API-Arg), uploads in one
// call and in a session, the conflict policy (add + autorename), and Dropbox's error shapes read as the
// statuses the service acts on.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { DropboxApi, headerSafeJson } from '../../functions/connectors/providers/dropbox/client';
import { UploadRefusedError } from '../../functions/connectors/infra/content/api';
import { ProviderApiError } from '../../functions/connectors/infra/content/http';
import { ManualClock } from '../../functions/platform/clock';
import { textContent } from '../../sandbox/content/tree';
import { dropboxFake } from '../../sandbox/providers/dropbox';
import { resetCursors } from '../../sandbox/providers/dropbox/files';
import type { FakeHarness } from '../support/fake-harness';
import { startFakeHarness } from '../support/fake-harness';

const ACCOUNT = 'acct-dbx-1';
const KiB = 1024;
const SCOPES = ['account_info.read', 'files.metadata.read', 'files.content.read', 'files.content.write'];

const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
let fake: FakeHarness;
let base: string;

beforeAll(async () => {
  fake = await startFakeHarness(dropboxFake, clock);
  base = `${fake.base}/dropbox`;
  fake.grant('tok-full', ACCOUNT, SCOPES);
  fake.grant('tok-read', ACCOUNT, ['files.metadata.read', 'files.content.read']);
});

afterAll(() => fake.close());

const api = (options: { singleUploadMax?: number; chunkBytes?: number } = {}) =>
  new DropboxApi({ apiUrl: base, contentUrl: `${base}/content`, ...options });

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

/** Walks a changes pass to its end: every file reported, and the cursor kept. */
async function pass(client: DropboxApi, container: string, cursor: string | undefined, limit = 2) {
  const files = [];
  let page = await client.changes('tok-full', container, { cursor }, limit);
  files.push(...page.files);
  while ('page' in page.next) {
    page = await client.changes('tok-full', container, { page: page.next.page }, limit);
    files.push(...page.files);
  }
  return { files, cursor: page.next.cursor };
}

describe('Dropbox client against the fake', () => {
  let t: ReturnType<FakeHarness['tree']>;
  let clients: ReturnType<typeof t.addFolder>;
  let acme: typeof clients;
  beforeAll(() => {
    t = fake.tree(ACCOUNT);
    clients = t.addFolder(t.root, 'Clients');
    acme = t.addFolder(clients, 'Acme');
    t.putFile(acme, 'Engagement letter.txt', text('engagement'));
    t.putFile(acme, 'Résumé – 日本.txt', text('non-ascii name'));
    t.putFile(clients, 'Index.txt', text('index'));
  });

  it('browses folders by id with cursors, the root as "/"', async () => {
    const client = api();
    const top = await client.browse('tok-full', undefined, { limit: 10 });
    expect(top.entries).toEqual([{ id: '/', name: 'Dropbox', kind: 'container' }]);
    const root = await client.browse('tok-full', '/', { limit: 10 });
    expect(root.entries).toEqual([{ id: `id:${clients.id}`, name: 'Clients', kind: 'container' }]);
    const first = await client.browse('tok-full', `id:${clients.id}`, { limit: 1 });
    expect(first.entries).toHaveLength(1);
    expect(first.next).toBeDefined();
    const second = await client.browse('tok-full', `id:${clients.id}`, { limit: 1, token: first.next });
    const names = [...first.entries, ...second.entries].map((e) => e.name).sort();
    expect(names).toEqual(['Acme', 'Index.txt']);
    const file = [...first.entries, ...second.entries].find((e) => e.kind === 'file')!;
    expect(file).toMatchObject({
      id: '/clients/index.txt',
      size: 5,
      version: expect.stringMatching(/^[0-9a-f]{9,}$/),
    });
    await expect(client.checkContainer('tok-full', `id:${acme.id}`)).resolves.toBeUndefined();
    expect((await failure(client.checkContainer('tok-full', 'id:fld_nope'))).status).toBe(404);
    // A file is not a container.
    expect((await failure(client.checkContainer('tok-full', '/clients/index.txt'))).status).toBe(404);
  });

  it('imports the subtree, then reports creations, changes, moves and deletions by path', async () => {
    const client = api();
    const full = await pass(client, `id:${clients.id}`, undefined);
    expect(full.files.map((f) => f.id).sort()).toEqual([
      '/clients/acme/engagement letter.txt',
      '/clients/acme/résumé – 日本.txt',
      '/clients/index.txt',
    ]);
    expect(full.files.every((f) => !f.deleted && f.version)).toBe(true);
    const nothing = await pass(client, `id:${clients.id}`, full.cursor);
    expect(nothing.files).toEqual([]);

    const letter = [...acme.byName.values()].find((n) => n.name === 'Engagement letter.txt')!;
    const index = [...clients.byName.values()].find((n) => n.name === 'Index.txt')!;
    clock.advance(1000);
    t.putFile(acme, 'New.txt', text('new'));
    t.putFile(clients, 'Index.txt', text('index v2'));
    t.moveFile(t.file(letter.id)!, clients, 'Letter.txt');
    const outside = t.addFolder(t.root, 'Elsewhere');
    t.putFile(outside, 'Not mine.txt', text('outside the link'));
    const changed = await pass(client, `id:${clients.id}`, nothing.cursor);
    const byId = new Map(changed.files.map((f) => [f.id, f]));
    expect([...byId.keys()].sort()).toEqual([
      '/clients/acme/engagement letter.txt',
      '/clients/acme/new.txt',
      '/clients/index.txt',
      '/clients/letter.txt',
    ]);
    expect(byId.get('/clients/acme/engagement letter.txt')!.deleted).toBe(true);
    expect(byId.get('/clients/letter.txt')!.deleted).toBe(false);
    const indexBefore = full.files.find((f) => f.id === '/clients/index.txt')!;
    expect(byId.get('/clients/index.txt')!.version).not.toBe(indexBefore.version);

    t.deleteFile(t.file(index.id)!);
    const deleted = await pass(client, `id:${clients.id}`, changed.cursor);
    // A deletion may be a folder's (Dropbox does not say): every one is `subtree`.
    expect(deleted.files).toEqual([
      { id: '/clients/index.txt', name: 'Index.txt', version: '', deleted: true, subtree: true },
    ]);

    // A deleted folder is reported as the folder alone, not file by file.
    const doomed = t.addFolder(clients, 'Doomed');
    t.putFile(t.addFolder(doomed, 'Inner'), 'a.txt', text('a'));
    t.putFile(doomed, 'b.txt', text('b'));
    const made = await pass(client, `id:${clients.id}`, deleted.cursor);
    expect(made.files.map((f) => f.id).sort()).toEqual([
      '/clients/doomed/b.txt',
      '/clients/doomed/inner/a.txt',
    ]);
    t.deleteFolder(doomed);
    const gone = await pass(client, `id:${clients.id}`, made.cursor);
    expect(gone.files).toEqual([
      { id: '/clients/doomed', name: 'Doomed', version: '', deleted: true, subtree: true },
    ]);

    // A cursor Dropbox no longer honours (409 reset) tells the run to start over (a full run).
    resetCursors(t);
    await expect(pass(client, `id:${clients.id}`, gone.cursor)).rejects.toMatchObject({
      name: 'FeedRestartError',
      detail: 'reset',
    });
    t.resetFeeds();
    const fresh = await pass(client, `id:${clients.id}`, undefined);
    await expect(pass(client, `id:${clients.id}`, fresh.cursor)).resolves.toBeDefined();
  });

  it('reports a folder moved away as the folder alone, and one moved in or within as its files at their new paths', async () => {
    const client = api();
    const moving = t.addFolder(clients, 'Moving');
    t.putFile(t.addFolder(moving, 'Inner'), 'a.txt', text('a'));
    t.putFile(moving, 'b.txt', text('b'));
    const away = t.addFolder(t.root, 'Away');
    const start = await pass(client, `id:${clients.id}`, undefined);
    expect(start.files.map((f) => f.id)).toEqual(
      expect.arrayContaining(['/clients/moving/b.txt', '/clients/moving/inner/a.txt']),
    );

    // Out of the linked folder: its old path deleted, once, whatever was in it.
    t.moveFolder(moving, away);
    const out = await pass(client, `id:${clients.id}`, start.cursor, 1);
    expect(out.files).toEqual([
      { id: '/clients/moving', name: 'Moving', version: '', deleted: true, subtree: true },
    ]);

    // Back in under a new name: the files at their new paths (nothing was there to delete).
    t.moveFolder(moving, clients, 'Moved');
    const back = await pass(client, `id:${clients.id}`, out.cursor);
    expect(back.files.map((f) => [f.id, f.deleted])).toEqual([
      ['/clients/moved/inner/a.txt', false],
      ['/clients/moved/b.txt', false],
    ]);

    // Within: the old path deleted, the files at the new one.
    t.moveFolder(moving, acme);
    const within = await pass(client, `id:${clients.id}`, back.cursor);
    expect(within.files.map((f) => [f.id, f.deleted])).toEqual([
      ['/clients/moved', true],
      ['/clients/acme/moved/inner/a.txt', false],
      ['/clients/acme/moved/b.txt', false],
    ]);
    // The folder's own id names it wherever it is; the tree refuses a move into itself.
    expect(() => t.moveFolder(moving, t.folder(moving.id)!)).toThrow('into itself');
  });

  it('downloads by a non-ASCII path: the argument header is escaped JSON, the fake refuses raw UTF-8', async () => {
    const client = api();
    const download = await client.download('tok-full', '/clients/acme/résumé – 日本.txt');
    expect(await read(download.body)).toBe('non-ascii name');
    expect(download.size).toBe(14);
    expect(download.version).toMatch(/^[0-9a-f]{9,}$/);
    expect(headerSafeJson({ path: '/é' })).toBe('{"path":"/\\u00e9"}');
    // The same request with the JSON as is (é as the single latin1 byte a header can carry) is refused.
    const raw = await fetch(`${base}/content/2/files/download`, {
      method: 'POST',
      headers: {
        Authorization: 'Bearer tok-full',
        'Dropbox-API-Arg': JSON.stringify({ path: '/clients/é' }),
      },
    });
    expect(raw.status).toBe(400);
    expect(await raw.text()).toMatch(/Dropbox-API-Arg/);
    const missing = await failure(client.download('tok-full', '/clients/gone.txt'));
    expect(missing).toMatchObject({ status: 404, providerError: 'path.not_found' });
  });

  it('uploads without ever replacing a file: same bytes are the same file, a taken name is refused', async () => {
    const client = api();
    const upload = (name: string, content: string, replace?: { id: string; name: string; version: string }) =>
      client.upload('tok-full', `id:${acme.id}`, {
        name,
        contentType: 'text/plain',
        size: Buffer.byteLength(content),
        body: Readable.from([Buffer.from(content)]),
        idempotencyKey: 'k',
        ...(replace ? { replace } : {}),
      });
    const first = await upload('Export.txt', 'exported');
    expect(first).toMatchObject({ id: '/clients/acme/export.txt', name: 'Export.txt' });
    expect(await client.findFile('tok-full', `id:${acme.id}`, 'export.TXT')).toEqual(first);
    expect(await client.findFile('tok-full', `id:${acme.id}`, 'Nothing.txt')).toBeUndefined();
    // A retried step sends the same bytes: no second file, no new version.
    expect(await upload('Export.txt', 'exported')).toEqual(first);
    // The user's own file of that name is kept: the upload is refused (add mode, no autorename).
    t.putFile(acme, 'Letterhead.txt', text("the user's letterhead"));
    await expect(upload('Letterhead.txt', 'our letterhead')).rejects.toMatchObject({ reason: 'name_taken' });
    expect(await read((await client.download('tok-full', '/clients/acme/letterhead.txt')).body)).toBe(
      "the user's letterhead",
    );
    // Our own export is replaced in `update` mode, only at the rev seen.
    const second = await upload('Export.txt', 'exported, version 2', first);
    expect(second.version).not.toBe(first.version);
    await expect(upload('Export.txt', 'exported, version 3', first)).rejects.toMatchObject({
      reason: 'changed',
    });
    expect(await read((await client.download('tok-full', '/clients/acme/export.txt')).body)).toBe(
      'exported, version 2',
    );
    // Names that would change the path are refused before any request.
    for (const name of ['../x.txt', '..', '.', '', 'a\u0000b', 'a\r\nb'])
      await expect(upload(name, 'x')).rejects.toBeInstanceOf(UploadRefusedError);
  });

  it('uploads above the single-call size through an upload session, chunk by chunk', async () => {
    const client = api({ singleUploadMax: 64 * KiB, chunkBytes: 32 * KiB });
    const content = Buffer.alloc(100 * KiB + 7, 'abcdefghij');
    const out = await client.upload('tok-full', '/', {
      name: 'Large.bin',
      contentType: 'application/octet-stream',
      size: content.length,
      // Uneven pieces: the client re-cuts them into session chunks.
      body: Readable.from([
        content.subarray(0, 1000),
        content.subarray(1000, 50_000),
        content.subarray(50_000),
      ]),
      idempotencyKey: 'k',
    });
    expect(out.id).toBe('/large.bin');
    const back = await client.download('tok-full', '/large.bin');
    const chunks: Buffer[] = [];
    for await (const chunk of back.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(content)).toBe(true);
  });

  it('resumes a session chunk after a lost answer (incorrect_offset says it arrived) and after a failed send', async () => {
    const client = api({ singleUploadMax: 64 * KiB, chunkBytes: 32 * KiB });
    const content = Buffer.alloc(100 * KiB + 7);
    for (let i = 0; i < content.length; i++) content[i] = i % 253;
    const realFetch = globalThis.fetch;
    const appends: number[] = [];
    globalThis.fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.endsWith('/upload_session/append_v2')) {
        const arg = JSON.parse(new Headers(init?.headers).get('dropbox-api-arg')!) as {
          cursor: { offset: number };
        };
        appends.push(arg.cursor.offset);
        // The first chunk arrives but its answer is lost; the second fails before it is sent.
        if (appends.length === 1) {
          await (await realFetch(input, init)).arrayBuffer();
          throw new TypeError('fetch failed');
        }
        if (appends.length === 3) throw new TypeError('fetch failed');
      }
      return realFetch(input, init);
    };
    try {
      const out = await client.upload('tok-full', '/', {
        name: 'Resumed.bin',
        contentType: 'application/octet-stream',
        size: content.length,
        body: Readable.from([content]),
        idempotencyKey: 'k',
      });
      expect(out.id).toBe('/resumed.bin');
    } finally {
      globalThis.fetch = realFetch;
    }
    // 0 (arrived, answer lost), 0 again (incorrect_offset: 32 KiB held), 32 KiB (failed), 32 KiB, 64 KiB.
    expect(appends).toEqual([0, 0, 32 * KiB, 32 * KiB, 64 * KiB]);
    const back = await client.download('tok-full', '/resumed.bin');
    const chunks: Buffer[] = [];
    for await (const chunk of back.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(content)).toBe(true);
  });

  it('reads Dropbox errors as the statuses the service acts on', async () => {
    const client = api();
    // Missing scope is a 401 at Dropbox, but no refresh can fix it: 403 insufficient_scope.
    const scope = await failure(
      client.upload('tok-read', '/', {
        name: 'x.txt',
        contentType: 'text/plain',
        size: 1,
        body: Readable.from([Buffer.from('x')]),
        idempotencyKey: 'k',
      }),
    );
    expect(scope).toMatchObject({ status: 403, providerError: 'insufficient_scope' });
    // An unknown token is a 401 (the service refreshes once, then reauth_required).
    expect((await failure(client.browse('tok-unknown', '/', { limit: 1 }))).status).toBe(401);
    // Write throttling: 429 with Retry-After in the header and the body.
    fake.fail({ status: 429, reason: 'too_many_write_operations', retryAfter: 7 });
    const throttled = await failure(
      client.upload('tok-full', '/', {
        name: 'y.txt',
        contentType: 'text/plain',
        size: 1,
        body: Readable.from([Buffer.from('y')]),
        idempotencyKey: 'k',
      }),
    );
    expect(throttled).toMatchObject({
      status: 429,
      retryAfterSeconds: 7,
      providerError: 'too_many_write_operations',
    });
    fake.fail({ status: 503, retryAfter: 3 });
    expect(await failure(client.browse('tok-full', '/', { limit: 1 }))).toMatchObject({
      status: 503,
      retryAfterSeconds: 3,
    });
    // A cursor from another folder's listing is bad input (400), never another folder's files.
    expect((await failure(client.changes('tok-full', '/', { cursor: 'not-a-cursor' }, 10))).status).toBe(400);
  });
  it('streams a 200 MiB file through the client within a memory budget', async () => {
    const size = 200 * 1024 * 1024;
    t.putFile(clients, 'Big.bin', {
      contentType: 'application/octet-stream',
      content: { kind: 'generated', size },
    });
    const memory = () => {
      const usage = process.memoryUsage();
      return usage.arrayBuffers + usage.heapUsed;
    };
    const baseline = memory();
    const download = await api().download('tok-full', '/clients/big.bin');
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
