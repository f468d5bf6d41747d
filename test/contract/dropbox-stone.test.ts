// The Dropbox fake (sandbox/providers/dropbox/) checked against Dropbox's Stone specification of API v2,
// whose facts test/fixtures/dropbox-v2-shapes.ts keeps: the PRODUCTION client
// (functions/connectors/infra/content/dropbox.ts) browses, imports (list_folder, then
// list_folder/continue after a create, a change, a move out and a delete), downloads and exports (a
// single upload, a replace, an upload session start/append_v2/finish) through a recording proxy in front
// of the fake; then route errors, an invalid token, a missing scope and throttling. Every JSON body (and
// download's Dropbox-API-Result header) is checked: the route's result or its error envelope, no field
// Stone does not have, each of its type and format, the required fields present, unions by `.tag`.
// Needs no emulator.
import { DropboxApi } from '../../functions/connectors/providers/dropbox/client';
import { ProviderApiError } from '../../functions/connectors/infra/content/http';
import { ManualClock } from '../../functions/platform/clock';
import type { AccountTree, FolderNode, TreeNode } from '../../sandbox/content/tree';
import { dropboxFake } from '../../sandbox/providers/dropbox';
import { dropboxIds } from '../../sandbox/providers/dropbox/files';
import {
  DROPBOX_V2_FORMATS,
  DROPBOX_V2_ROUTES,
  DROPBOX_V2_SCHEMAS,
  DROPBOX_V2_SOURCE,
} from '../fixtures/dropbox-v2-shapes';
import { seedClients, uploadOf, walkClients } from '../support/content-walk';
import type { FakeHarness } from '../support/fake-harness';
import { startFakeHarness } from '../support/fake-harness';
import type { Exchange, RecordingProxy } from '../support/recording-proxy';
import { startRecordingProxy } from '../support/recording-proxy';
import type { ShapeBook } from '../support/shape-check';
import { checkExchanges, problemsOf } from '../support/shape-check';

const ACCOUNT = 'acct-dropbox-stone';
const TOKEN = 'tok-dropbox';
const SCOPES = ['account_info.read', 'files.metadata.read', 'files.content.read', 'files.content.write'];
const MiB = 1024 * 1024;

const BOOK: ShapeBook = {
  source: `${DROPBOX_V2_SOURCE.repository} at ${DROPBOX_V2_SOURCE.commit.slice(0, 12)}`,
  schemas: DROPBOX_V2_SCHEMAS,
  formats: DROPBOX_V2_FORMATS,
};

/** The route an exchange is, and what is wrong with its answer (empty: nothing). */
function check(exchange: Exchange): { id: string; problems: string[] } {
  const where = `${exchange.path} ${exchange.status}`;
  const route = DROPBOX_V2_ROUTES.find((r) => r.path === exchange.path);
  if (!route) return { id: '?', problems: [`${where}: no route of the specification is this`] };
  const { status, json } = exchange;
  if (status === 400 || status >= 500)
    return {
      id: `${route.route} ${status}`,
      problems: json === undefined ? [] : [`${where}: JSON, not text`],
    };
  if (status >= 400) {
    const error = status === 401 ? 'AuthError' : status === 429 ? 'RateLimitError' : route.error;
    if (json === undefined) return { id: route.route, problems: [`${where}: an error without JSON`] };
    return { id: `${route.route} ${status}`, problems: problemsOf(BOOK, json, `Error<${error}>`, where) };
  }
  if (route.result === 'bytes') {
    const header = exchange.headers?.get('dropbox-api-result');
    if (!header) return { id: route.route, problems: [`${where}: no Dropbox-API-Result`] };
    return { id: route.route, problems: problemsOf(BOOK, JSON.parse(header), 'FileMetadata', where) };
  }
  if (route.result === null)
    return {
      id: route.route,
      problems: json === null ? [] : [`${where}: ${JSON.stringify(json)}, not null`],
    };
  return { id: route.route, problems: problemsOf(BOOK, json, route.result, where) };
}

const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
let fake: FakeHarness;
let proxy: RecordingProxy;

beforeAll(async () => {
  fake = await startFakeHarness(dropboxFake, clock);
  fake.grant(TOKEN, ACCOUNT, SCOPES);
  fake.grant('tok-read-only', ACCOUNT, ['files.metadata.read']);
  proxy = await startRecordingProxy(fake.base, '/dropbox');
});

afterAll(async () => {
  await proxy.close();
  await fake.close();
});

/** Uploads above 4 MiB go through a session of 4 MiB appends (the defaults are 150 and 16 MiB). */
const client = () =>
  new DropboxApi({
    apiUrl: `${proxy.base}/dropbox`,
    contentUrl: `${proxy.base}/dropbox/content`,
    singleUploadMax: 4 * MiB,
    chunkBytes: 4 * MiB,
  });

/** An RPC call as the client makes it (through the proxy); its exchange. */
async function rpc(path: string, body: unknown, token = TOKEN) {
  const before = proxy.exchanges.length;
  await fetch(`${proxy.base}/dropbox${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  }).then((r) => r.arrayBuffer());
  return proxy.exchanges[before]!;
}

/** A content-host upload as the client makes it (argument in Dropbox-API-Arg); its exchange. */
async function contentUpload(path: string, bytes: Buffer) {
  const before = proxy.exchanges.length;
  await fetch(`${proxy.base}/dropbox/content/2/files/upload`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${TOKEN}`,
      'Content-Type': 'application/octet-stream',
      'Dropbox-API-Arg': JSON.stringify({ path, mode: 'add', autorename: false, strict_conflict: true }),
    },
    body: bytes,
  }).then((r) => r.arrayBuffer());
  return proxy.exchanges[before]!;
}

const checkSince = (from: number) => checkExchanges(proxy.exchanges.slice(from), check);

describe(`Dropbox fake against the Stone specification (${DROPBOX_V2_SOURCE.repository} at ${DROPBOX_V2_SOURCE.commit.slice(0, 12)})`, () => {
  let tree: AccountTree;
  let clients: FolderNode;
  let acme: FolderNode;
  const idOf = (node: TreeNode) => dropboxIds.providerId(tree, node);

  beforeAll(() => {
    tree = fake.tree(ACCOUNT);
    ({ clients, acme } = seedClients(tree));
  });

  it('the checker refuses an undocumented field, a wrong format, a missing required field, an unknown tag', () => {
    const at = (json: unknown, status = 200) =>
      check({ method: 'POST', path: '/2/files/list_folder', query: new URLSearchParams(), status, json })
        .problems;
    const folder = { '.tag': 'folder', name: 'a', id: 'id:a', path_lower: '/a', path_display: '/a' };
    expect(at({ entries: [folder], cursor: 'c', has_more: false })).toEqual([]);
    expect(at({ entries: [{ ...folder, owner: 'me' }], cursor: 'c', has_more: false })).toEqual([
      expect.stringContaining('.owner: Metadata.folder has no such property'),
    ]);
    const file = {
      ...folder,
      '.tag': 'file',
      client_modified: '2030-01-01T00:00:00Z',
      rev: '0123456789a',
      size: 1,
    };
    expect(
      at({
        entries: [{ ...file, server_modified: '2030-01-01T00:00:00.000Z' }],
        cursor: 'c',
        has_more: false,
      }),
    ).toEqual([expect.stringContaining('is not string/timestamp')]);
    expect(at({ entries: [file], cursor: 'c', has_more: false })).toEqual([
      expect.stringContaining('.server_modified: required by Metadata.file'),
    ]);
    expect(at({ entries: [{ ...folder, '.tag': 'link' }], cursor: 'c', has_more: false })).toEqual([
      expect.stringContaining('.tag "link" is none of'),
    ]);
    expect(
      at(
        { error_summary: 'path/not_found/..', error: { '.tag': 'path', path: { '.tag': 'not_found' } } },
        409,
      ),
    ).toEqual([]);
    expect(
      at({ error_summary: 'path/nope/..', error: { '.tag': 'path', path: { '.tag': 'nope' } } }, 409),
    ).toEqual([expect.stringContaining('.tag "nope" is none of')]);
  });

  it('every answer the production client gets while browsing, importing and exporting is a Stone shape', async () => {
    const from = proxy.exchanges.length;
    const api = client();
    const top = await api.browse(TOKEN, undefined, { limit: 10 });
    expect(top.entries).toEqual([expect.objectContaining({ id: '/', kind: 'container' })]);
    const root = await api.browse(TOKEN, '/', { limit: 10 });
    expect(root.entries.map((e) => e.name)).toContain('Clients');
    await walkClients(api, TOKEN, tree, clock, { clients, acme }, idOf);

    const small = await api.upload(TOKEN, idOf(acme), uploadOf('report.pdf', Buffer.from('v1'), 'k1'));
    const found = await api.findFile(TOKEN, idOf(acme), 'report.pdf');
    expect(found).toEqual(small);
    const again = await api.upload(TOKEN, idOf(acme), {
      ...uploadOf('report.pdf', Buffer.from('v2'), 'k2'),
      replace: found!,
    });
    expect(again.name).toBe('report.pdf');
    const big = await api.upload(TOKEN, idOf(acme), uploadOf('big.pdf', Buffer.alloc(9 * MiB, 7), 'k3'));
    expect(big.name).toBe('big.pdf');

    const routes = checkSince(from);
    for (const route of [
      'files/list_folder',
      'files/list_folder/continue',
      'files/get_metadata',
      'files/download',
      'files/upload',
      'files/upload_session/start',
      'files/upload_session/append_v2',
      'files/upload_session/finish',
    ])
      expect(routes).toContain(route);
  });

  it('the account, route errors, a bad token, a missing scope and throttling are Stone shapes', async () => {
    const from = proxy.exchanges.length;
    expect((await rpc('/2/users/get_current_account', null)).status).toBe(200);
    expect((await rpc('/2/files/get_metadata', { path: '/nowhere' })).status).toBe(409);
    expect((await rpc('/2/files/list_folder', { path: '/nowhere' })).status).toBe(409);
    expect((await rpc('/2/files/list_folder/continue', { cursor: 'not-a-cursor' })).status).not.toBe(200);
    expect((await rpc('/2/files/list_folder', { path: '', limit: 0 })).status).toBe(400);
    // A name taken: upload's error is an UploadWriteFailed (`reason`), not a WriteError under `path`.
    expect((await contentUpload('/Clients/Acme/letter.txt', Buffer.from('other'))).status).toBe(409);
    expect((await contentUpload('/Clients/Acme/letter.txt/x', Buffer.from('other'))).status).toBe(409);
    expect((await rpc('/2/files/list_folder', { path: '' }, 'tok-unknown')).status).toBe(401);
    expect((await rpc('/2/users/get_current_account', null, 'tok-read-only')).status).toBe(401);
    const api = client();
    fake.fail({ status: 429, retryAfter: 5 });
    const throttled = await api.browse(TOKEN, idOf(clients), { limit: 10 }).catch((e: unknown) => e);
    expect(throttled).toBeInstanceOf(ProviderApiError);
    expect(throttled).toMatchObject({ status: 429, retryAfterSeconds: 5 });
    fake.fail({ status: 429, retryAfter: 5, reason: 'too_many_write_operations' });
    await expect(
      api.upload(TOKEN, idOf(acme), uploadOf('later.pdf', Buffer.from('x'), 'k4')),
    ).rejects.toMatchObject({ status: 429 });
    fake.fail({ status: 503, retryAfter: 2 });
    await expect(api.browse(TOKEN, idOf(clients), { limit: 10 })).rejects.toMatchObject({ status: 503 });
    const routes = checkSince(from);
    expect(routes).toContain('users/get_current_account');
    expect([...routes].filter((id) => / 4\d\d$/.test(id)).length).toBeGreaterThanOrEqual(5);
  });
});
