// The Box fake (sandbox/providers/box/) checked against Box's OpenAPI description of API 2.0, whose facts
// test/fixtures/box-2.0-shapes.ts keeps: the PRODUCTION client (functions/connectors/providers/box/client.ts)
// browses with marker paging, imports a folder (a full pass, then the events stream after a create, a
// change, a trash, a restore and a move out; a folder trashed ends the feed), downloads (302 to the
// download host, followed without the bearer), exports small (multipart) and large (a chunked session
// with SHA-1 digests) files, meets a name conflict (409 item_name_in_use) and throttling (429 with
// Retry-After), all through a recording proxy in front of the fake. Every JSON body is checked: no
// property the description does not have, each of its type and format, the required present, nothing
// outside a listing's `fields`. Needs no emulator.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { FeedRestartError, UploadRefusedError } from '../../functions/connectors/infra/content/api';
import { ProviderApiError } from '../../functions/connectors/infra/content/http';
import { BoxApi, boxPositions } from '../../functions/connectors/providers/box/client';
import { ManualClock } from '../../functions/platform/clock';
import { textContent } from '../../sandbox/content/tree';
import type { AccountTree, FolderNode, TreeNode } from '../../sandbox/content/tree';
import { boxFake } from '../../sandbox/providers/box';
import { BOX_SESSION_MIN_BYTES, boxIds } from '../../sandbox/providers/box/files';
import {
  BOX_2_0_OPERATIONS,
  BOX_2_0_SCHEMAS,
  BOX_2_0_SOURCE,
  BOX_2_0_UNIONS,
} from '../fixtures/box-2.0-shapes';
import { changesPass, drain, uploadOf } from '../support/content-walk';
import type { Exchange } from '../support/recording-proxy';
import { fakeBehindRecordingProxy } from '../support/recording-proxy';
import type { ExchangeCheck, ShapeBook } from '../support/shape-check';
import {
  checkExchanges,
  checkRestExchange,
  problemsOf,
  selection,
  unselectedProblems,
} from '../support/shape-check';

const ACCOUNT = 'acct-box-openapi';
const TOKEN = 'tok-box';
const SOURCE = `Box OpenAPI ${BOX_2_0_SOURCE.repository} at ${BOX_2_0_SOURCE.commit.slice(0, 12)}`;

/** Problems found inside unions (a format answers yes or no; the detail is kept here). */
const unionProblems: string[] = [];

/** A `union/A|B` shape: the member whose `type` constant is the value's, or a primitive member that fits. */
function unionFormat(shape: string) {
  const members = shape.slice('union/'.length).split('|');
  return (value: unknown): boolean => {
    const type = (value as { type?: unknown } | null)?.type;
    if (value && typeof value === 'object' && typeof type === 'string') {
      const member = members.find(
        (m) => m.startsWith('@') && BOX_2_0_SCHEMAS[m.slice(1)]?.type?.replace(/^!/, '') === `=${type}`,
      );
      if (!member) return false;
      const found = problemsOf(BOOK, value, member.slice(1), `(${type})`);
      unionProblems.push(...found);
      return found.length === 0;
    }
    return members.some(
      (m) => !m.startsWith('@') && m !== 'object' && problemsOf(BOOK, { v: value }, `=${m}`, '').length === 0,
    );
  };
}

const BOOK: ShapeBook = {
  source: SOURCE,
  schemas: {
    ...BOX_2_0_SCHEMAS,
    // The primitive members of a union, each as a one-property schema the format above asks.
    ...Object.fromEntries(
      BOX_2_0_UNIONS.flatMap((u) => u.slice(6).split('|'))
        .filter((m) => !m.startsWith('@') && m !== 'object')
        .map((m) => [`=${m}`, { v: m }]),
    ),
  },
  formats: Object.fromEntries(BOX_2_0_UNIONS.map((u) => [u, unionFormat(u)])),
};

/** The most specific path first: `/files/content` before `/files/{id}`. */
const OPERATIONS = [...BOX_2_0_OPERATIONS].sort(
  (a, b) => (a.path.source.match(/\[\^/g) ?? []).length - (b.path.source.match(/\[\^/g) ?? []).length,
);

/** The request an exchange is, and what is wrong with its body (empty: nothing). */
function check(exchange: Exchange): ExchangeCheck {
  const where = `${exchange.method} ${exchange.path} ${exchange.status}`;
  if (exchange.path.startsWith('/dl/'))
    return { id: 'download', problems: exchange.status === 200 ? [] : [`${where}: a download failed`] };
  const path = exchange.path.replace(/^\/upload\/api\/2\.0\//, '/').replace(/^\/2\.0\//, '/');
  const op = OPERATIONS.find((o) => o.method === exchange.method && o.path.test(path));
  if (exchange.status === 401) {
    // Box answers a refused token with no body, its reason in WWW-Authenticate.
    const problems =
      exchange.json === undefined && exchange.headers?.get('www-authenticate')?.startsWith('Bearer ')
        ? []
        : [`${where}: a 401 with a body or without WWW-Authenticate`];
    return { id: `${op?.id ?? '?'} 401`, problems };
  }
  if (exchange.status === 302)
    return {
      id: op?.id ?? '?',
      problems: exchange.headers?.get('location') ? [] : [`${where}: a redirect without Location`],
    };
  unionProblems.length = 0;
  const errorSchema = exchange.status === 409 ? 'ConflictError' : 'ClientError';
  const result = checkRestExchange(BOOK, OPERATIONS, errorSchema, { ...exchange, path });
  result.problems.push(...unionProblems);
  if (result.schema === 'Items' || result.schema === 'File--Full') {
    const fields = exchange.query.get('fields');
    if (fields !== null) {
      const records =
        result.schema === 'Items'
          ? ((exchange.json as { entries: unknown[] }).entries ?? [])
          : [exchange.json];
      const files = records.filter((r) => (r as { type?: string }).type === 'file');
      result.problems.push(
        ...unselectedProblems(BOOK, files, 'File--Full', selection(`type,id,etag,${fields}`), where),
      );
    }
  }
  return result;
}

const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
const recorded = fakeBehindRecordingProxy(boxFake, clock, {
  token: TOKEN,
  account: ACCOUNT,
  scopes: ['root_readwrite'],
});

const client = () =>
  new BoxApi({
    apiUrl: `${recorded.proxy.base}/box/2.0`,
    uploadUrl: `${recorded.proxy.base}/box/upload/api/2.0`,
    // Box takes sessions from 20 MB: the large export here is just above that.
    singleUploadMax: BOX_SESSION_MIN_BYTES,
    sleep: () => Promise.resolve(),
  });

async function call(method: string, path: string, token = TOKEN, body?: unknown) {
  const before = recorded.proxy.exchanges.length;
  await fetch(`${recorded.proxy.base}/box${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  }).then((r) => r.arrayBuffer());
  return recorded.proxy.exchanges[before]!;
}

const checkSince = (from: number) => checkExchanges(recorded.proxy.exchanges.slice(from), check);
const text = (value: string, contentType = 'text/plain') => ({ contentType, content: textContent(value) });

describe(`Box fake against Box's OpenAPI description (${SOURCE})`, () => {
  let tree: AccountTree;
  let clients: FolderNode;
  let acme: FolderNode;
  const idOf = (node: TreeNode) => boxIds.providerId(tree, node);
  const fileNamed = (folder: FolderNode, name: string) =>
    tree.liveFiles(folder).find((f) => f.name === name)!;

  beforeAll(() => {
    tree = recorded.fake.tree(ACCOUNT);
    clients = tree.addFolder(tree.root, 'Clients');
    acme = tree.addFolder(clients, 'Acme');
    tree.addFolder(tree.root, 'Personal');
    tree.putFile(clients, 'engagement.pdf', text('engagement', 'application/pdf'));
    tree.putFile(acme, 'letter.txt', text('dear acme'));
    tree.putFile(acme, 'minutes.txt', text('minutes'));
    tree.putFile(acme, 'old.txt', text('old'));
    tree.putFile(acme, 'moving.txt', text('moving'));
    tree.putFile(tree.root, 'outside.txt', text('outside'));
  });

  it('the checker refuses an undocumented property, a wrong type, a missing required one, an unselected field', () => {
    const item = (entry: unknown, fields: string | null = 'name') =>
      check({
        method: 'GET',
        path: '/2.0/folders/0/items',
        query: new URLSearchParams(fields === null ? {} : { fields }),
        status: 200,
        json: { entries: [entry], limit: 10, next_marker: null },
      }).problems;
    expect(item({ type: 'file', id: '1', etag: '1', name: 'a' })).toEqual([]);
    expect(item({ type: 'file', id: '1', name: 'a', colour: 'red' }, null)).toEqual(
      expect.arrayContaining([expect.stringContaining('.colour: File--Full has no such property')]),
    );
    expect(item({ type: 'file', id: 1, name: 'a' }, null)).toEqual(
      expect.arrayContaining([expect.stringContaining('1 is not string')]),
    );
    expect(item({ type: 'file', name: 'a' }, null)).toEqual(
      expect.arrayContaining([expect.stringContaining('.id: required by File--Full')]),
    );
    expect(item({ type: 'file', id: '1', name: 'a', size: 3 })).toEqual([
      expect.stringContaining(".size: not in the request's fields"),
    ]);
    expect(
      check({
        method: 'GET',
        path: '/2.0/events',
        query: new URLSearchParams(),
        status: 429,
        json: { type: 'error', status: '429' },
      }).problems,
    ).toEqual([expect.stringContaining('is not integer/int32')]);
  });

  it('browses with marker paging, imports a folder in full then from the events stream, downloads', async () => {
    const from = recorded.proxy.exchanges.length;
    const api = client();
    expect((await api.browse(TOKEN, undefined, { limit: 10 })).entries).toEqual([
      { id: '0', name: 'All Files', kind: 'container' },
    ]);
    const first = await api.browse(TOKEN, '0', { limit: 2 });
    expect(first.next).toBeDefined();
    const rest = await api.browse(TOKEN, '0', { token: first.next, limit: 2 });
    expect([...first.entries, ...rest.entries].map((e) => e.name).sort()).toEqual([
      'Clients',
      'Personal',
      'outside.txt',
    ]);
    // A page token is for its folder only.
    await expect(api.browse(TOKEN, idOf(clients), { token: first.next, limit: 2 })).rejects.toMatchObject({
      status: 400,
    });
    await api.checkContainer(TOKEN, idOf(clients));
    await expect(api.checkContainer(TOKEN, idOf(fileNamed(tree.root, 'outside.txt')))).rejects.toMatchObject({
      status: 404,
    });

    // Trashed before the first pass: restored after it, the stream reports it.
    const oldId = idOf(fileNamed(acme, 'old.txt'));
    expect((await call('DELETE', `/2.0/files/${oldId}`)).status).toBe(204);
    const full = await changesPass(api, TOKEN, idOf(clients), undefined);
    expect(full.files.map((f) => f.name).sort()).toEqual([
      'engagement.pdf',
      'letter.txt',
      'minutes.txt',
      'moving.txt',
    ]);
    expect(boxPositions.decode(full.cursor)).toMatchObject({ k: 'events' });

    tree.putFile(acme, 'new.txt', text('new'));
    tree.putFile(acme, 'letter.txt', text('dear acme, again'));
    const minutes = fileNamed(acme, 'minutes.txt');
    expect((await call('DELETE', `/2.0/files/${idOf(minutes)}`)).status).toBe(204);
    expect((await call('POST', `/2.0/files/${oldId}`, TOKEN, {})).status).toBe(201);
    expect(
      (await call('PUT', `/2.0/files/${idOf(fileNamed(acme, 'moving.txt'))}`, TOKEN, { parent: { id: '0' } }))
        .status,
    ).toBe(200);
    tree.putFile(tree.root, 'outside.txt', text('outside, changed')); // not the link's
    const later = await changesPass(api, TOKEN, idOf(clients), full.cursor);
    const live = later.files
      .filter((f) => !f.deleted)
      .map((f) => f.name)
      .sort();
    const gone = later.files
      .filter((f) => f.deleted)
      .map((f) => f.name)
      .sort();
    expect(live).toEqual(['letter.txt', 'new.txt', 'old.txt']);
    // A move out of the link's folder is a deletion for the link; the change outside is one too (the
    // stream is the user's: a run ignores a deletion of a file it does not hold).
    expect(gone).toEqual(['minutes.txt', 'moving.txt', 'outside.txt']);

    const letter = fileNamed(acme, 'letter.txt');
    const listed = later.files.find((f) => f.name === 'letter.txt')!;
    const bearerBefore = recorded.requests.length;
    const download = await api.download(TOKEN, idOf(letter), listed);
    expect((await drain(download.body)).toString()).toBe('dear acme, again');
    expect(download.version).toBe(listed.version);
    const dl = recorded.requests.slice(bearerBefore).find((r) => r.url?.startsWith('/box/dl/'));
    expect(dl?.headers.authorization).toBeUndefined();
    expect((await drain((await api.download(TOKEN, idOf(letter))).body)).toString()).toBe('dear acme, again');

    // A folder trashed says nothing of its files: the feed ends, a full pass and the reconcile follow.
    expect((await call('DELETE', `/2.0/folders/${idOf(acme)}?recursive=true`)).status).toBe(204);
    await expect(changesPass(api, TOKEN, idOf(clients), later.cursor)).rejects.toBeInstanceOf(
      FeedRestartError,
    );
    // A file trashed before its folder: Box puts it back in its folder only while that is there, else
    // in the parent the restore names.
    expect((await call('POST', `/2.0/files/${idOf(minutes)}`, TOKEN, {})).status).toBe(403);
    expect(minutes.deleted).toBe(true);
    expect((await call('POST', `/2.0/folders/${idOf(acme)}`, TOKEN, {})).status).toBe(201);
    // The folder is back under its id with what was trashed with it, not the file trashed before it.
    expect(tree.folder(acme.id)).toBe(acme);
    expect(tree.liveFiles(acme).map((f) => f.name)).not.toContain('minutes.txt');
    expect((await call('DELETE', `/2.0/folders/${idOf(acme)}?recursive=true`)).status).toBe(204);
    expect(
      (await call('POST', `/2.0/files/${idOf(minutes)}`, TOKEN, { parent: { id: idOf(clients) } })).status,
    ).toBe(201);
    expect(fileNamed(clients, 'minutes.txt')).toBe(minutes);
    expect((await call('DELETE', `/2.0/files/${idOf(minutes)}`)).status).toBe(204);
    expect((await call('POST', `/2.0/folders/${idOf(acme)}`, TOKEN, {})).status).toBe(201);

    const seen = checkSince(from);
    for (const id of [
      'get_folders_id',
      'get_folders_id_items',
      'get_events',
      'get_files_id',
      'get_files_id_content',
      'download',
      'delete_files_id',
      'post_files_id',
      'put_files_id',
      'delete_folders_id',
      'post_folders_id',
    ])
      expect(seen).toContain(id);
  });

  it('reports a folder trashed or restored outside the API (as the test hooks do) as Box does: the folder alone, under its id', async () => {
    const from = recorded.proxy.exchanges.length;
    const matter = tree.addFolder(clients, 'Matter');
    const inside = tree.addFolder(matter, 'Inside');
    tree.putFile(matter, 'a.txt', text('a'));
    tree.putFile(inside, 'b.txt', text('b'));
    const events = async (position: number) =>
      (
        (await call('GET', `/2.0/events?stream_type=changes&stream_position=${position}`)).json as {
          entries: { event_type: string; source: { type: string; id: string } }[];
        }
      ).entries.map((e) => [e.event_type, e.source.type, e.source.id]);
    const id = idOf(matter);

    let position = tree.changeSequence;
    tree.deleteFolder(matter);
    expect(boxIds.treeId(tree, id)).toBe(matter.id);
    expect(await events(position)).toEqual([['ITEM_TRASH', 'folder', id]]);
    position = tree.changeSequence;
    expect(tree.restoreFolder(matter.id)).toBe(matter);
    expect(idOf(matter)).toBe(id);
    expect(await events(position)).toEqual([['ITEM_UNDELETE_VIA_TRASH', 'folder', id]]);

    // A file restored on its own is the file's restore.
    const a = fileNamed(matter, 'a.txt');
    tree.deleteFile(a);
    position = tree.changeSequence;
    tree.restoreFile(a.id, { asChange: true });
    expect(await events(position)).toEqual([['ITEM_UNDELETE_VIA_TRASH', 'file', idOf(a)]]);
    checkSince(from);
  });

  it('exports small and large files, meets a name conflict and a changed file as Box answers them', async () => {
    const from = recorded.proxy.exchanges.length;
    const api = client();
    const folder = idOf(clients);
    const exported = await api.upload(TOKEN, folder, uploadOf('report.pdf', Buffer.from('v1'), 'k1'));
    expect(await api.findFile(TOKEN, folder, 'REPORT.pdf')).toEqual(exported);
    // The same bytes again: the earlier attempt's file (its answer was lost), not a conflict.
    expect(await api.upload(TOKEN, folder, uploadOf('report.pdf', Buffer.from('v1'), 'k1'))).toEqual(
      exported,
    );
    await expect(
      api.upload(TOKEN, folder, uploadOf('Report.pdf', Buffer.from('other'), 'k2')),
    ).rejects.toMatchObject({
      reason: 'name_taken',
    });
    const replaced = await api.upload(TOKEN, folder, {
      ...uploadOf('report.pdf', Buffer.from('v2'), 'k3'),
      replace: exported,
    });
    expect(replaced.id).toBe(exported.id);
    expect(replaced.version).not.toBe(exported.version);
    const stale = api.upload(TOKEN, folder, {
      ...uploadOf('report.pdf', Buffer.from('v3'), 'k4'),
      replace: exported,
    });
    await expect(stale).rejects.toBeInstanceOf(UploadRefusedError);
    await expect(stale).rejects.toMatchObject({ reason: 'changed' });
    await expect(
      api.upload(TOKEN, folder, uploadOf(' padded.pdf', Buffer.from('x'), 'k5')),
    ).rejects.toMatchObject({
      reason: 'invalid_name',
    });

    const large = Buffer.alloc(BOX_SESSION_MIN_BYTES + 1_000_003, 7);
    large.write('the start of a large file');
    const big = await api.upload(TOKEN, folder, {
      ...uploadOf('bundle.bin', large, 'k6'),
      body: Readable.from([large.subarray(0, 5_000_000), large.subarray(5_000_000)]),
    });
    const stored = fileNamed(clients, 'bundle.bin');
    expect(big.id).toBe(idOf(stored));
    const back = await drain((await api.download(TOKEN, big.id)).body);
    expect(createHash('sha1').update(back).digest('hex')).toBe(
      createHash('sha1').update(large).digest('hex'),
    );
    // The same large bytes again (a retry whose commit answer was lost): the file there, not a conflict.
    expect(
      await api.upload(TOKEN, folder, {
        ...uploadOf('bundle.bin', large, 'k6'),
        body: Readable.from([large.subarray(0, 5_000_000), large.subarray(5_000_000)]),
      }),
    ).toEqual(big);
    // A new version of it, through a session on the file.
    const again = Buffer.alloc(large.length, 9);
    const newer = await api.upload(TOKEN, folder, { ...uploadOf('bundle.bin', again, 'k7'), replace: big });
    expect(newer.id).toBe(big.id);

    const parts = recorded.proxy.exchanges
      .slice(from)
      .filter((e) => e.method === 'PUT' && e.path.includes('upload_sessions'));
    expect(parts).toHaveLength(6); // three parts of 8 MiB or less, twice
    const seen = checkSince(from);
    for (const id of [
      'post_files_content',
      'post_files_content 409',
      'post_files_id_content',
      'post_files_id_content 412',
      'post_files_upload_sessions',
      'post_files_upload_sessions 409',
      'post_files_id_upload_sessions',
      'put_files_upload_sessions_id',
      'post_files_upload_sessions_id_commit',
    ])
      expect(seen).toContain(id);
  });

  it('the account, a bad part digest, errors and throttling are described shapes', async () => {
    const from = recorded.proxy.exchanges.length;
    expect((await call('GET', '/2.0/users/me')).status).toBe(200);
    expect((await call('GET', '/2.0/files/123456789')).status).toBe(404);
    expect((await call('GET', '/2.0/folders/0/items?usemarker=true&marker=forged')).status).toBe(400);
    expect((await call('GET', '/2.0/folders/0', 'tok-unknown')).status).toBe(401);
    const session = await call('POST', '/upload/api/2.0/files/upload_sessions', TOKEN, {
      folder_id: idOf(clients),
      file_size: BOX_SESSION_MIN_BYTES + 1,
      file_name: 'digest.bin',
    });
    expect(session.status).toBe(201);
    const part = Buffer.alloc(8 * 1024 * 1024, 1);
    const before = recorded.proxy.exchanges.length;
    await fetch(
      `${recorded.proxy.base}/box/upload/api/2.0/files/upload_sessions/${(session.json as { id: string }).id}`,
      {
        method: 'PUT',
        headers: {
          Authorization: `Bearer ${TOKEN}`,
          'Content-Range': `bytes 0-${part.length - 1}/${BOX_SESSION_MIN_BYTES + 1}`,
          Digest: `sha=${createHash('sha1').update('other bytes').digest('base64')}`,
        },
        body: part,
      },
    ).then((r) => r.arrayBuffer());
    expect(recorded.proxy.exchanges[before]!.status).toBe(412);
    recorded.fake.fail({ status: 429, retryAfter: 4 });
    const throttled = await client()
      .browse(TOKEN, '0', { limit: 10 })
      .catch((e: unknown) => e);
    expect(throttled).toBeInstanceOf(ProviderApiError);
    expect(throttled).toMatchObject({
      status: 429,
      retryAfterSeconds: 4,
      providerError: 'too_many_requests',
    });
    const seen = checkSince(from);
    expect([...seen].filter((id) => /\d{3}$/.test(id)).sort()).toEqual([
      'get_files_id 404',
      'get_folders_id 401',
      'get_folders_id_items 400',
      'get_folders_id_items 429',
      'put_files_upload_sessions_id 412',
    ]);
  });
});
