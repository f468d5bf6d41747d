// The production iManage Work client against the sandbox's iManage fake over real HTTP, on a customer
// server of its own: discovery for the customer id, libraries -> workspaces -> folders -> documents with
// offset paging, a first pass walking the folders and later passes searching by edit date (a new version
// is a change of the same document), the download, uploads as new documents and new versions under the
// export's rules (a name held refused, a version changed refused, a retried upload found by its key), and
// iManage's throttling. Its page tokens, property-based: they read back what they wrote and nothing else.
import type { IncomingMessage } from 'node:http';
import * as fc from 'fast-check';
import { FeedRestartError, UploadRefusedError } from '../../functions/connectors/infra/content/api';
import { ProviderApiError } from '../../functions/connectors/infra/content/http';
import {
  ImanageApi,
  browseToken,
  cursorToken,
  passToken,
} from '../../functions/connectors/providers/imanage/client';
import { definition } from '../../functions/connectors/providers/imanage/definition';
import { ManualClock } from '../../functions/platform/clock';
import { isWithin, textContent } from '../../sandbox/content/tree';
import type { FolderNode } from '../../sandbox/content/tree';
import { imanageFake } from '../../sandbox/providers/imanage';
import { imanageIds } from '../../sandbox/providers/imanage/work';
import { changesPass, drain, uploadOf } from '../support/content-walk';
import type { FakeHarness } from '../support/fake-harness';
import { startFakeHarness } from '../support/fake-harness';

const ACCOUNT = 'acct-imanage-1';
const SERVER = 'work.firm.example';
const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
let fake: FakeHarness;
let api: ImanageApi;
const seen: { method: string; path: string; token?: string; authorization?: string }[] = [];

beforeAll(async () => {
  fake = await startFakeHarness(imanageFake, clock, (request: IncomingMessage) =>
    seen.push({
      method: request.method ?? '',
      path: (request.url ?? '/').split('?')[0]!,
      token: request.headers['x-auth-token'] as string | undefined,
      authorization: request.headers.authorization,
    }),
  );
  fake.grant('tok', ACCOUNT, ['user']);
  api = new ImanageApi({
    apiUrl: `${fake.base}/imanage/${SERVER}`,
    throttleReasons: definition.throttleReasons,
    accessTokenHeader: definition.accessTokenHeader,
  });
});

afterAll(() => fake.close());

const text = (value: string) => ({ contentType: 'text/plain', content: textContent(value) });

async function failure<E extends Error>(
  promise: Promise<unknown>,
  type: new (...args: never[]) => E,
): Promise<E> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  throw new Error(`expected a ${type.name}`);
}

function seed(account = ACCOUNT) {
  const tree = fake.tree(account);
  const matter = tree.addFolder(tree.root, 'Acme v. Globex');
  const pleadings = tree.addFolder(matter, 'Pleadings');
  tree.putFile(matter, 'Engagement letter.docx', text('engagement'));
  tree.putFile(pleadings, 'Complaint.pdf', text('complaint'));
  tree.putFile(pleadings, 'Answer.pdf', text('answer'));
  const other = tree.addFolder(tree.root, 'Northwind lease');
  tree.putFile(other, 'Lease.pdf', text('lease'));
  const id = (node: FolderNode) => imanageIds.providerId(tree, node);
  return { tree, matter, pleadings, other, id };
}

describe('the iManage client against the fake', () => {
  let tree: ReturnType<typeof seed>['tree'];
  let matter: FolderNode;
  let pleadings: FolderNode;
  let other: FolderNode;
  let id: (node: FolderNode) => string;
  beforeAll(() => {
    ({ tree, matter, pleadings, other, id } = seed());
    clock.advance(5 * 60_000); // the seeded documents are older than any pass
  });

  it('browses the libraries’ workspaces, then a folder’s subfolders and documents a page at a time', async () => {
    const workspaces: string[] = [];
    let top: string | undefined;
    do {
      const page = await api.browse('tok', undefined, { token: top, limit: 1 });
      workspaces.push(...page.entries.map((e) => `${e.kind}:${e.name}`));
      top = page.next;
    } while (top);
    expect(workspaces.sort()).toEqual(['container:Acme v. Globex', 'container:Northwind lease']);
    const names: string[] = [];
    let next: string | undefined;
    do {
      const page = await api.browse('tok', id(matter), { token: next, limit: 1 });
      names.push(...page.entries.map((e) => `${e.kind}:${e.name}`));
      next = page.next;
    } while (next);
    expect(names).toEqual(['container:Pleadings', 'file:Engagement letter.docx']);
    await api.checkContainer('tok', id(pleadings));
    await expect(api.checkContainer('tok', 'ACTIVE')).rejects.toMatchObject({ status: 404 });
    await expect(api.checkContainer('tok', '../x')).rejects.toMatchObject({ status: 404 });
  });

  it('reads the customer id from discovery once per token, and sends the token in X-Auth-Token only', async () => {
    const before = seen.length;
    await api.browse('tok', id(matter), { limit: 5 });
    await api.browse('tok', id(pleadings), { limit: 5 });
    const mine = seen.slice(before);
    expect(mine.filter((r) => r.path.endsWith('/api'))).toHaveLength(0); // discovered above already
    expect(
      mine.every(
        (r) =>
          r.token === 'tok' &&
          r.authorization === undefined &&
          r.path.startsWith(`/imanage/${SERVER}/work/api/v2/customers/`),
      ),
    ).toBe(true);
  });

  it("keeps discovery for the server and token across clients (a run's steps), not across tokens", async () => {
    fake.grant('tok-2', ACCOUNT, ['user']);
    const client = () =>
      new ImanageApi({
        apiUrl: `${fake.base}/imanage/${SERVER}`,
        throttleReasons: definition.throttleReasons,
        accessTokenHeader: definition.accessTokenHeader,
      });
    const before = seen.length;
    await client().browse('tok', id(matter), { limit: 5 });
    await client().browse('tok', id(matter), { limit: 5 });
    expect(seen.slice(before).filter((r) => r.path.endsWith('/api'))).toHaveLength(0);
    await client().browse('tok-2', id(matter), { limit: 5 });
    await client().browse('tok-2', id(matter), { limit: 5 });
    const discovered = seen.slice(before).filter((r) => r.path.endsWith('/api'));
    expect(discovered.map((r) => r.token)).toEqual(['tok-2']);
  });

  it('walks a first pass, then searches by edit date: new versions, renames and moves in are changes', async () => {
    const first = await changesPass(api, 'tok', id(matter), undefined);
    expect(first.files.map((f) => f.name).sort()).toEqual([
      'Answer.pdf',
      'Complaint.pdf',
      'Engagement letter.docx',
    ]);
    expect(first.files.every((f) => f.version === '1' && /^ACTIVE!\d+$/.test(f.id))).toBe(true);
    const complaint = first.files.find((f) => f.name === 'Complaint.pdf')!;

    clock.advance(5 * 60_000);
    expect(await changesPass(api, 'tok', id(matter), first.cursor)).toMatchObject({ files: [] });

    clock.advance(5 * 60_000);
    tree.putFile(pleadings, 'Complaint.pdf', text('complaint, amended')); // a new version
    tree.putFile(pleadings, 'Reply.pdf', text('reply'));
    tree.moveFile(tree.file(tree.folder(other.id)!.byName.get('Lease.pdf')!.id)!, matter);
    const second = await changesPass(api, 'tok', id(matter), first.cursor);
    expect(second.files.map((f) => [f.name, f.version]).sort()).toEqual([
      ['Complaint.pdf', '2'],
      ['Lease.pdf', '1'],
      ['Reply.pdf', '1'],
    ]);
    expect(second.files.find((f) => f.name === 'Complaint.pdf')!.id).toBe(complaint.id);

    const download = await api.download('tok', complaint.id);
    expect(download.version).toBe('2');
    expect((await drain(download.body)).toString()).toBe('complaint, amended');
  });

  it('lists the search again from its start when documents come or go between its pages', async () => {
    const { tree: t, matter: m, id: idOf } = seed('acct-imanage-restart');
    fake.grant('tok-r', 'acct-imanage-restart', ['user']);
    const walked = await changesPass(api, 'tok-r', idOf(m), undefined);
    clock.advance(5 * 60_000);
    for (const name of ['a.txt', 'b.txt', 'c.txt', 'd.txt']) t.putFile(m, name, text(name));
    const page = await api.changes('tok-r', idOf(m), { cursor: walked.cursor }, 2);
    expect(page.files).toHaveLength(2);
    // One of the first page's documents deleted: the offsets move, and a pass going on from offset 2
    // would skip one of the others.
    t.deleteFile(t.file(imanageIds.treeId(t, page.files[0]!.id)!)!);
    const files = [...page.files];
    let at = page;
    while ('page' in at.next) {
      at = await api.changes('tok-r', idOf(m), { page: at.next.page }, 2);
      files.push(...at.files);
    }
    const left = t.liveFiles().filter((f) => isWithin(f, m));
    expect(left.length).toBeGreaterThan(2);
    expect(left.every((f) => files.some((seen) => seen.name === f.name))).toBe(true);
  });

  it('exports a new document, refuses a name a document holds, and finds a retried upload by its key', async () => {
    const folder = id(pleadings);
    const made = await api.upload('tok', folder, uploadOf('Brief.pdf', Buffer.from('brief'), 'key-1'));
    expect(made).toMatchObject({ name: 'Brief.pdf', version: '1' });
    expect(await api.findFile('tok', folder, 'Brief.pdf')).toEqual(made);
    // The same upload again (its first answer lost): the document it made.
    expect(await api.upload('tok', folder, uploadOf('Brief.pdf', Buffer.from('brief'), 'key-1'))).toEqual(
      made,
    );
    const taken = await failure(
      api.upload('tok', folder, uploadOf('Brief.pdf', Buffer.from('other'), 'key-2')),
      UploadRefusedError,
    );
    expect(taken.reason).toBe('name_taken');
    const invalid = await failure(
      api.upload('tok', folder, uploadOf('a/b.pdf', Buffer.from('x'), 'k')),
      UploadRefusedError,
    );
    expect(invalid.reason).toBe('invalid_name');
  });

  it('exports a new version of its own document, and refuses one changed in iManage since', async () => {
    const folder = id(pleadings);
    const mine = await api.upload('tok', folder, uploadOf('Memo.pdf', Buffer.from('memo 1'), 'key-m'));
    const next = await api.upload('tok', folder, {
      ...uploadOf('Memo.pdf', Buffer.from('memo 2'), 'key-m2'),
      replace: mine,
    });
    expect(next).toMatchObject({ id: mine.id, version: '2' });
    expect((await drain((await api.download('tok', mine.id)).body)).toString()).toBe('memo 2');
    tree.putFile(pleadings, 'Memo.pdf', text('edited by a lawyer'));
    const changed = await failure(
      api.upload('tok', folder, { ...uploadOf('Memo.pdf', Buffer.from('memo 3'), 'key-m3'), replace: next }),
      UploadRefusedError,
    );
    expect(changed.reason).toBe('changed');
  });

  it('a large export streams whole', async () => {
    const bytes = Buffer.alloc(6 * 1024 * 1024, 7);
    const made = await api.upload('tok', id(matter), uploadOf('Exhibits.pdf', bytes, 'key-large'));
    const back = await drain((await api.download('tok', made.id)).body);
    expect(back.equals(bytes)).toBe(true);
  });

  it('is throttled with iManage’s Retry-After, and an unknown document is a 404 before any request', async () => {
    fake.fail({ status: 429, retryAfter: 7 });
    const throttled = await failure(api.browse('tok', id(matter), { limit: 5 }), ProviderApiError);
    expect(throttled).toMatchObject({
      status: 429,
      retryAfterSeconds: 7,
      providerError: 'TOO_MANY_REQUESTS',
    });
    const before = seen.length;
    await expect(api.download('tok', 'ACTIVE!1/../../x')).rejects.toMatchObject({ status: 404 });
    expect(seen.length).toBe(before);
  });

  it('a cursor it cannot read restarts the feed; a page token it did not write is a 400', async () => {
    await expect(api.changes('tok', id(matter), { cursor: 'garbage' }, 5)).rejects.toBeInstanceOf(
      FeedRestartError,
    );
    await expect(api.changes('tok', id(matter), { page: 'garbage' }, 5)).rejects.toMatchObject({
      status: 400,
      providerError: 'invalid_page_token',
    });
  });
});

describe('the fake’s servers', () => {
  it('are DNS host names in any case: no IP literal, no port, no single label', () => {
    const accepts = imanageFake.tenant!.accepts;
    for (const host of ['cloudimanage.com', 'work.firm.example', 'Work.Firm.Example', 'dms-01.eu.firm.co.uk'])
      expect(accepts(host)).toBe(true);
    for (const host of [
      '127.0.0.1',
      '[::1]',
      'work.firm.example:8443',
      'localhost',
      '',
      'a..b',
      '-a.example',
      '10.0.0.1.',
    ])
      expect(accepts(host)).toBe(false);
  });

  it('honour a token on the server that issued it only (the harness grants under any; the mount checks)', () => {
    expect(imanageFake.endpoints('https://sandbox.example').apiUrl).toBe(
      'https://sandbox.example/imanage/{server}',
    );
  });
});

describe('iManage page tokens', () => {
  const folder = fc
    .tuple(fc.stringMatching(/^[A-Za-z0-9_]{1,32}$/), fc.integer({ min: 0, max: 999_999_999_999 }))
    .map(([library, n]) => `${library}!${n}`);
  const instant = fc
    .date({
      min: new Date('2000-01-01T00:00:00Z'),
      max: new Date('2100-01-01T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString());
  const offset = fc.integer({ min: 0, max: 1_000_000 });
  const pass = fc.oneof(
    fc.record({
      k: fc.constant('walk' as const),
      q: fc.array(folder, { minLength: 1, maxLength: 10 }),
      p: fc.constantFrom('f' as const, 'd' as const),
      o: offset,
      b: instant,
    }),
    fc.record({
      k: fc.constant('search' as const),
      s: instant,
      o: offset,
      t: offset,
      r: fc.integer({ min: 0, max: 3 }),
      b: instant,
    }),
  );

  it('read back exactly what they wrote', () => {
    fc.assert(fc.property(pass, (p) => expect(passToken.decode(passToken.encode(p), 'op')).toEqual(p)));
    fc.assert(
      fc.property(instant, (s) => expect(cursorToken.decode(cursorToken.encode({ s }), 'op')).toEqual({ s })),
    );
    fc.assert(
      fc.property(folder, fc.constantFrom('w' as const, 'f' as const, 'd' as const), offset, (c, p, o) =>
        expect(browseToken.decode(browseToken.encode({ c, p, o }), 'op')).toEqual({ c, p, o }),
      ),
    );
  });

  it('read nothing else: any other text is a 400, never a crash, and names only iManage ids', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json().map((j) => Buffer.from(j).toString('base64url')),
        ),
        (raw) => {
          try {
            const read = passToken.decode(raw, 'op');
            const ids = read.k === 'walk' ? read.q : [];
            expect(ids.every((i) => /^[A-Za-z0-9_]{1,32}!\d{1,15}$/.test(i))).toBe(true);
          } catch (error) {
            expect(error).toMatchObject({ status: 400, providerError: 'invalid_page_token' });
          }
        },
      ),
    );
  });
});
