// The iManage Work fake (sandbox/providers/imanage/) checked against iManage's published description of
// its profiles (the certified Power Platform connector; test/fixtures/imanage-work-shapes.ts keeps its
// facts): the PRODUCTION client (functions/connectors/providers/imanage/client.ts) browses, imports a
// workspace (the first pass's walk, then searches by edit date after a create, a new version, a rename, a
// delete), downloads, exports small and large documents and a new version, meets a name
// taken (409) and throttling (429 with Retry-After), all through a recording proxy in front of the fake.
// Its access token travels in X-Auth-Token, as iManage's documentation sends it: a request with
// `Authorization: Bearer` alone is the 401 of a missing token.
// Every JSON body is checked: a profile has no property the description does not have, each of its
// type and format, the required present. The envelopes the connector's description does not carry
// (Work API v2's lists `{data, total_count}`, discovery, the error body) are written down here as this
// client reads them, and checked the same way. Needs no emulator.
import { UploadRefusedError } from '../../functions/connectors/infra/content/api';
import { ProviderApiError } from '../../functions/connectors/infra/content/http';
import { ImanageApi } from '../../functions/connectors/providers/imanage/client';
import { definition } from '../../functions/connectors/providers/imanage/definition';
import { ManualClock } from '../../functions/platform/clock';
import { textContent } from '../../sandbox/content/tree';
import type { AccountTree, FolderNode, TreeNode } from '../../sandbox/content/tree';
import { imanageFake } from '../../sandbox/providers/imanage';
import { customerIdOf, imanageIds } from '../../sandbox/providers/imanage/work';
import { IMANAGE_WORK_SCHEMAS, IMANAGE_WORK_SOURCE } from '../fixtures/imanage-work-shapes';
import { changesPass, drain, uploadOf } from '../support/content-walk';
import type { Exchange } from '../support/recording-proxy';
import { fakeBehindRecordingProxy } from '../support/recording-proxy';
import type { ExchangeCheck, RestOperation, ShapeBook } from '../support/shape-check';
import { checkExchanges, checkRestExchange } from '../support/shape-check';

const ACCOUNT = 'acct-imanage-connector';
const TOKEN = 'tok-imanage';
const SERVER = 'work.firm.example';
const SOURCE = `iManage Work connector ${IMANAGE_WORK_SOURCE.repository} at ${IMANAGE_WORK_SOURCE.commit.slice(0, 12)}`;

const BOOK: ShapeBook = {
  source: SOURCE,
  schemas: {
    ...IMANAGE_WORK_SCHEMAS,
    // Not in the connector's description (its host wraps Work API v2): the envelopes as this client reads them.
    WorkspaceList: { data: '![@WorkspaceProfile]', total_count: '!integer/int64' },
    FolderList: { data: '![@FolderProfile]', total_count: '!integer/int64' },
    DocumentList: { data: '![@FullDocumentProfile]', total_count: '!integer/int64' },
    FolderProfileBody: { data: '!@FolderProfile' },
    Discovery: { data: '!@Discovery.data' },
    'Discovery.data': {
      auth_status: 'string',
      dms_version: 'string',
      user: '!@Discovery.user',
      versions: '[@Discovery.version]',
      work: '!@Discovery.work',
    },
    'Discovery.user': {
      id: '!string',
      name: 'string',
      email: 'string',
      customer_id: '!integer/int64',
      user_type: 'string',
    },
    'Discovery.version': { name: 'string', url: 'string', version: 'string' },
    'Discovery.work': { libraries: '![@Discovery.library]', preferred_library: 'string' },
    'Discovery.library': { alias: '!string', type: 'string' },
    Error: { error: '!@Error.body' },
    'Error.body': { code: '!string', message: '!string' },
  },
};

const W = String.raw`^\/[^/]+\/work\/api\/v2\/customers\/\d+\/libraries\/[^/]+`;
const OPERATIONS: RestOperation[] = [
  { id: 'discovery', method: 'GET', path: /^\/[^/]+\/api$/, response: { 200: 'Discovery' } },
  {
    id: 'workspaces',
    method: 'GET',
    path: new RegExp(`${W}/workspaces$`),
    response: { 200: 'WorkspaceList' },
  },
  {
    id: 'folder',
    method: 'GET',
    path: new RegExp(`${W}/folders/[^/]+$`),
    response: { 200: 'FolderProfileBody' },
  },
  {
    id: 'folder children',
    method: 'GET',
    path: new RegExp(`${W}/folders/[^/]+/children$`),
    response: { 200: 'FolderList' },
  },
  {
    id: 'folder documents',
    method: 'GET',
    path: new RegExp(`${W}/folders/[^/]+/documents$`),
    response: { 200: 'DocumentList' },
  },
  {
    id: 'upload document',
    method: 'POST',
    path: new RegExp(`${W}/folders/[^/]+/documents$`),
    response: { 201: 'ShortDocumentProfileResponseBody' },
  },
  {
    id: 'search documents',
    method: 'GET',
    path: new RegExp(`${W}/documents$`),
    response: { 200: 'DocumentList' },
  },
  {
    id: 'document',
    method: 'GET',
    path: new RegExp(`${W}/documents/[^/]+$`),
    response: { 200: 'FullDocumentProfileResponseBody' },
  },
  { id: 'download', method: 'GET', path: new RegExp(`${W}/documents/[^/]+/download$`), response: null },
  {
    id: 'new version',
    method: 'POST',
    path: new RegExp(`${W}/documents/[^/]+/versions$`),
    response: { 201: 'ShortDocumentProfileResponseBody' },
  },
];

function check(exchange: Exchange): ExchangeCheck {
  const where = `${exchange.method} ${exchange.path} ${exchange.status}`;
  const result = checkRestExchange(BOOK, OPERATIONS, 'Error', exchange);
  if (exchange.status === 429 && !/^\d+$/.test(exchange.headers?.get('retry-after') ?? ''))
    result.problems.push(`${where}: a 429 without Retry-After`);
  return result;
}

const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
const recorded = fakeBehindRecordingProxy(imanageFake, clock, {
  token: TOKEN,
  account: ACCOUNT,
  scopes: ['user'],
});

const client = () =>
  new ImanageApi({
    apiUrl: `${recorded.proxy.base}/imanage/${SERVER}`,
    throttleReasons: definition.throttleReasons,
    accessTokenHeader: definition.accessTokenHeader,
  });
const text = (value: string) => ({ contentType: 'text/plain', content: textContent(value) });
const checkSince = (from: number) => checkExchanges(recorded.proxy.exchanges.slice(from), check);

describe(`iManage fake against iManage's description (${SOURCE})`, () => {
  let tree: AccountTree;
  let matter: FolderNode;
  let pleadings: FolderNode;
  const idOf = (node: TreeNode) => imanageIds.providerId(tree, node);

  beforeAll(() => {
    tree = recorded.fake.tree(ACCOUNT);
    matter = tree.addFolder(tree.root, 'Acme v. Globex');
    pleadings = tree.addFolder(matter, 'Pleadings');
    tree.addFolder(tree.root, 'Northwind lease');
    tree.putFile(matter, 'Engagement letter.docx', text('engagement'));
    tree.putFile(pleadings, 'Complaint.pdf', text('complaint'));
    tree.putFile(pleadings, 'Answer', text('answer, no extension'));
    clock.advance(10 * 60_000);
  });

  it('the checker refuses an undocumented property, a wrong type, a missing required one', () => {
    const path = `/${SERVER}/work/api/v2/customers/1/libraries/ACTIVE/documents/ACTIVE!1.1`;
    const document = {
      author: 'A',
      create_date: 'x',
      database: 'ACTIVE',
      default_security: 'inherit',
      document_number: 1,
      extension: 'pdf',
      file_create_date: 'x',
      file_edit_date: 'x',
      id: 'ACTIVE!1.1',
      is_hipaa: false,
      iwl: 'x',
      size: 1,
      type: 'ACROBAT',
      version: 1,
      document_url: 'x',
      full_file_name: 'a.pdf',
    };
    const problems = (data: unknown) =>
      check({ method: 'GET', path, query: new URLSearchParams(), status: 200, json: { data } }).problems;
    expect(problems(document)).toEqual([]);
    expect(problems({ ...document, colour: 'red' })).toEqual([expect.stringContaining('.colour')]);
    expect(problems({ ...document, version: '1' })).toEqual([expect.stringContaining('"1" is not integer')]);
    const { iwl: _iwl, ...missing } = document;
    expect(problems(missing)).toEqual([expect.stringContaining('.iwl: required')]);
  });

  it('browse, a full import, the changes after it, a download: every answer as described', async () => {
    const from = recorded.proxy.exchanges.length;
    const firstRequest = recorded.requests.length;
    const api = client();
    const top = await api.browse(TOKEN, undefined, { limit: 1 });
    expect(top.entries).toHaveLength(1);
    const listed: string[] = [];
    let next: string | undefined;
    do {
      const page = await api.browse(TOKEN, idOf(matter), { token: next, limit: 1 });
      listed.push(...page.entries.map((e) => e.name));
      next = page.next;
    } while (next);
    expect(listed.sort()).toEqual(['Engagement letter.docx', 'Pleadings']);
    await api.checkContainer(TOKEN, idOf(pleadings));

    const first = await changesPass(api, TOKEN, idOf(matter), undefined, 1);
    expect(first.files.map((f) => f.name).sort()).toEqual([
      'Answer',
      'Complaint.pdf',
      'Engagement letter.docx',
    ]);

    clock.advance(10 * 60_000);
    tree.putFile(pleadings, 'Reply.pdf', text('reply')); // create
    tree.putFile(pleadings, 'Complaint.pdf', text('complaint, amended')); // a new version
    const engagement = tree.liveFiles(matter).find((f) => f.name === 'Engagement letter.docx')!;
    tree.moveFile(engagement, matter, 'Engagement letter (signed).docx'); // rename
    const answer = tree.liveFiles(pleadings).find((f) => f.name === 'Answer')!;
    tree.deleteFile(answer);
    const second = await changesPass(api, TOKEN, idOf(matter), first.cursor, 1);
    expect(second.files.map((f) => [f.name, f.version]).sort()).toEqual([
      ['Complaint.pdf', '2'],
      ['Engagement letter (signed).docx', '1'],
      ['Reply.pdf', '1'],
    ]);
    // The deletion is not in iManage's search (the reconcile's, docs/providers.md); what the last pass
    // saw comes again within the pass's overlap, at the same versions; then nothing.
    clock.advance(10 * 60_000);
    const third = await changesPass(api, TOKEN, idOf(matter), second.cursor, 1);
    const versions = (files: typeof third.files) => files.map((f) => [f.id, f.name, f.version]).sort();
    expect(versions(third.files)).toEqual(versions(second.files));
    clock.advance(10 * 60_000);
    expect((await changesPass(api, TOKEN, idOf(matter), third.cursor, 1)).files).toEqual([]);

    const complaint = second.files.find((f) => f.name === 'Complaint.pdf')!;
    const download = await api.download(TOKEN, complaint.id);
    expect((await drain(download.body)).toString()).toBe('complaint, amended');
    const seen = checkSince(from);
    for (const id of [
      'discovery',
      'workspaces',
      'folder',
      'folder children',
      'folder documents',
      'search documents',
      'document',
      'download',
    ])
      expect(seen).toContain(id);
    const asked = recorded.requests.slice(firstRequest);
    expect(asked.length).toBeGreaterThan(0);
    for (const request of asked) {
      expect(request.headers['x-auth-token']).toBe(TOKEN);
      expect(request.headers.authorization).toBeUndefined();
    }
  });

  it('exports: a small and a large new document, a new version, a name taken, every answer as described', async () => {
    const from = recorded.proxy.exchanges.length;
    const api = client();
    const small = await api.upload(
      TOKEN,
      idOf(pleadings),
      uploadOf('Brief.pdf', Buffer.from('brief'), 'exp-1'),
    );
    const large = Buffer.alloc(8 * 1024 * 1024 + 3, 5);
    const big = await api.upload(TOKEN, idOf(matter), uploadOf('Exhibits.pdf', large, 'exp-2'));
    expect((await drain((await api.download(TOKEN, big.id)).body)).equals(large)).toBe(true);
    const again = await api.upload(TOKEN, idOf(pleadings), {
      ...uploadOf('Brief.pdf', Buffer.from('brief v2'), 'exp-3'),
      replace: small,
    });
    expect(again).toMatchObject({ id: small.id, version: '2' });
    await expect(
      api.upload(TOKEN, idOf(pleadings), uploadOf('Brief.pdf', Buffer.from('theirs'), 'exp-4')),
    ).rejects.toBeInstanceOf(UploadRefusedError);
    // The fake's 409 for a name a racing upload took (the client's check comes first).
    const customer = customerIdOf(ACCOUNT);
    const boundary = 'b';
    const body =
      `--${boundary}\r\nContent-Disposition: form-data; name="profile"\r\n\r\n{"doc_profile":{"name":"Brief","extension":"pdf"}}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x"\r\n\r\nx\r\n--${boundary}--\r\n`;
    const taken = await fetch(
      `${recorded.proxy.base}/imanage/${SERVER}/work/api/v2/customers/${customer}/libraries/ACTIVE/folders/${encodeURIComponent(idOf(pleadings))}/documents`,
      {
        method: 'POST',
        headers: {
          'X-Auth-Token': TOKEN,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
        },
        body,
      },
    );
    expect(taken.status).toBe(409);
    expect(await taken.json()).toMatchObject({ error: { code: 'DUPLICATE_NAME' } });
    const seen = checkSince(from);
    for (const id of ['upload document', 'new version', 'upload document 409']) expect(seen).toContain(id);
  });

  it('throttling, a refused token and a missing document: errors as described, Retry-After read', async () => {
    // A token discovery has not answered for: its first request is discovery (kept per server and token).
    const fresh = 'tok-imanage-undiscovered';
    recorded.fake.grant(fresh, ACCOUNT, ['user']);
    const from = recorded.proxy.exchanges.length;
    recorded.fake.fail({ status: 429, retryAfter: 11 });
    const throttled = await client()
      .browse(fresh, idOf(matter), { limit: 5 })
      .catch((e: unknown) => e);
    expect(throttled).toBeInstanceOf(ProviderApiError);
    expect(throttled).toMatchObject({
      status: 429,
      retryAfterSeconds: 11,
      providerError: 'TOO_MANY_REQUESTS',
    });
    await expect(client().browse('not-a-token', idOf(matter), { limit: 5 })).rejects.toMatchObject({
      status: 401,
    });
    await expect(client().download(TOKEN, 'ACTIVE!999999')).rejects.toMatchObject({ status: 404 });
    // A valid token in the header every other provider takes is no token to iManage.
    const bearer = await fetch(`${recorded.proxy.base}/imanage/${SERVER}/api`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(bearer.status).toBe(401);
    expect(await bearer.json()).toMatchObject({ error: { code: 'AUTH_REQUIRED' } });
    const seen = checkSince(from);
    expect(seen).toContain('discovery 429');
    expect(seen).toContain('discovery 401');
    expect(seen).toContain('document 404');
  });
});
