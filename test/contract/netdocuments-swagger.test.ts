// The NetDocuments fake (sandbox/providers/netdocuments/) checked against the certified Power Platform
// connector's description of the REST API, whose facts test/fixtures/netdocuments-shapes.ts keeps: the
// PRODUCTION client (functions/connectors/providers/netdocuments/client.ts) browses the cabinets and a
// cabinet's workspaces and folders a page at a time, imports a workspace (a full pass, then a search by
// modification time after a create, a new version, a deletion, a restore and a move out; changes within
// the cursor's own instant), downloads the version it listed, exports a new document and a new version
// of one (and meets a name taken and a version changed), and is throttled (429 with Retry-After), all
// through a recording proxy in front of the fake, in the `eu` region. Every answer is checked: a
// described one against the description (no property it lacks, each of its type, the required there);
// one the description leaves undescribed (container listings, searches, a document's profile, errors)
// against the shape docs/providers.md says was chosen (CHOSEN below). Needs no emulator.
import { Readable } from 'node:stream';
import { UploadRefusedError } from '../../functions/connectors/infra/content/api';
import { ProviderApiError } from '../../functions/connectors/infra/content/http';
import {
  ND_CURSOR_SEEN_MAX,
  NetDocumentsApi,
  splitName,
} from '../../functions/connectors/providers/netdocuments/client';
import { ManualClock } from '../../functions/platform/clock';
import { textContent } from '../../sandbox/content/tree';
import type { AccountTree, FolderNode, TreeNode } from '../../sandbox/content/tree';
import { netdocumentsFake } from '../../sandbox/providers/netdocuments';
import { cabinetId, ndIds } from '../../sandbox/providers/netdocuments/documents';
import { ND_OPERATIONS, ND_SCHEMAS, ND_SOURCE } from '../fixtures/netdocuments-shapes';
import { changesPass, drain, uploadOf } from '../support/content-walk';
import type { FakeHarness } from '../support/fake-harness';
import { startFakeHarness } from '../support/fake-harness';
import type { Exchange, RecordingProxy } from '../support/recording-proxy';
import { startRecordingProxy } from '../support/recording-proxy';
import type { ExchangeCheck, ShapeBook } from '../support/shape-check';
import { checkExchanges, checkValue } from '../support/shape-check';

const ACCOUNT = 'acct-nd-swagger';
const TOKEN = 'tok-nd';
const READ_ONLY = 'tok-nd-read';
const REGION = 'eu';
const SOURCE = `Power Platform connector ${ND_SOURCE.version} at ${ND_SOURCE.commit.slice(0, 12)}`;

/**
 * The answers the description leaves without a schema, as the fake and the client take them (chosen
 * where NetDocuments' public material stops; docs/providers.md lists them): an item's standard
 * attributes, a listing's envelope, a document's profile (as CreateFolder's described answer wraps
 * its standard attributes), an error.
 */
const CHOSEN: Record<string, Record<string, string>> = {
  StandardAttributes: {
    id: '!string/nd-id',
    envId: 'string',
    name: '!string',
    extension: '!string',
    size: 'integer',
    created: 'string/date-time',
    modified: '!string/date-time',
    latestVersionNumber: 'integer',
    officialVer: 'integer',
    deleted: 'boolean',
  },
  List: { Results: '![@StandardAttributes]', TotalFound: 'integer', SkipToken: 'string' },
  Profile: { standardAttributes: '!@StandardAttributes' },
  Error: { error: '!string' },
};
const CHOSEN_ANSWERS: Record<string, string> = {
  GetContainerContents: '@List',
  SearchCabinets: '@List',
  GetDocInfo: '@Profile',
};

const BOOK: ShapeBook = {
  source: SOURCE,
  schemas: { ...ND_SCHEMAS, ...CHOSEN },
  formats: {
    integer: (v) => Number.isSafeInteger(v),
    'string/email': (v) => typeof v === 'string' && /^[^@\s]+@[^@\s]+$/.test(v),
    'string/nd-id': (v) => typeof v === 'string' && /^\d{4}-\d{4}-\d{4}$/.test(v),
  },
};

/** Downloading a given version: in NetDocuments' REST API overview, not in the connector's description. */
const VERSION_CONTENT = /^\/v1\/Document\/\d{4}-\d{4}-\d{4}\/\d+$/;

function check(exchange: Exchange): ExchangeCheck {
  const where = `${exchange.method} ${exchange.path} ${exchange.status}`;
  const out: string[] = [];
  if (exchange.status >= 400) {
    if (exchange.json === undefined)
      return { id: `error ${exchange.status}`, problems: [`${where}: no JSON`] };
    checkValue(BOOK, exchange.json, '@Error', where, true, out);
    return { id: `error ${exchange.status}`, problems: out };
  }
  if (exchange.method === 'GET' && VERSION_CONTENT.test(exchange.path))
    return { id: 'GetDocVersionContent', problems: exchange.json === undefined ? [] : [`${where}: JSON`] };
  const op = ND_OPERATIONS.find((o) => o.method === exchange.method && o.path.test(exchange.path));
  if (!op) return { id: '?', problems: [`${where}: no operation of the description is this`] };
  const shape = op.response?.[exchange.status] ?? CHOSEN_ANSWERS[op.id];
  if (exchange.json === undefined)
    return { id: op.id, problems: shape ? [`${where}: no JSON body, ${shape} expected`] : [] };
  if (!shape) return { id: op.id, problems: [`${where}: a JSON body where none is described or chosen`] };
  checkValue(BOOK, exchange.json, shape, where, true, out);
  return { id: op.id, problems: out };
}

const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
let fake: FakeHarness;
let proxy: RecordingProxy;

beforeAll(async () => {
  fake = await startFakeHarness(netdocumentsFake, clock);
  fake.grant(TOKEN, ACCOUNT, ['read', 'edit']);
  fake.grant(READ_ONLY, ACCOUNT, ['read']);
  proxy = await startRecordingProxy(fake.base, `/netdocuments/${REGION}`);
});

afterAll(async () => {
  await proxy.close();
  await fake.close();
});

const client = () => new NetDocumentsApi({ apiUrl: `${proxy.base}/netdocuments/${REGION}` });
const text = (value: string, contentType = 'text/plain') => ({ contentType, content: textContent(value) });
const checkSince = (from: number) => checkExchanges(proxy.exchanges.slice(from), check);

describe(`NetDocuments fake against the connector's description (${SOURCE})`, () => {
  let tree: AccountTree;
  let matter: FolderNode;
  let pleadings: FolderNode;
  const idOf = (node: TreeNode) => ndIds.providerId(tree, node);
  const fileNamed = (folder: FolderNode, name: string) =>
    tree.liveFiles(folder).find((f) => f.name === name)!;

  beforeAll(() => {
    tree = fake.tree(ACCOUNT);
    matter = tree.addFolder(tree.root, 'Acme v. Globex');
    pleadings = tree.addFolder(matter, 'Pleadings');
    tree.addFolder(tree.root, 'Estate of Harlow');
    tree.putFile(matter, 'Engagement letter.docx', text('engagement', 'application/octet-stream'));
    tree.putFile(pleadings, 'Complaint.pdf', text('complaint', 'application/pdf'));
    tree.putFile(pleadings, 'Answer.pdf', text('answer', 'application/pdf'));
    tree.putFile(pleadings, 'Moving.txt', text('moving'));
    tree.putFile(tree.root, 'Unfiled.txt', text('unfiled'));
  });

  it('the checker refuses an undocumented property, a wrong type, a missing required one', () => {
    const cabinets = (entry: unknown) =>
      check({
        method: 'GET',
        path: '/v1/User/cabinets',
        query: new URLSearchParams(),
        status: 200,
        json: [entry],
      }).problems;
    expect(cabinets({ id: 'NG-ABCD1234', name: 'Documents', wsAttrNum: 1 })).toEqual([]);
    expect(cabinets({ id: 'NG-ABCD1234', colour: 'red' })).toEqual([
      expect.stringContaining('.colour: GetUserCabinets[] has no such property'),
    ]);
    expect(cabinets({ id: 'NG-ABCD1234', wsAttrNum: '1' })).toEqual([
      expect.stringContaining('is not integer'),
    ]);
    const listed = (item: unknown) =>
      check({
        method: 'GET',
        path: '/v2/container/1234-5678-9012',
        query: new URLSearchParams(),
        status: 200,
        json: { Results: [item] },
      }).problems;
    expect(listed({ id: '1234-5678-9012', name: 'a', extension: 'pdf' })).toEqual([
      expect.stringContaining('.modified: required by StandardAttributes'),
    ]);
    expect(
      check({
        method: 'GET',
        path: '/v2/Search',
        query: new URLSearchParams(),
        status: 429,
        json: { message: 'x' },
      }).problems,
    ).toEqual(expect.arrayContaining([expect.stringContaining('.error: required by Error')]));
  });

  it('browses the cabinets, then a cabinet and a workspace a page at a time', async () => {
    const from = proxy.exchanges.length;
    const api = client();
    const top = await api.browse(TOKEN, undefined, { limit: 10 });
    expect(top.entries).toEqual([{ id: cabinetId(ACCOUNT), name: 'Documents', kind: 'container' }]);
    const names: string[] = [];
    let next: string | undefined;
    do {
      const page = await api.browse(TOKEN, cabinetId(ACCOUNT), { token: next, limit: 1 });
      names.push(...page.entries.map((e) => `${e.kind}:${e.name}`));
      next = page.next;
    } while (next);
    expect(names.sort()).toEqual([
      'container:Acme v. Globex',
      'container:Estate of Harlow',
      'file:Unfiled.txt',
    ]);
    const inMatter = await api.browse(TOKEN, idOf(matter), { limit: 10 });
    expect(inMatter.entries.map((e) => [e.kind, e.name]).sort()).toEqual([
      ['container', 'Pleadings'],
      ['file', 'Engagement letter.docx'],
    ]);
    await api.checkContainer(TOKEN, idOf(pleadings));
    await expect(api.checkContainer(TOKEN, '0000-0000-0000')).rejects.toMatchObject({ status: 404 });
    // An id that is not NetDocuments' never becomes a request.
    await expect(api.checkContainer(TOKEN, '../v1/User/info')).rejects.toMatchObject({ status: 404 });
    const seen = checkSince(from);
    expect([...seen].sort()).toEqual(['GetContainerContents', 'GetUserCabinets', 'error 404']);
  });

  it('imports a workspace by modification time: creates, new versions, deletions, restores, a move out', async () => {
    const from = proxy.exchanges.length;
    const api = client();
    const full = await changesPass(api, TOKEN, idOf(matter), undefined);
    expect(full.files.map((f) => f.name).sort()).toEqual([
      'Answer.pdf',
      'Complaint.pdf',
      'Engagement letter.docx',
      'Moving.txt',
    ]);
    expect(full.files.every((f) => !f.deleted)).toBe(true);

    clock.advance(60_000);
    const complaint = fileNamed(pleadings, 'Complaint.pdf');
    const complaintId = idOf(complaint);
    const before = full.files.find((f) => f.id === complaintId)!;
    tree.putFile(pleadings, 'Complaint.pdf', text('complaint, amended', 'application/pdf'));
    tree.putFile(pleadings, 'Reply.pdf', text('reply', 'application/pdf'));
    const answer = fileNamed(pleadings, 'Answer.pdf');
    expect(
      (
        await fetch(`${proxy.base}/netdocuments/${REGION}/v1/Document/${idOf(answer)}`, {
          method: 'DELETE',
          headers: { Authorization: `Bearer ${TOKEN}` },
        })
      ).status,
    ).toBe(403); // deleting asks NetDocuments' delete_doc scope
    tree.deleteFile(answer);
    tree.moveFile(fileNamed(pleadings, 'Moving.txt'), tree.root);
    tree.putFile(tree.root, 'Unfiled.txt', text("not the link's"));
    const later = await changesPass(api, TOKEN, idOf(matter), full.cursor);
    const live = later.files.filter((f) => !f.deleted);
    expect(live.map((f) => f.name).sort()).toEqual(['Complaint.pdf', 'Reply.pdf']);
    // A new version is a change of the same document.
    const amended = live.find((f) => f.name === 'Complaint.pdf')!;
    expect(amended.id).toBe(complaintId);
    expect(amended.version).not.toBe(before.version);
    expect(amended.version.split('.')[0]).toBe('2');
    // A move out of the container is a deletion for the link; the change outside is one too (the search
    // is of the user's cabinets: a run ignores a deletion of a file it does not hold).
    expect(
      later.files
        .filter((f) => f.deleted)
        .map((f) => f.name)
        .sort(),
    ).toEqual(['Answer.pdf', 'Moving.txt', 'Unfiled.txt']);

    // Nothing changed: nothing listed, the cursor kept.
    const quiet = await changesPass(api, TOKEN, idOf(matter), later.cursor);
    expect(quiet.files).toEqual([]);

    // Restored from Deleted Items: modified again, listed live.
    clock.advance(60_000);
    tree.restoreFile(answer.id, { asChange: true });
    const restored = await changesPass(api, TOKEN, idOf(matter), quiet.cursor);
    expect(restored.files.map((f) => [f.name, f.deleted])).toEqual([['Answer.pdf', false]]);

    // The listed version downloads, from the version NetDocuments numbered, not from a later one.
    const listed = amended;
    tree.putFile(pleadings, 'Complaint.pdf', text('complaint, amended twice', 'application/pdf'));
    const download = await api.download(TOKEN, complaintId, listed);
    expect((await drain(download.body)).toString()).toBe('complaint, amended');
    expect(download.version).toBe(listed.version);
    expect((await drain((await api.download(TOKEN, complaintId)).body)).toString()).toBe(
      'complaint, amended twice',
    );

    const seen = checkSince(from);
    expect([...seen].sort()).toEqual(
      expect.arrayContaining(['GetDocContent', 'GetDocVersionContent', 'GetUserCabinets', 'SearchCabinets']),
    );
  });

  it("changes within the cursor's own instant are neither lost nor listed twice", async () => {
    const api = client();
    const folder = tree.addFolder(tree.root, 'Same instant');
    clock.advance(60_000);
    for (let i = 0; i < 5; i++) tree.putFile(folder, `doc-${i}.txt`, text(`v1 ${i}`));
    const first = await changesPass(api, TOKEN, idOf(folder), undefined, 2);
    expect(first.files).toHaveLength(5);
    // The clock has not moved: two more at that instant, and a new version of one seen there.
    tree.putFile(folder, 'doc-5.txt', text('v1 5'));
    tree.putFile(folder, 'doc-6.txt', text('v1 6'));
    tree.putFile(folder, 'doc-0.txt', text('v2 0'));
    const second = await changesPass(api, TOKEN, idOf(folder), first.cursor, 2);
    expect(second.files.map((f) => f.name).sort()).toEqual(['doc-0.txt', 'doc-5.txt', 'doc-6.txt']);
    const third = await changesPass(api, TOKEN, idOf(folder), second.cursor, 2);
    expect(third.files).toEqual([]);
    expect(ND_CURSOR_SEEN_MAX).toBeGreaterThan(7);
  });

  it('exports a new document, a new version of it, and refuses a taken name and a changed version', async () => {
    const from = proxy.exchanges.length;
    const api = client();
    const made = await api.upload(
      TOKEN,
      idOf(matter),
      uploadOf('Brief.pdf', Buffer.from('%PDF brief'), 'k1'),
    );
    expect(made.name).toBe('Brief.pdf');
    expect(fileNamed(matter, 'Brief.pdf')).toBeDefined();
    expect(await api.findFile(TOKEN, idOf(matter), 'brief.PDF')).toEqual(made);
    await expect(
      api.upload(TOKEN, idOf(matter), uploadOf('Brief.pdf', Buffer.from('%PDF other'), 'k2')),
    ).rejects.toEqual(expect.objectContaining({ reason: 'name_taken' }));

    const next = await api.upload(TOKEN, idOf(matter), {
      ...uploadOf('Brief.pdf', Buffer.from('%PDF brief v2'), 'k3'),
      replace: made,
    });
    expect(next.id).toBe(made.id);
    expect(next.version.split('.')[0]).toBe('2');
    expect(
      Buffer.concat((fileNamed(matter, 'Brief.pdf').content as { chunks: Buffer[] }).chunks).toString(),
    ).toBe('%PDF brief v2');
    // The version the export saw is no longer the document's: the user's new version stays.
    await expect(
      api.upload(TOKEN, idOf(matter), {
        ...uploadOf('Brief.pdf', Buffer.from('%PDF v3'), 'k4'),
        replace: made,
      }),
    ).rejects.toEqual(expect.objectContaining({ reason: 'changed' }));

    // A larger one, streamed.
    const big = Buffer.alloc(3 * 1024 * 1024, 7);
    const large = await api.upload(TOKEN, idOf(pleadings), {
      name: 'Exhibits.bin',
      contentType: 'application/octet-stream',
      size: big.length,
      body: Readable.from([big.subarray(0, 1_000_000), big.subarray(1_000_000)]),
      idempotencyKey: 'k5',
    });
    expect(fileNamed(pleadings, 'Exhibits.bin').content.size).toBe(big.length);
    expect(splitName(large.name)).toEqual({ name: 'Exhibits', extension: 'bin' });
    // Its upload again (an answer lost): the same bytes under that name are that document, not a second.
    const again = await api.upload(TOKEN, idOf(pleadings), {
      name: 'Exhibits.bin',
      contentType: 'application/octet-stream',
      size: big.length,
      body: Readable.from([big]),
      idempotencyKey: 'k5',
    });
    expect(again).toEqual(large);
    await expect(
      api.upload(TOKEN, idOf(matter), uploadOf('a\u202Efdp.exe', Buffer.from('x'), 'k6')),
    ).rejects.toBeInstanceOf(UploadRefusedError);
    // Without NetDocuments' edit scope the upload is refused.
    await expect(
      api.upload(READ_ONLY, idOf(matter), uploadOf('Nope.pdf', Buffer.from('x'), 'k7')),
    ).rejects.toMatchObject({ status: 403 });
    const seen = checkSince(from);
    expect([...seen]).toEqual(
      expect.arrayContaining(['CreateDocument', 'NewVersion', 'GetDocInfo', 'error 403']),
    );
  });

  it('is throttled with 429 and Retry-After, and a 503 is a failure with its delay', async () => {
    const from = proxy.exchanges.length;
    const api = client();
    fake.fail({ status: 429, retryAfter: 7 });
    const throttled = await api.browse(TOKEN, idOf(matter), { limit: 1 }).catch((e: unknown) => e);
    expect(throttled).toBeInstanceOf(ProviderApiError);
    expect(throttled).toMatchObject({ status: 429, retryAfterSeconds: 7 });
    fake.fail({ status: 503, retryAfter: 3 });
    await expect(api.checkContainer(TOKEN, idOf(matter))).rejects.toMatchObject({
      status: 503,
      retryAfterSeconds: 3,
    });
    await expect(api.browse('not-a-token', idOf(matter), { limit: 1 })).rejects.toMatchObject({
      status: 401,
    });
    expect([...checkSince(from)].sort()).toEqual(['error 401', 'error 429', 'error 503']);
  });

  it('serves only the four regions', async () => {
    const at = (region: string) =>
      fetch(`${fake.base}/netdocuments/${region}/v1/User/cabinets`, {
        headers: { Authorization: `Bearer ${TOKEN}` },
      });
    for (const region of ['us', 'eu', 'de', 'au']) expect((await at(region)).status).toBe(200);
    expect((await at('xx')).status).toBe(404);
  });

  it('refuses a tampered cursor or page token before any request', async () => {
    const api = client();
    const count = proxy.exchanges.length;
    await expect(api.changes(TOKEN, idOf(matter), { cursor: 'bm90LWpzb24' }, 10)).rejects.toMatchObject({
      status: 400,
      providerError: 'invalid_page_token',
    });
    await expect(api.changes(TOKEN, idOf(matter), { page: 'e30' }, 10)).rejects.toMatchObject({
      status: 400,
    });
    await expect(api.browse(TOKEN, idOf(matter), { token: 'a/b', limit: 1 })).rejects.toMatchObject({
      status: 400,
    });
    expect(proxy.exchanges.length).toBe(count);
  });
});
