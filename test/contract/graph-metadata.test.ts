// The OneDrive fake (sandbox/providers/onedrive/) checked against Microsoft Graph's v1.0 metadata, whose
// facts test/fixtures/graph-v1-shapes.ts keeps: the PRODUCTION client
// (functions/connectors/infra/content/onedrive.ts) browses (OneDrive and a SharePoint site's library),
// imports (a delta pass, then one after a create, a change, a move out and a delete), downloads (302 to
// the pre-authenticated URL) and exports (a simple PUT, a replace under If-Match, an upload session of
// two fragments) through a recording proxy in front of the fake; then error, expired-token and throttle
// answers. Every JSON body is checked: no property the metadata does not have, each value of its EDM
// type (Int64 a JSON number, DateTimeOffset RFC 3339), null only where nullable, the required present,
// and nothing outside a request's $select.
// Needs no emulator.
import { OneDriveApi } from '../../functions/connectors/providers/onedrive/client';
import { ProviderApiError } from '../../functions/connectors/infra/content/http';
import { ManualClock } from '../../functions/platform/clock';
import type { AccountTree, FolderNode, TreeNode } from '../../sandbox/content/tree';
import { onedriveFake } from '../../sandbox/providers/onedrive';
import { onedriveIds } from '../../sandbox/providers/onedrive/graph';
import {
  GRAPH_CONTROL,
  GRAPH_V1_FORMATS,
  GRAPH_V1_METHODS,
  GRAPH_V1_SCHEMAS,
  GRAPH_V1_SOURCE,
} from '../fixtures/graph-v1-shapes';
import { seedClients, uploadOf, walkClients } from '../support/content-walk';
import type { FakeHarness } from '../support/fake-harness';
import { startFakeHarness } from '../support/fake-harness';
import type { Exchange, RecordingProxy } from '../support/recording-proxy';
import { startRecordingProxy } from '../support/recording-proxy';
import type { ExchangeCheck, ShapeBook } from '../support/shape-check';
import { checkExchanges, checkRestExchange, selection, unselectedProblems } from '../support/shape-check';

const ACCOUNT = 'acct-graph-metadata';
const TOKEN = 'tok-graph';
const CLIENT_ID = 'client-graph';
const SCOPES = ['User.Read', 'Files.ReadWrite.All', 'Sites.Read.All'];
const THROTTLE = ['activityLimitReached', 'TooManyRequests', 'serviceNotAvailable'];
const MiB = 1024 * 1024;

const BOOK: ShapeBook = {
  source: `${GRAPH_V1_SOURCE.path} at ${GRAPH_V1_SOURCE.commit.slice(0, 12)}`,
  schemas: GRAPH_V1_SCHEMAS,
  control: GRAPH_CONTROL,
  formats: GRAPH_V1_FORMATS,
};

/** The request an exchange is, and what is wrong with its body (empty: nothing). */
function check(exchange: Exchange): ExchangeCheck {
  const result = checkRestExchange(BOOK, GRAPH_V1_METHODS, 'ODataError', exchange);
  const named = exchange.query.get('$select');
  if (!result.schema || named === null) return result;
  // $select keeps the properties named (and `id`, which the fake always sends) of each item.
  const where = `${exchange.method} ${exchange.path} ${exchange.status}`;
  const item = result.schema.replace(/^(collection|delta)\((\w+)\)$/, '$2');
  const json = exchange.json as { value?: unknown[] };
  const records = item === result.schema ? [json] : (json.value ?? []);
  result.problems.push(...unselectedProblems(BOOK, records, item, selection(`id,${named}`), where));
  return result;
}

const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
let fake: FakeHarness;
let proxy: RecordingProxy;

beforeAll(async () => {
  fake = await startFakeHarness(onedriveFake, clock);
  fake.grant(TOKEN, ACCOUNT, SCOPES, CLIENT_ID);
  proxy = await startRecordingProxy(fake.base, '/microsoft');
});

afterAll(async () => {
  await proxy.close();
  await fake.close();
});

const client = () =>
  new OneDriveApi({
    apiUrl: `${proxy.base}/microsoft`,
    throttleReasons: THROTTLE,
    ownClientId: () => CLIENT_ID,
  });

/** A request as the client makes it (bearer token, through the proxy); its exchange. */
async function call(method: string, path: string, token = TOKEN) {
  const before = proxy.exchanges.length;
  await fetch(`${proxy.base}/microsoft${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}` },
  }).then((r) => r.arrayBuffer());
  return proxy.exchanges[before]!;
}

/** Every exchange since `from` checked; the requests seen (`id` or `id status` for an error). */
const checkSince = (from: number) => checkExchanges(proxy.exchanges.slice(from), check);

describe(`OneDrive fake against Graph v1.0 metadata (${GRAPH_V1_SOURCE.path} at ${GRAPH_V1_SOURCE.commit.slice(0, 12)})`, () => {
  let tree: AccountTree;
  let clients: FolderNode;
  let acme: FolderNode;
  const idOf = (node: TreeNode) => onedriveIds.providerId(tree, node);

  beforeAll(() => {
    tree = fake.tree(ACCOUNT);
    ({ clients, acme } = seedClients(tree));
  });

  it('the checker refuses an undocumented property, a wrong EDM type, a null where not nullable, a missing required one', () => {
    const item = (json: unknown) =>
      check({
        method: 'GET',
        path: '/v1.0/drives/d/items/x',
        query: new URLSearchParams(),
        status: 200,
        json,
      });
    expect(
      item({ id: 'x', size: 12, file: { mimeType: 'text/plain' }, '@odata.context': 'c' }).problems,
    ).toEqual([]);
    expect(item({ id: 'x', ownerId: 'me' }).problems).toEqual([
      expect.stringContaining('.ownerId: driveItem has no such property'),
    ]);
    expect(item({ id: 'x', size: '12' }).problems).toEqual([expect.stringContaining('is not integer/int64')]);
    expect(item({ id: 'x', lastModifiedDateTime: null }).problems).toEqual([
      expect.stringContaining('is not string/date-time'),
    ]);
    expect(item({ id: 'x', file: { hashes: { md5Hash: 'a' } } }).problems).toEqual([
      expect.stringContaining('.md5Hash: hashes has no such property'),
    ]);
    expect(item({ name: 'x' }).problems).toEqual([expect.stringContaining('.id: required by driveItem')]);
    const error = (json: unknown) =>
      check({ method: 'GET', path: '/v1.0/me', query: new URLSearchParams(), status: 404, json }).problems;
    expect(error({ error: { code: 'itemNotFound', message: 'm' } })).toEqual([]);
    expect(error({ error: { code: 'itemNotFound' } })).toEqual([
      expect.stringContaining('.message: required'),
    ]);
  });

  it('every answer the production client gets while browsing, importing and exporting is a metadata shape', async () => {
    const from = proxy.exchanges.length;
    const api = client();
    const top = await api.browse(TOKEN, undefined, { limit: 10 });
    expect(top.entries.map((e) => e.kind)).toEqual(['container', 'container']);
    const site = top.entries.find((e) => e.id.startsWith('site:'))!;
    const libraries = await api.browse(TOKEN, site.id, { limit: 10 });
    expect(libraries.entries).toHaveLength(1);
    await api.browse(TOKEN, libraries.entries[0]!.id, { limit: 10 });
    await walkClients(api, TOKEN, tree, clock, { clients, acme }, idOf);

    // Exports: a simple PUT, our own file replaced, an upload session of two 10 MiB fragments.
    const small = await api.upload(TOKEN, idOf(acme), uploadOf('report.pdf', Buffer.from('v1'), 'k1'));
    const found = await api.findFile(TOKEN, idOf(acme), 'report.pdf');
    expect(found).toEqual(small);
    const again = await api.upload(TOKEN, idOf(acme), {
      ...uploadOf('report.pdf', Buffer.from('v2'), 'k2'),
      replace: found!,
    });
    expect(again.id).toBe(small.id);
    const big = await api.upload(TOKEN, idOf(acme), uploadOf('big.pdf', Buffer.alloc(11 * MiB, 7), 'k3'));
    expect(big.name).toBe('big.pdf');

    const requests = checkSince(from);
    for (const id of [
      'driveItem.get',
      'site.search',
      'site.list-drives',
      'driveItem.list-children',
      'driveItem.delta',
      'driveItem.get-content',
      'download',
      'driveItem.put-content',
      'driveItem.createUploadSession',
      'uploadSession.put',
    ])
      expect(requests).toContain(id);
  });

  it('whole resources (no $select) and the account are metadata shapes', async () => {
    const from = proxy.exchanges.length;
    const letter = tree.liveFiles(acme).find((f) => f.name === 'letter.txt')!;
    const { drive, item } = { drive: idOf(tree.root).split(':')[0]!, item: letter.id };
    for (const path of [
      '/v1.0/me',
      '/v1.0/me/drive',
      '/v1.0/me/drive/root',
      `/v1.0/drives/${drive}`,
      `/v1.0/drives/${drive}/items/${item}`,
      `/v1.0/drives/${drive}/items/${acme.id}/children`,
      `/v1.0/drives/${drive}/root/delta`,
      '/v1.0/sites?search=*',
    ])
      expect((await call('GET', path)).status).toBe(200);
    checkSince(from);
  });

  it('errors, an expired token and throttling answer the OData error body', async () => {
    const from = proxy.exchanges.length;
    const drive = idOf(tree.root).split(':')[0]!;
    expect((await call('GET', `/v1.0/drives/${drive}/items/nope`)).status).toBe(404);
    expect((await call('GET', '/v1.0/me', 'tok-unknown')).status).toBe(401);
    const api = client();
    fake.fail({ status: 429, retryAfter: 7 });
    const throttled = await api.browse(TOKEN, idOf(clients), { limit: 10 }).catch((e: unknown) => e);
    expect(throttled).toBeInstanceOf(ProviderApiError);
    expect(throttled).toMatchObject({ status: 429, retryAfterSeconds: 7 });
    fake.fail({ status: 503, retryAfter: 2 });
    await expect(api.browse(TOKEN, idOf(clients), { limit: 10 })).rejects.toMatchObject({ status: 503 });
    const requests = checkSince(from);
    expect([...requests].filter((id) => /\d{3}$/.test(id)).sort()).toEqual([
      'driveItem.get 404',
      'driveItem.list-children 429',
      'driveItem.list-children 503',
      'user.get 401',
    ]);
  });
});
