// The sandbox provider's content APIs over real HTTP, with tokens from its own authorize and token
// endpoints, on a manual clock: access (401/403), seeded trees, stable pagination, delta feeds,
// streamed downloads and uploads, idempotent uploads, injected errors, rate limits, revoked grants.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { get as httpGet, request as httpRequest } from 'node:http';
import type { SandboxOptions, SandboxProvider } from '../../sandbox';
import { startSandboxProvider } from '../../sandbox';
import { ManualClock } from '../../functions/platform/clock';
import type { SandboxTestClient } from '../support/sandbox-tokens';
import { sandboxTestClient } from '../support/sandbox-tokens';

const PRACTICE_SCOPES = ['matters.read', 'documents.read', 'documents.write'];
const DRIVE_SCOPES = ['files.read', 'files.write'];
const MiB = 1024 * 1024;

interface Doc {
  id: string;
  name: string;
  content_type: string;
  size: number;
  version: number;
  updated_at: string;
  deleted?: boolean;
}
interface DriveEntry {
  id: string;
  name: string;
  type: 'file' | 'folder';
  size?: number;
  version?: number;
  mime_type?: string;
  modified_at: string;
  path?: string;
  deleted?: true;
}
interface Listed {
  id: string;
  name: string;
  container_id: string;
  path: string;
  version: number;
  size: number;
  sha256: string;
}

/** A started sandbox with a practice and a drive client, and helpers speaking to it over HTTP. */
async function startWorld(options: SandboxOptions = {}) {
  const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
  const sandbox: SandboxProvider = await startSandboxProvider({ clock, exposeIssued: true, ...options });
  const clients: Record<'practice' | 'drive', SandboxTestClient> = {
    practice: sandboxTestClient(sandbox, 'practice', [...PRACTICE_SCOPES, 'contacts.read']),
    drive: sandboxTestClient(sandbox, 'drive', DRIVE_SCOPES),
  };
  const token = async (provider: 'practice' | 'drive', account: string, scopes?: string[]) =>
    (
      await clients[provider].tokens(
        account,
        scopes ?? (provider === 'practice' ? PRACTICE_SCOPES : DRIVE_SCOPES),
      )
    ).access_token;
  const call = (provider: string, accessToken: string | undefined, path: string, init: RequestInit = {}) =>
    fetch(`${sandbox.endpoints(provider).apiUrl}${path}`, {
      ...init,
      headers: { ...(accessToken ? { Authorization: `Bearer ${accessToken}` } : {}), ...init.headers },
    });
  const read = async <T>(provider: string, accessToken: string, path: string): Promise<T> => {
    const answer = await call(provider, accessToken, path);
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
    return (await answer.json()) as T;
  };
  const hook = (path: string, body?: unknown, method = 'POST') =>
    fetch(`${sandbox.url}/__sandbox/${path}`, {
      method,
      headers: { 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const put = async (provider: string, account: string, container: string, name: string, content: string) => {
    const answer = await hook('files', {
      provider,
      account_id: account,
      container_id: container,
      name,
      content,
    });
    expect([200, 201]).toContain(answer.status);
    return (await answer.json()) as { id: string; version: number };
  };
  const remove = async (provider: string, account: string, id: string) =>
    expect((await hook(`files/${provider}/${account}/${id}`, undefined, 'DELETE')).status).toBe(204);
  const listed = async (provider: string, account: string, container?: string) => {
    const query = new URLSearchParams({
      provider,
      account_id: account,
      ...(container ? { container_id: container } : {}),
    });
    return ((await (await fetch(`${sandbox.url}/__sandbox/files?${query}`)).json()) as { files: Listed[] })
      .files;
  };
  return { clock, sandbox, clients, token, call, read, hook, put, remove, listed };
}

type World = Awaited<ReturnType<typeof startWorld>>;

let accounts = 0;
const freshAccount = () => `acct-test-${++accounts}`;

async function firstMatter(world: World, account: string, accessToken: string): Promise<string> {
  const matters = await world.read<{ data: { id: string }[] }>('practice', accessToken, '/matters');
  return matters.data[0]!.id;
}

/** Every page of a practice listing, following next_page_token. */
async function allPages<T>(world: World, accessToken: string, path: string): Promise<T[]> {
  const items: T[] = [];
  let token: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const page: { data: T[]; next_page_token: string | null } = await world.read(
      'practice',
      accessToken,
      `${path}${token ? `${separator}page_token=${encodeURIComponent(token)}` : ''}`,
    );
    items.push(...page.data);
    token = page.next_page_token;
  } while (token);
  return items;
}

/** Walks a practice delta to its end: everything it reported and the sync token it ended on. */
async function walkDelta(world: World, accessToken: string, matter: string, since?: string, limit = 100) {
  const docs: Doc[] = [];
  const query = new URLSearchParams({ limit: String(limit), ...(since ? { since } : {}) });
  let page: { data: Doc[]; next_page_token: string | null; sync_token: string | null } = await world.read(
    'practice',
    accessToken,
    `/matters/${matter}/documents/delta?${query}`,
  );
  docs.push(...page.data);
  while (page.next_page_token) {
    expect(page.sync_token).toBeNull();
    page = await world.read(
      'practice',
      accessToken,
      `/matters/${matter}/documents/delta?limit=${limit}&page_token=${page.next_page_token}`,
    );
    docs.push(...page.data);
  }
  expect(page.sync_token).toEqual(expect.any(String));
  return { docs, syncToken: page.sync_token! };
}

/** Walks a drive change feed until has_more is false: entries and the cursor to keep. */
async function walkChanges(world: World, accessToken: string, folder: string, cursor?: string, limit = 100) {
  const entries: DriveEntry[] = [];
  let page: { entries: DriveEntry[]; cursor: string; has_more: boolean };
  do {
    const query = new URLSearchParams({ limit: String(limit), ...(cursor ? { cursor } : {}) });
    page = await world.read('drive', accessToken, `/folders/${folder}/changes?${query}`);
    entries.push(...page.entries);
    expect(page.cursor).toEqual(expect.any(String));
    cursor = page.cursor;
  } while (page.has_more);
  return { entries, cursor: cursor! };
}

let world: World;

beforeAll(async () => {
  world = await startWorld();
});

afterAll(async () => {
  await world?.sandbox.close();
});

describe('access', () => {
  it('answers 401 invalid_token with WWW-Authenticate without a token, with an unknown one or one of the other provider', async () => {
    const driveToken = await world.token('drive', freshAccount());
    for (const token of [undefined, 'sbx_at_unknown', driveToken]) {
      const answer = await world.call('practice', token, '/matters');
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      expect(await answer.json()).toEqual({ error: 'invalid_token' });
    }
  });

  it('answers 401 once the access token has expired on the sandbox clock', async () => {
    const local = await startWorld();
    try {
      const token = await local.token('practice', freshAccount());
      expect((await local.call('practice', token, '/matters')).status).toBe(200);
      local.clock.advance(3600_000 + 1);
      const answer = await local.call('practice', token, '/matters');
      expect(answer.status).toBe(401);
      expect(await answer.json()).toEqual({ error: 'invalid_token' });
    } finally {
      await local.sandbox.close();
    }
  });

  it('answers 403 insufficient_scope for what the grant was not given, and serves what it was', async () => {
    const account = freshAccount();
    const matterOnly = await world.token('practice', account, ['matters.read']);
    const matter = await firstMatter(world, account, matterOnly);
    const documents = await world.call('practice', matterOnly, `/matters/${matter}/documents`);
    expect(documents.status).toBe(403);
    expect(await documents.json()).toMatchObject({ error: 'insufficient_scope' });

    const readOnly = await world.token('practice', account, ['matters.read', 'documents.read']);
    expect((await world.call('practice', readOnly, `/matters/${matter}/documents`)).status).toBe(200);
    const upload = await world.call('practice', readOnly, `/matters/${matter}/documents?name=a.txt`, {
      method: 'POST',
      headers: { 'Idempotency-Key': 'k', 'Content-Type': 'text/plain' },
      body: 'x',
    });
    expect(upload.status).toBe(403);
    expect(await upload.json()).toMatchObject({ error: 'insufficient_scope' });

    const driveRead = await world.token('drive', account, ['files.read']);
    expect((await world.call('drive', driveRead, '/folders/root/children')).status).toBe(200);
    const write = await world.call('drive', driveRead, '/folders/root/files/a.txt', {
      method: 'PUT',
      body: 'x',
    });
    expect(write.status).toBe(403);
  });

  it('answers 404 not_found for unknown ids and endpoints, and 400 invalid_request for bad parameters', async () => {
    const account = freshAccount();
    const token = await world.token('practice', account);
    const matter = await firstMatter(world, account, token);
    for (const path of ['/matters/mat_nope/documents', '/documents/doc_nope/content', '/nothing-here']) {
      const answer = await world.call('practice', token, path);
      expect(answer.status).toBe(404);
      expect(await answer.json()).toMatchObject({ error: 'not_found' });
    }
    for (const query of [
      'limit=0',
      'limit=1001',
      'limit=ten',
      'limit=-1',
      'page_token=garbage',
      'page_token=e30',
    ]) {
      const answer = await world.call('practice', token, `/matters/${matter}/documents?${query}`);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error: 'invalid_request' });
    }
    expect((await world.call('practice', token, '/matters?limit=1000')).status).toBe(200);
    const drive = await world.token('drive', account);
    expect((await world.call('drive', drive, '/folders/fld_nope/children')).status).toBe(404);
    expect((await world.call('drive', drive, '/files/fil_nope/content')).status).toBe(404);
    expect((await world.call('drive', drive, '/folders/root/changes?cursor=bad')).status).toBe(400);
  });
});

describe('seeded trees', () => {
  it('gives a practice account three matters of three to six documents, the same in every run', async () => {
    const account = freshAccount();
    const snapshot = async (w: World) => {
      const token = await w.token('practice', account);
      const matters = await allPages<{ id: string; name: string }>(w, token, '/matters');
      return Promise.all(
        matters.map(async (m) => ({
          ...m,
          documents: await allPages<Doc>(w, token, `/matters/${m.id}/documents`),
        })),
      );
    };
    const other = await startWorld();
    try {
      const first = await snapshot(world);
      expect(await snapshot(other)).toEqual(first);
      expect(first).toHaveLength(3);
      for (const matter of first) {
        expect(matter.documents.length).toBeGreaterThanOrEqual(3);
        expect(matter.documents.length).toBeLessThanOrEqual(6);
        for (const doc of matter.documents) {
          expect(doc.version).toBeGreaterThan(0);
          expect(Number.isInteger(doc.version)).toBe(true);
          expect(doc.size).toBeGreaterThan(0);
        }
      }
      const contents = await other.listed('practice', account);
      expect(contents.map((f) => f.sha256)).toEqual(
        (await world.listed('practice', account)).map((f) => f.sha256),
      );
      const elsewhere = await other.listed('practice', freshAccount());
      expect(elsewhere.map((f) => f.id)).not.toEqual(contents.map((f) => f.id));
    } finally {
      await other.sandbox.close();
    }
  });

  it('gives a drive account folders nested two levels under root with files at every level', async () => {
    const files = await world.listed('drive', freshAccount());
    const depths = new Set(files.map((f) => f.path.split('/').length - 2));
    expect([...depths].sort()).toEqual([0, 1, 2, 3]);
    const token = await world.token('drive', 'acct-drive-seed');
    const root = await world.read<{ entries: DriveEntry[] }>('drive', token, '/folders/root/children');
    expect(root.entries.some((e) => e.type === 'folder')).toBe(true);
    expect(root.entries.some((e) => e.type === 'file' && e.size! > 0 && e.version! > 0 && e.mime_type)).toBe(
      true,
    );
  });
});

describe('pagination', () => {
  it('walks a matter page by page while documents change without skipping or repeating an unchanged one', async () => {
    const account = freshAccount();
    const token = await world.token('practice', account);
    const matter = await firstMatter(world, account, token);
    expect(
      (
        await world.hook('seed', {
          provider: 'practice',
          account_id: account,
          container_id: matter,
          count: 40,
        })
      ).status,
    ).toBe(201);
    const before = await world.listed('practice', account, matter);

    const seen: Doc[] = [];
    let page: { data: Doc[]; next_page_token: string | null } = await world.read(
      'practice',
      token,
      `/matters/${matter}/documents?limit=7`,
    );
    seen.push(...page.data);
    // Between pages: change two seen and two unseen documents, delete two unseen, add three.
    const seenIds = new Set(page.data.map((d) => d.id));
    const unseen = before.filter((f) => !seenIds.has(f.id));
    const touched = new Set<string>();
    for (const file of [...page.data.slice(0, 2), ...unseen.slice(0, 2)]) {
      await world.put('practice', account, matter, file.name, 'changed');
      touched.add(file.id);
    }
    for (const file of unseen.slice(2, 4)) {
      await world.remove('practice', account, file.id);
      touched.add(file.id);
    }
    for (const name of ['new-a.txt', 'new-b.txt', 'new-c.txt'])
      await world.put('practice', account, matter, name, 'new');
    while (page.next_page_token) {
      page = await world.read(
        'practice',
        token,
        `/matters/${matter}/documents?limit=7&page_token=${page.next_page_token}`,
      );
      seen.push(...page.data);
    }

    const counts = new Map<string, number>();
    for (const doc of seen) counts.set(doc.id, (counts.get(doc.id) ?? 0) + 1);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    for (const file of before.filter((f) => !touched.has(f.id))) expect(counts.get(file.id)).toBe(1);
    for (const file of unseen.slice(2, 4)) expect(counts.has(file.id)).toBe(false);
    expect(page.next_page_token).toBeNull();
  });

  it('walks a drive folder by cursor while files change without skipping or repeating an unchanged one', async () => {
    const account = freshAccount();
    const token = await world.token('drive', account);
    await world.hook('seed', { provider: 'drive', account_id: account, container_id: 'root', count: 30 });
    const before = (await world.listed('drive', account, 'root')).map((f) => f.id);
    const seen: string[] = [];
    let page: { entries: DriveEntry[]; cursor: string | null; has_more: boolean } = await world.read(
      'drive',
      token,
      '/folders/root/children?limit=4',
    );
    seen.push(...page.entries.map((e) => e.id));
    const unseenFiles = (await world.listed('drive', account, 'root')).filter((f) => !seen.includes(f.id));
    await world.put('drive', account, 'root', unseenFiles[0]!.name, 'changed');
    await world.remove('drive', account, unseenFiles[1]!.id);
    await world.put('drive', account, 'root', 'added.txt', 'added');
    while (page.has_more) {
      expect(page.cursor).toEqual(expect.any(String));
      page = await world.read('drive', token, `/folders/root/children?limit=4&cursor=${page.cursor}`);
      seen.push(...page.entries.map((e) => e.id));
    }
    expect(page.cursor).toBeNull();
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of before.filter((id) => id !== unseenFiles[1]!.id)) expect(seen).toContain(id);
    expect(seen).not.toContain(unseenFiles[1]!.id);
  });

  it('pages matters with a next_page_token and ends on null; a token of another matter is refused', async () => {
    const account = freshAccount();
    const token = await world.token('practice', account);
    const one = await world.read<{ data: unknown[]; next_page_token: string | null }>(
      'practice',
      token,
      '/matters?limit=1',
    );
    expect(one.data).toHaveLength(1);
    expect(one.next_page_token).toEqual(expect.any(String));
    const all = await allPages<{ id: string }>(world, token, '/matters?limit=1');
    expect(new Set(all.map((m) => m.id)).size).toBe(3);
    const [a, b] = all.map((m) => m.id);
    const pageOfA = await world.read<{ next_page_token: string }>(
      'practice',
      token,
      `/matters/${a}/documents?limit=1`,
    );
    const wrong = await world.call(
      'practice',
      token,
      `/matters/${b}/documents?page_token=${pageOfA.next_page_token}`,
    );
    expect(wrong.status).toBe(400);
  });
});

describe('delta and changes', () => {
  it('reports every current document, then exactly what was added, changed and deleted since the sync token', async () => {
    const account = freshAccount();
    const token = await world.token('practice', account);
    const matter = await firstMatter(world, account, token);
    const first = await walkDelta(world, token, matter, undefined, 2);
    const current = await allPages<Doc>(world, token, `/matters/${matter}/documents`);
    expect(first.docs.map((d) => d.id).sort()).toEqual(current.map((d) => d.id).sort());
    expect(first.docs.every((d) => d.deleted === false)).toBe(true);

    const [changed, deleted] = current;
    const added = await world.put('practice', account, matter, 'Added.txt', 'added');
    const bumped = await world.put('practice', account, matter, changed!.name, 'changed');
    await world.remove('practice', account, deleted!.id);
    const uploaded = await world.call('practice', token, `/matters/${matter}/documents?name=Upload.txt`, {
      method: 'POST',
      headers: { 'Idempotency-Key': 'delta-upload', 'Content-Type': 'text/plain' },
      body: 'uploaded',
    });
    expect(uploaded.status).toBe(201);
    const upload = (await uploaded.json()) as Doc;

    const second = await walkDelta(world, token, matter, first.syncToken, 2);
    expect(second.docs.map((d) => [d.id, d.deleted])).toEqual([
      [added.id, false],
      [changed!.id, false],
      [deleted!.id, true],
      [upload.id, false],
    ]);
    expect(second.docs[1]!.version).toBe(bumped.version);
    expect(bumped.version).toBeGreaterThan(changed!.version);

    const third = await walkDelta(world, token, matter, second.syncToken);
    expect(third.docs).toEqual([]);
    const other = (await allPages<{ id: string }>(world, token, '/matters')).find((m) => m.id !== matter)!;
    const foreign = await world.call(
      'practice',
      token,
      `/matters/${other.id}/documents/delta?since=${third.syncToken}`,
    );
    expect(foreign.status).toBe(400);
  });

  it('reports changes made during a paged first walk: moved documents later, deletions of seen ones', async () => {
    const account = freshAccount();
    const token = await world.token('practice', account);
    const matter = await firstMatter(world, account, token);
    const page1 = await world.read<{ data: Doc[]; next_page_token: string }>(
      'practice',
      token,
      `/matters/${matter}/documents/delta?limit=2`,
    );
    const [seenA, seenB] = page1.data;
    const changedSeen = await world.put('practice', account, matter, seenA!.name, 'changed after being seen');
    await world.remove('practice', account, seenB!.id);
    const rest = await world.read<{ data: Doc[]; next_page_token: string | null; sync_token: string | null }>(
      'practice',
      token,
      `/matters/${matter}/documents/delta?limit=100&page_token=${page1.next_page_token}`,
    );
    expect(rest.next_page_token).toBeNull();
    expect(rest.sync_token).toEqual(expect.any(String));
    expect(rest.data.find((d) => d.id === seenA!.id)).toMatchObject({
      version: changedSeen.version,
      deleted: false,
    });
    expect(rest.data.find((d) => d.id === seenB!.id)).toMatchObject({ deleted: true });
    const ids = rest.data.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('feeds the changes of a drive folder subtree, with paths, deletions, and a cursor to keep', async () => {
    const account = freshAccount();
    const token = await world.token('drive', account);
    const files = await world.listed('drive', account);
    const clients = files.find((f) => f.path.startsWith('/Clients/') && f.path.split('/').length === 3)!;
    const clientsFolder = clients.container_id;
    const inside = files.filter((f) => f.path.startsWith('/Clients/'));
    expect(inside.length).toBeGreaterThanOrEqual(3);

    const first = await walkChanges(world, token, clientsFolder, undefined, 2);
    expect(first.entries.map((e) => e.id).sort()).toEqual(inside.map((f) => f.id).sort());
    expect(
      first.entries.every((e) => e.type === 'file' && e.path!.startsWith('/Clients/') && !e.deleted),
    ).toBe(true);

    const deep = inside.find((f) => f.path.split('/').length === 5)!; // /Clients/<client>/Contracts/x
    const changed = await world.put('drive', account, deep.container_id, deep.name, 'new terms');
    const gone = inside.find((f) => f.id !== deep.id)!;
    await world.remove('drive', account, gone.id);
    await world.put('drive', account, 'root', 'Outside.txt', 'not in the subtree');

    const next = await walkChanges(world, token, clientsFolder, first.cursor);
    expect(next.entries).toEqual([
      expect.objectContaining({ id: deep.id, version: changed.version, path: deep.path }),
      expect.objectContaining({ id: gone.id, path: gone.path, deleted: true }),
    ]);
    expect(next.entries[0]).not.toHaveProperty('deleted');
    const idle = await world.read<{ entries: unknown[]; cursor: string; has_more: boolean }>(
      'drive',
      token,
      `/folders/${clientsFolder}/changes?cursor=${next.cursor}`,
    );
    expect(idle).toEqual({ entries: [], cursor: expect.any(String), has_more: false });
    const foreign = await world.call('drive', token, `/folders/root/changes?cursor=${next.cursor}`);
    expect(foreign.status).toBe(400);
  });
});

describe('downloads', () => {
  it('streams a document with its type, length and version as ETag, and answers 304 to that ETag', async () => {
    const account = freshAccount();
    const token = await world.token('practice', account);
    const [file] = await world.listed('practice', account);
    const answer = await world.call('practice', token, `/documents/${file!.id}/content`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/plain');
    expect(answer.headers.get('etag')).toBe(`"${file!.version}"`);
    const bytes = Buffer.from(await answer.arrayBuffer());
    expect(answer.headers.get('content-length')).toBe(String(bytes.length));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(file!.sha256);
    expect(bytes.toString('utf8')).toContain(`Account: ${account}`);
    const again = await world.call('practice', token, `/documents/${file!.id}/content`, {
      headers: { 'If-None-Match': `"${file!.version}"` },
    });
    expect(again.status).toBe(304);
    await world.remove('practice', account, file!.id);
    expect((await world.call('practice', token, `/documents/${file!.id}/content`)).status).toBe(404);
  });

  it('produces a large generated file as it is read: 256 MiB arrive whole while memory stays low', async () => {
    const account = freshAccount();
    const token = await world.token('drive', account);
    const size = 256 * MiB;
    const created = await world.hook('files', {
      provider: 'drive',
      account_id: account,
      container_id: 'root',
      name: 'large.bin',
      size,
    });
    const { id } = (await created.json()) as { id: string };
    const memory = () => {
      const usage = process.memoryUsage();
      return usage.arrayBuffers + usage.heapUsed;
    };
    const baseline = memory();
    const response = await new Promise<IncomingMessage>((resolve, reject) =>
      httpGet(
        `${world.sandbox.url}/drive/api/v1/files/${id}/content`,
        { headers: { Authorization: `Bearer ${token}` } },
        resolve,
      ).on('error', reject),
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-length']).toBe(String(size));
    expect(response.headers['content-type']).toBe('application/octet-stream');
    const hash = createHash('sha256');
    let received = 0;
    let chunks = 0;
    let peak = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      hash.update(chunk);
      received += chunk.length;
      if (++chunks % 8 === 0) peak = Math.max(peak, memory() - baseline);
    }
    expect(received).toBe(size);
    // The sandbox runs in this process: held whole, the file alone would add 256 MiB here. Streamed,
    // what is in flight plus garbage not yet collected stays near V8's external-memory GC trigger.
    expect(peak).toBeLessThan(96 * MiB);
    const [listed] = (await world.listed('drive', account)).filter((f) => f.id === id);
    expect(hash.digest('hex')).toBe(listed!.sha256);
  });
});

describe('uploads', () => {
  const post = (token: string, matter: string, name: string, body: string, key?: string) =>
    world.call('practice', token, `/matters/${matter}/documents?name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', ...(key === undefined ? {} : { 'Idempotency-Key': key }) },
      body,
    });

  it('makes a practice upload once per Idempotency-Key, and a new version for a new key and an existing name', async () => {
    const account = freshAccount();
    const token = await world.token('practice', account);
    const matter = await firstMatter(world, account, token);

    for (const key of [undefined, '', 'k'.repeat(256), 'caf\u00e9']) {
      const refused = await post(token, matter, 'Export.txt', 'one', key);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: 'invalid_request' });
    }
    const created = await post(token, matter, 'Export.txt', 'one', 'key-1');
    expect(created.status).toBe(201);
    const doc = (await created.json()) as Doc;
    expect(doc).toMatchObject({ name: 'Export.txt', content_type: 'text/plain', size: 3 });
    const replay = await post(token, matter, 'Export.txt', 'one', 'key-1');
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual(doc);
    expect(
      (await world.listed('practice', account, matter)).filter((f) => f.name === 'Export.txt'),
    ).toHaveLength(1);

    const reused = await post(token, matter, 'Export.txt', 'two', 'key-1');
    expect(reused.status).toBe(422);
    expect(await reused.json()).toMatchObject({ error: 'idempotency_key_reused' });

    const version = await post(token, matter, 'Export.txt', 'two', 'key-2');
    expect(version.status).toBe(201);
    const next = (await version.json()) as Doc;
    expect(next.id).toBe(doc.id);
    expect(next.version).toBeGreaterThan(doc.version);
    const [listed] = (await world.listed('practice', account, matter)).filter((f) => f.name === 'Export.txt');
    expect(listed).toMatchObject({
      version: next.version,
      sha256: createHash('sha256').update('two').digest('hex'),
    });
    const content = await world.call('practice', token, `/documents/${doc.id}/content`);
    expect(await content.text()).toBe('two');
  });

  it('forgets an Idempotency-Key after 24 hours of the sandbox clock', async () => {
    const local = await startWorld();
    try {
      const account = freshAccount();
      let token = await local.token('practice', account);
      const matter = await firstMatter(local, account, token);
      const send = () =>
        local.call('practice', token, `/matters/${matter}/documents?name=Daily.txt`, {
          method: 'POST',
          headers: { 'Idempotency-Key': 'daily', 'Content-Type': 'text/plain' },
          body: 'same',
        });
      const first = (await (await send()).json()) as Doc;
      local.clock.advance(24 * 3600_000 - 1000);
      token = await local.token('practice', account);
      expect((await send()).status).toBe(200);
      local.clock.advance(2000);
      token = await local.token('practice', account);
      const later = await send();
      expect(later.status).toBe(201);
      expect(((await later.json()) as Doc).version).toBeGreaterThan(first.version);
    } finally {
      await local.sandbox.close();
    }
  });

  it('writes a drive file by name: 201 when new, 200 keeping the version for the same bytes, 200 and the next version for others', async () => {
    const account = freshAccount();
    const token = await world.token('drive', account);
    const put = (name: string, body: string, type = 'text/plain') =>
      world.call('drive', token, `/folders/root/files/${encodeURIComponent(name)}`, {
        method: 'PUT',
        headers: { 'Content-Type': type },
        body,
      });
    const created = await put('Report 1.txt', 'draft');
    expect(created.status).toBe(201);
    const file = (await created.json()) as DriveEntry;
    expect(file).toMatchObject({ name: 'Report 1.txt', type: 'file', size: 5, mime_type: 'text/plain' });
    const same = await put('Report 1.txt', 'draft');
    expect(same.status).toBe(200);
    expect(((await same.json()) as DriveEntry).version).toBe(file.version);
    const changed = await put('Report 1.txt', 'final');
    expect(changed.status).toBe(200);
    const next = (await changed.json()) as DriveEntry;
    expect(next.id).toBe(file.id);
    expect(next.version).toBeGreaterThan(file.version!);
    expect((await put('a/b', 'x')).status).toBe(400); // the path carries a%2Fb
    const folder = (await world.listed('drive', account)).find((f) => f.path.split('/').length === 3)!;
    const folderName = folder.path.split('/')[1]!;
    const clash = await put(folderName, 'x');
    expect(clash.status).toBe(409);
    expect(
      (await world.call('drive', token, '/folders/fld_nope/files/x.txt', { method: 'PUT', body: 'x' }))
        .status,
    ).toBe(404);
  });

  /** A raw request, so a test controls Content-Length and how much of the body is sent. */
  function rawUpload(url: string, token: string, headers: Record<string, string>, bytes: number) {
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(url, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${token}`, ...headers },
      });
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () => {
          resolve({ status: response.statusCode!, body });
          request.destroy(); // the rest of the body is not wanted
        });
      });
      request.on('error', reject);
      const chunk = Buffer.alloc(MiB, 'a');
      let sent = 0;
      const pump = () => {
        while (sent < bytes) {
          sent += chunk.length;
          if (!request.write(chunk)) return void request.once('drain', pump);
        }
        request.end();
      };
      pump();
    });
  }

  it('refuses a body over 100 MiB with 413, at once when Content-Length says so and as it streams otherwise', async () => {
    const token = await world.token('drive', freshAccount());
    const url = `${world.sandbox.url}/drive/api/v1/folders/root/files/huge.bin`;
    const declared = await rawUpload(url, token, { 'Content-Length': String(100 * MiB + 1) }, 0);
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toMatchObject({ error: 'payload_too_large' });
    const streamed = await rawUpload(url, token, { 'Transfer-Encoding': 'chunked' }, 101 * MiB);
    expect(streamed.status).toBe(413);
  });
});

describe('test hooks', () => {
  it('answers the next requests of a provider with an injected 429, 503, 500 or 401, then serves again', async () => {
    const account = freshAccount();
    const token = await world.token('practice', account);
    const driveToken = await world.token('drive', account);
    expect(
      (await world.hook('next-api-error', { provider: 'practice', status: 429, retry_after: 7, count: 2 }))
        .status,
    ).toBe(200);
    for (let i = 0; i < 2; i++) {
      const answer = await world.call('practice', token, '/matters');
      expect(answer.status).toBe(429);
      expect(answer.headers.get('retry-after')).toBe('7');
    }
    expect((await world.call('drive', driveToken, '/folders/root/children')).status).toBe(200);
    expect((await world.call('practice', token, '/matters')).status).toBe(200);

    await world.hook('next-api-error', { provider: 'drive', status: 503, retry_after: 3 });
    const unavailable = await world.call('drive', driveToken, '/folders/root/children');
    expect([unavailable.status, unavailable.headers.get('retry-after')]).toEqual([503, '3']);
    await world.hook('next-api-error', { provider: 'drive', status: 500 });
    expect((await world.call('drive', driveToken, '/folders/root/children')).status).toBe(500);
    await world.hook('next-api-error', { provider: 'drive', status: 401 });
    const lapsed = await world.call('drive', driveToken, '/folders/root/children');
    expect(lapsed.status).toBe(401);
    expect(lapsed.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(await lapsed.json()).toEqual({ error: 'invalid_token' });
    expect((await world.call('drive', driveToken, '/folders/root/children')).status).toBe(200);

    for (const body of [
      { provider: 'practice', status: 404 },
      { provider: 'other', status: 429 },
      { status: 429 },
    ]) {
      const refused = await world.hook('next-api-error', body);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: 'invalid_request' });
    }
  });

  it('revokes the grants of one account: its API calls answer 401 and its refresh invalid_grant', async () => {
    const gone = freshAccount();
    const kept = freshAccount();
    const revokedTokens = await world.clients.practice.tokens(gone, PRACTICE_SCOPES);
    const keptTokens = await world.clients.practice.tokens(kept, PRACTICE_SCOPES);
    const revoked = await world.hook('revoke-grants', { provider: 'practice', account_id: gone });
    expect(await revoked.json()).toEqual({ revoked: 1 });
    expect((await world.call('practice', revokedTokens.access_token, '/matters')).status).toBe(401);
    expect(await world.clients.practice.refresh(revokedTokens.refresh_token)).toEqual({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect((await world.call('practice', keptTokens.access_token, '/matters')).status).toBe(200);
    expect((await world.clients.practice.refresh(keptTokens.refresh_token)).status).toBe(200);
  });

  it('restores a deleted file under its id at its old version, listed by a pass from the start but not by the delta past it', async () => {
    const account = freshAccount();
    const token = await world.token('practice', account);
    const matter = await firstMatter(world, account, token);
    const kept = await world.put('practice', account, matter, 'Restored.txt', 'the old words');
    const since = (await walkDelta(world, token, matter)).syncToken;
    await world.remove('practice', account, kept.id);
    const restore = (body: Record<string, unknown>) =>
      world.hook('restore', { provider: 'practice', account_id: account, ...body });
    expect((await restore({ file_id: 'doc_none' })).status).toBe(404);
    const answer = await restore({ file_id: kept.id });
    expect(await answer.json()).toEqual({ id: kept.id, version: kept.version });
    expect((await restore({ file_id: kept.id })).status).toBe(404); // not deleted any more
    const listed = (await world.listed('practice', account, matter)).find((f) => f.id === kept.id);
    expect(listed).toMatchObject({ name: 'Restored.txt', version: kept.version });
    expect((await walkDelta(world, token, matter)).docs.map((d) => d.id)).toContain(kept.id);
    // Recorded as no change: a delta from before the deletion does not report it (its tombstone is gone).
    const later = (await walkDelta(world, token, matter, since)).docs.filter((d) => d.id === kept.id);
    expect(later).toEqual([]);
    // Its name taken meanwhile: refused.
    await world.remove('practice', account, kept.id);
    await world.put('practice', account, matter, 'Restored.txt', 'someone else');
    expect((await restore({ file_id: kept.id })).status).toBe(409);
  });

  it('adds, changes and deletes files with versions from the account change sequence, and lists them with sha256', async () => {
    const account = freshAccount();
    const put = (body: Record<string, unknown>) =>
      world.hook('files', { provider: 'drive', account_id: account, container_id: 'root', ...body });
    const created = await put({ name: 'hook.txt', content: 'hello' });
    expect(created.status).toBe(201);
    const first = (await created.json()) as { id: string; version: number };
    const changed = await put({ name: 'hook.txt', content: 'hello again', content_type: 'text/markdown' });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({ id: first.id, version: first.version + 1 });
    const [listed] = (await world.listed('drive', account, 'root')).filter((f) => f.id === first.id);
    expect(listed).toMatchObject({
      name: 'hook.txt',
      path: '/hook.txt',
      size: 11,
      content_type: 'text/markdown',
      sha256: createHash('sha256').update('hello again').digest('hex'),
    });
    await world.remove('drive', account, first.id);
    expect((await world.listed('drive', account, 'root')).some((f) => f.id === first.id)).toBe(false);
    expect((await world.hook(`files/drive/${account}/${first.id}`, undefined, 'DELETE')).status).toBe(404);
    expect((await put({ name: 'x.txt', content: 'a', size: 3 })).status).toBe(400);
    expect(
      (await world.hook('files', { provider: 'drive', account_id: account, container_id: 'nope', name: 'x' }))
        .status,
    ).toBe(404);
    expect(
      (await world.hook('seed', { provider: 'drive', account_id: account, container_id: 'root', count: 0 }))
        .status,
    ).toBe(400);
  });

  it('seeds ten thousand files into one container quickly and lists them', async () => {
    const account = freshAccount();
    const token = await world.token('practice', account);
    const matter = await firstMatter(world, account, token);
    const seeded = await world.hook('seed', {
      provider: 'practice',
      account_id: account,
      container_id: matter,
      count: 10_000,
    });
    expect(await seeded.json()).toEqual({ created: 10_000 });
    const docs = await allPages<Doc>(world, token, `/matters/${matter}/documents?limit=1000`);
    expect(docs.length).toBeGreaterThanOrEqual(10_003);
    expect(new Set(docs.map((d) => d.id)).size).toBe(docs.length);
  });

  it('serves no hook when the test-hook switch is off', async () => {
    const plain = await startSandboxProvider({});
    try {
      for (const path of ['files?provider=drive&account_id=a', 'next-api-error']) {
        expect(
          (
            await fetch(`${plain.url}/__sandbox/${path}`, {
              method: path.startsWith('files') ? 'GET' : 'POST',
            })
          ).status,
        ).toBe(404);
      }
    } finally {
      await plain.close();
    }
  });
});

describe('rate limit', () => {
  it('counts requests per account per minute of the sandbox clock, with X-RateLimit headers and 429 past the limit', async () => {
    const local = await startWorld({ apiRequestsPerMinute: 3 });
    try {
      local.clock.set(Date.parse('2030-01-01T00:00:10Z'));
      const token = await local.token('practice', freshAccount());
      const other = await local.token('practice', freshAccount());
      const remaining: (string | null)[] = [];
      for (let i = 0; i < 3; i++) {
        const answer = await local.call('practice', token, '/matters');
        expect(answer.status).toBe(200);
        expect(answer.headers.get('x-ratelimit-limit')).toBe('3');
        expect(answer.headers.get('x-ratelimit-reset')).toBe(
          String(Date.parse('2030-01-01T00:01:00Z') / 1000),
        );
        remaining.push(answer.headers.get('x-ratelimit-remaining'));
      }
      expect(remaining).toEqual(['2', '1', '0']);
      const limited = await local.call('practice', token, '/matters');
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('50');
      expect((await local.call('practice', other, '/matters')).status).toBe(200);
      local.clock.advance(50_000);
      expect((await local.call('practice', token, '/matters')).status).toBe(200);
    } finally {
      await local.sandbox.close();
    }
  });
});
