// The Clio fake (sandbox/providers/clio/) checked against Clio's OpenAPI description of API v4, whose
// facts test/fixtures/clio-v4-shapes.ts keeps: the PRODUCTION client
// (functions/connectors/infra/content/clio.ts) lists matters, imports a matter's documents (a full pass,
// then updated_since with include_deleted after a create, a change and a delete), downloads (303 to the
// storage URL) and exports (Clio's create, PUT to put_url, PATCH fully_uploaded) through a recording
// proxy in front of the fake; then error and throttle answers. Every JSON body is checked: no property
// the description does not have, each of its type and format, the required present, and nothing
// outside the request's `fields` (Clio's `a,b{c}` selection). Needs no emulator.
import { ClioApi } from '../../functions/connectors/providers/clio/client';
import { ProviderApiError } from '../../functions/connectors/infra/content/http';
import { ManualClock } from '../../functions/platform/clock';
import { textContent } from '../../sandbox/content/tree';
import type { AccountTree, FolderNode, TreeNode } from '../../sandbox/content/tree';
import { clioFake } from '../../sandbox/providers/clio';
import { clioIds } from '../../sandbox/providers/clio/documents';
import { CLIO_V4_METHODS, CLIO_V4_SCHEMAS, CLIO_V4_SOURCE } from '../fixtures/clio-v4-shapes';
import { changesPass, drain, uploadOf } from '../support/content-walk';
import type { FakeHarness } from '../support/fake-harness';
import { startFakeHarness } from '../support/fake-harness';
import type { Exchange, RecordingProxy } from '../support/recording-proxy';
import { startRecordingProxy } from '../support/recording-proxy';
import type { ExchangeCheck, ShapeBook, Selection } from '../support/shape-check';
import { checkExchanges, checkRestExchange, selection, unselectedProblems } from '../support/shape-check';

const ACCOUNT = 'acct-clio-openapi';
const TOKEN = 'tok-clio';
const SCOPES = clioFake.scopes;

const BOOK: ShapeBook = {
  source: `Clio OpenAPI v4 (${CLIO_V4_SOURCE.repository} at ${CLIO_V4_SOURCE.commit.slice(0, 12)})`,
  schemas: CLIO_V4_SCHEMAS,
};

/** Clio's `id,name,latest_document_version{id,size}` selects within `data` (of a show or an index). */
function clioSelection(fields: string | null): Selection {
  if (fields === null) return selection('id,etag');
  return selection(fields.replace(/\{/g, '(').replace(/\}/g, ')'));
}

/** The request an exchange is, and what is wrong with its body (empty: nothing). */
function check(exchange: Exchange): ExchangeCheck {
  const result = checkRestExchange(BOOK, CLIO_V4_METHODS, 'Error', exchange);
  if (!result.schema) return result;
  // The selection applies to the records under `data`.
  const where = `${exchange.method} ${exchange.path} ${exchange.status}`;
  const data = (exchange.json as { data?: unknown }).data;
  result.problems.push(
    ...unselectedProblems(
      BOOK,
      Array.isArray(data) ? data : [data],
      result.schema.replace(/_(List|Show)$/, ''),
      clioSelection(exchange.query.get('fields')),
      `${where}.data`,
    ),
  );
  return result;
}

const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
let fake: FakeHarness;
let proxy: RecordingProxy;

beforeAll(async () => {
  fake = await startFakeHarness(clioFake, clock);
  fake.grant(TOKEN, ACCOUNT, [...SCOPES]);
  proxy = await startRecordingProxy(fake.base, '/clio');
});

afterAll(async () => {
  await proxy.close();
  await fake.close();
});

const client = () => new ClioApi({ apiUrl: `${proxy.base}/clio` });

async function call(method: string, path: string, token = TOKEN) {
  const before = proxy.exchanges.length;
  await fetch(`${proxy.base}/clio${path}`, { method, headers: { Authorization: `Bearer ${token}` } }).then(
    (r) => r.arrayBuffer(),
  );
  return proxy.exchanges[before]!;
}

const checkSince = (from: number) => checkExchanges(proxy.exchanges.slice(from), check);

const text = (value: string, contentType = 'text/plain') => ({ contentType, content: textContent(value) });

describe(`Clio fake against Clio's OpenAPI description (${CLIO_V4_SOURCE.repository} at ${CLIO_V4_SOURCE.commit.slice(0, 12)})`, () => {
  let tree: AccountTree;
  let matter: FolderNode;
  const idOf = (node: TreeNode) => clioIds.providerId(tree, node);

  beforeAll(() => {
    tree = fake.tree(ACCOUNT);
    matter = tree.addFolder(tree.root, '00001-Acme');
    tree.addFolder(tree.root, '00002-Beta');
    tree.putFile(matter, 'engagement.pdf', text('engagement', 'application/pdf'));
    tree.putFile(matter, 'letter.txt', text('dear acme'));
    tree.putFile(matter, 'minutes.txt', text('minutes'));
  });

  it('the checker refuses an undocumented property, a wrong type, a missing required one, an unselected field', () => {
    const show = (json: unknown, fields = 'id,name') =>
      check({
        method: 'GET',
        path: '/api/v4/documents/1.json',
        query: new URLSearchParams({ fields }),
        status: 200,
        json,
      }).problems;
    expect(show({ data: { id: 1, name: 'a' } })).toEqual([]);
    expect(show({ data: { id: 1, name: 'a', owner: 'me' } }, 'id,name,owner')).toEqual([
      expect.stringContaining('.owner: Document has no such property'),
    ]);
    expect(show({ data: { id: '1' } })).toEqual([expect.stringContaining('is not integer/int64')]);
    expect(show({ id: 1 })).toEqual(
      expect.arrayContaining([expect.stringContaining('.data: required by Document_Show')]),
    );
    expect(show({ data: { id: 1, size: 3 } })).toEqual([
      expect.stringContaining(".size: not in the request's fields"),
    ]);
    expect(
      check({
        method: 'GET',
        path: '/api/v4/matters.json',
        query: new URLSearchParams(),
        status: 429,
        json: { error: { type: 'RateLimited' } },
      }).problems,
    ).toEqual([expect.stringContaining('.message: required by ErrorDetail')]);
  });

  it('every answer the production client gets while browsing, importing and exporting is a described shape', async () => {
    const from = proxy.exchanges.length;
    const api = client();
    const top = await api.browse(TOKEN, undefined, { limit: 1 });
    expect(top.entries).toHaveLength(1);
    const rest = await api.browse(TOKEN, undefined, { token: top.next, limit: 1 });
    expect([...top.entries, ...rest.entries].map((e) => e.kind)).toEqual(['container', 'container']);
    await api.checkContainer(TOKEN, idOf(matter));
    const inside = await api.browse(TOKEN, idOf(matter), { limit: 10 });
    expect(inside.entries.map((e) => e.name).sort()).toEqual(['engagement.pdf', 'letter.txt', 'minutes.txt']);

    // Passes overlap by a minute (CLIO_PASS_OVERLAP_MS): the setup lies well before the first.
    clock.advance(5 * 60_000);
    const first = await changesPass(api, TOKEN, idOf(matter), undefined);
    expect(first.files.map((f) => f.name).sort()).toEqual(['engagement.pdf', 'letter.txt', 'minutes.txt']);
    clock.advance(5 * 60_000);
    tree.putFile(matter, 'new.txt', text('new'));
    tree.putFile(matter, 'letter.txt', text('dear acme, again'));
    tree.deleteFile(tree.liveFiles(matter).find((f) => f.name === 'minutes.txt')!);
    const second = await changesPass(api, TOKEN, idOf(matter), first.cursor);
    expect(second.files.filter((f) => f.deleted).map((f) => f.name)).toEqual(['minutes.txt']);
    expect(
      second.files
        .filter((f) => !f.deleted)
        .map((f) => f.name)
        .sort(),
    ).toEqual(['letter.txt', 'new.txt']);

    const letter = tree.liveFiles(matter).find((f) => f.name === 'letter.txt')!;
    expect((await drain((await api.download(TOKEN, idOf(letter))).body)).toString()).toBe('dear acme, again');

    const exported = await api.upload(TOKEN, idOf(matter), uploadOf('report.pdf', Buffer.from('v1'), 'k1'));
    expect(await api.findFile(TOKEN, idOf(matter), 'report.pdf')).toEqual(exported);

    const requests = checkSince(from);
    for (const id of [
      'Matter#index',
      'Matter#show',
      'Document#index',
      'Document#download',
      'Document#create',
      'Document#update',
      'storage',
    ])
      expect(requests).toContain(id);
  });

  it('the account, whole resources, errors and throttling are described shapes', async () => {
    const from = proxy.exchanges.length;
    const letter = tree.liveFiles(matter).find((f) => f.name === 'letter.txt')!;
    expect((await call('GET', '/api/v4/users/who_am_i.json?fields=id,name,email')).status).toBe(200);
    expect((await call('GET', `/api/v4/documents/${idOf(letter)}.json`)).status).toBe(200);
    expect(
      (
        await call(
          'GET',
          `/api/v4/documents/${idOf(letter)}.json?fields=id,etag,name,created_at,updated_at,deleted_at,size,content_type,latest_document_version{id,uuid,size,content_type,fully_uploaded,received_at}`,
        )
      ).status,
    ).toBe(200);
    expect(
      (await call('GET', `/api/v4/matters/${idOf(matter)}.json?fields=id,display_number,description`)).status,
    ).toBe(200);
    expect((await call('GET', '/api/v4/documents/999999999.json')).status).toBe(404);
    expect((await call('GET', '/api/v4/documents.json?fields=nope')).status).toBe(400);
    expect((await call('GET', '/api/v4/matters.json', 'tok-unknown')).status).toBe(401);
    fake.fail({ status: 429, retryAfter: 4 });
    const throttled = await client()
      .browse(TOKEN, undefined, { limit: 10 })
      .catch((e: unknown) => e);
    expect(throttled).toBeInstanceOf(ProviderApiError);
    expect(throttled).toMatchObject({ status: 429, retryAfterSeconds: 4 });
    const requests = checkSince(from);
    expect([...requests].filter((id) => /\d{3}$/.test(id)).sort()).toEqual([
      'Document#index 400',
      'Document#show 404',
      'Matter#index 401',
      'Matter#index 429',
    ]);
  });
});
