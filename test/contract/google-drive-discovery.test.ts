// The Google Drive fake (sandbox/providers/google_drive/) checked against Google's discovery document
// for Drive API v3, whose facts test/fixtures/google-drive-v3-shapes.ts keeps: the PRODUCTION client
// (functions/connectors/infra/content/google-drive.ts) browses, imports and exports through a recording
// proxy in front of the fake, and every JSON body it is answered is checked: no property the document
// does not have, each value of its documented type and format (int64 as decimal strings, RFC 3339
// date-times, the resources' constant `kind`), and nothing outside the request's `fields` selection.
// Shared drives (drives.list and files.list's corpora/driveId/includeItemsFromAllDrives/
// supportsAllDrives) are browsed and imported the same way. Needs no emulator.
import { GoogleDriveApi } from '../../functions/connectors/providers/google_drive/client';
import { ManualClock } from '../../functions/platform/clock';
import { textContent } from '../../sandbox/content/tree';
import type { AccountTree, FolderNode } from '../../sandbox/content/tree';
import { googleDriveFake } from '../../sandbox/providers/google_drive';
import { DRIVE_V3_METHODS, DRIVE_V3_SCHEMAS, DRIVE_V3_SOURCE } from '../fixtures/google-drive-v3-shapes';
import { changesPass, drain, uploadOf } from '../support/content-walk';
import type { FakeHarness } from '../support/fake-harness';
import { startFakeHarness } from '../support/fake-harness';
import type { Exchange, RecordingProxy } from '../support/recording-proxy';
import { startRecordingProxy } from '../support/recording-proxy';
import type { ShapeBook } from '../support/shape-check';
import { checkExchanges, checkValue, selection } from '../support/shape-check';

const ACCOUNT = 'acct-gdrive-discovery';
const TOKEN = 'tok-drive';
const DRIVE_SCOPE = 'https://www.googleapis.com/auth/drive';
const THROTTLE = ['userRateLimitExceeded', 'rateLimitExceeded'];
const MiB = 1024 * 1024;

// ---------------------------------------------------------------------------------------------------
// The checker (test/support/shape-check.ts) with the fixture's facts, and the request's `fields`.

const BOOK: ShapeBook = {
  source: `discovery revision ${DRIVE_V3_SOURCE.revision}`,
  schemas: DRIVE_V3_SCHEMAS,
};

/** The method an exchange is, and what is wrong with its body (empty: nothing). */
function check(exchange: Exchange): { id: string; problems: string[] } {
  const method = DRIVE_V3_METHODS.find((m) => m.method === exchange.method && m.path.test(exchange.path));
  const where = `${exchange.method} ${exchange.path}`;
  if (!method) return { id: '?', problems: [`${where}: no method of the document is this`] };
  const problems: string[] = [];
  if (method.response && exchange.json !== undefined) {
    const fields = exchange.query.get('fields');
    checkValue(
      BOOK,
      exchange.json,
      `@${method.response}`,
      where,
      fields === null ? true : selection(fields),
      problems,
    );
  }
  return { id: method.id, problems };
}

// ---------------------------------------------------------------------------------------------------
// The fake behind a recording proxy (test/support/recording-proxy.ts; upload session URIs rewritten).

const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
let fake: FakeHarness;
let proxy: RecordingProxy;
let proxyBase: string;
let exchanges: Exchange[];

beforeAll(async () => {
  fake = await startFakeHarness(googleDriveFake, clock);
  fake.grant(TOKEN, ACCOUNT, [DRIVE_SCOPE]);
  proxy = await startRecordingProxy(fake.base, '/google');
  proxyBase = proxy.base;
  exchanges = proxy.exchanges;
});

afterAll(async () => {
  await proxy.close();
  await fake.close();
});

const client = () => new GoogleDriveApi({ apiUrl: `${proxyBase}/google`, throttleReasons: THROTTLE });

/** A request as the client makes it (bearer token, through the proxy); its exchange. */
async function call(method: string, path: string, query: Record<string, string>, body?: unknown) {
  const before = exchanges.length;
  await fetch(`${proxyBase}/google${path}?${new URLSearchParams(query)}`, {
    method,
    headers: {
      Authorization: `Bearer ${TOKEN}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then((r) => r.arrayBuffer());
  return exchanges[before]!;
}

const text = (value: string, contentType = 'text/plain') => ({ contentType, content: textContent(value) });

/** Every exchange since `from` checked; the methods seen. */
// Error bodies are Google's error format, not a schema of the document.
const checkSince = (from: number) =>
  checkExchanges(
    exchanges.slice(from).filter((e) => e.status < 400),
    check,
  );

describe(`Google Drive fake against the discovery document (${DRIVE_V3_SOURCE.id} revision ${DRIVE_V3_SOURCE.revision})`, () => {
  let tree: AccountTree;
  let clients: FolderNode;
  let acme: FolderNode;

  beforeAll(() => {
    tree = fake.tree(ACCOUNT);
    clients = tree.addFolder(tree.root, 'Clients');
    acme = tree.addFolder(clients, 'Acme');
    tree.putFile(clients, 'engagement.pdf', text('engagement', 'application/pdf'));
    tree.putFile(acme, 'letter.txt', text('dear acme'));
    tree.putFile(acme, 'Minutes', text('native', 'application/vnd.google-apps.document'));
  });

  it('the checker refuses a property the document does not have, a wrong type or format, and an unselected field', () => {
    const body = (file: Record<string, unknown>) => ({
      method: 'GET',
      path: '/drive/v3/files/x',
      query: new URLSearchParams({ fields: 'id,size,modifiedTime' }),
      status: 200,
      json: file,
    });
    expect(check(body({ id: 'x', size: '12', modifiedTime: '2030-01-01T00:00:00.000Z' })).problems).toEqual(
      [],
    );
    expect(check(body({ id: 'x', ownerId: 'me' })).problems).toEqual([
      expect.stringContaining('.ownerId: File has no such property'),
    ]);
    expect(check(body({ id: 'x', size: 12 })).problems).toEqual([
      expect.stringContaining('is not string/int64'),
    ]);
    expect(check(body({ id: 'x', modifiedTime: 'Jan 1 2030' })).problems).toEqual([
      expect.stringContaining('is not string/date-time'),
    ]);
    expect(check(body({ id: 'x', name: 'a' })).problems).toEqual([
      expect.stringContaining(".name: not in the request's fields"),
    ]);
    expect(
      check({ ...body({ id: 'x', capabilities: {} }), query: new URLSearchParams({ fields: '*' }) }).problems,
    ).toEqual([expect.stringContaining('is not object')]);
  });

  it('every answer the production client gets while browsing, importing and exporting is a document shape', async () => {
    const from = exchanges.length;
    const api = client();
    const top = await api.browse(TOKEN, undefined, { limit: 10 });
    expect(top.entries[0]).toMatchObject({ id: 'root', kind: 'container' });
    const mine = await api.browse(TOKEN, 'root', { limit: 10 });
    expect(mine.entries.map((e) => e.name)).toEqual(['Clients']);
    let next: string | undefined;
    const seen: string[] = [];
    do {
      const page = await api.browse(TOKEN, clients.id, { token: next, limit: 1 });
      seen.push(...page.entries.map((e) => e.name));
      next = page.next;
    } while (next);
    expect(seen.sort()).toEqual(['Acme', 'engagement.pdf']);
    await api.checkContainer(TOKEN, clients.id);

    const first = await changesPass(api, TOKEN, clients.id, undefined);
    expect(first.files.map((f) => f.name).sort()).toEqual(['Minutes', 'engagement.pdf', 'letter.txt']);
    // Created, modified, moved out, deleted: the feed from the kept cursor.
    tree.putFile(acme, 'new.txt', text('new'));
    tree.putFile(acme, 'letter.txt', text('dear acme, again'));
    tree.moveFile(
      tree.liveFiles(clients).find((f) => f.name === 'engagement.pdf')!,
      tree.root,
    );
    tree.deleteFile(tree.liveFiles(acme).find((f) => f.name === 'Minutes')!);
    const second = await changesPass(api, TOKEN, clients.id, first.cursor);
    expect(second.files.map((f) => [f.name, f.deleted]).sort()).toEqual([
      ['', true],
      ['engagement.pdf', true],
      ['letter.txt', false],
      ['new.txt', false],
    ]);

    const letter = tree.liveFiles(acme).find((f) => f.name === 'letter.txt')!;
    expect((await drain((await api.download(TOKEN, letter.id)).body)).toString()).toBe('dear acme, again');
    const doc = tree.putFile(acme, 'Agenda', text('agenda', 'application/vnd.google-apps.spreadsheet')).file;
    expect((await drain((await api.download(TOKEN, doc.id)).body)).toString()).toBe('agenda');

    // Exports: multipart (small), our own file updated (PATCH), a resumable session (9 MiB: 8 + 1).
    const small = await api.upload(TOKEN, acme.id, uploadOf('report.pdf', Buffer.from('v1'), 'k1'));
    const found = await api.findFile(TOKEN, acme.id, 'report.pdf');
    expect(found).toEqual(small);
    const again = await api.upload(TOKEN, acme.id, {
      ...uploadOf('report.pdf', Buffer.from('v2'), 'k2'),
      replace: found!,
    });
    expect(again.id).toBe(small.id);
    const big = await api.upload(TOKEN, acme.id, uploadOf('big.pdf', Buffer.alloc(9 * MiB, 7), 'k3'));
    expect(tree.file(big.id)?.content.size).toBe(9 * MiB);

    const methods = checkSince(from);
    for (const id of [
      'drives.list',
      'files.list',
      'files.get',
      'changes.getStartPageToken',
      'changes.list',
      'files.export',
      'files.create',
      'files.update',
    ])
      expect(methods).toContain(id);
  });

  it("with fields=* and with Drive's defaults the fake's whole resources are document shapes", async () => {
    const from = exchanges.length;
    const letter = tree.liveFiles(acme).find((f) => f.name === 'letter.txt')!;
    for (const fields of [{ fields: '*' }, {}] as Record<string, string>[]) {
      await call('GET', `/drive/v3/files/${letter.id}`, fields);
      await call('GET', '/drive/v3/files/root', fields);
      await call('GET', '/drive/v3/files', { q: `'${acme.id}' in parents`, ...fields });
      await call('GET', '/drive/v3/changes', { pageToken: '1', ...fields });
      await call('GET', '/drive/v3/changes/startPageToken', fields);
      await call('GET', '/drive/v3/drives', fields);
    }
    await call('GET', '/drive/v3/about', { fields: '*' });
    await call('GET', '/drive/v3/about', { fields: 'user(displayName,emailAddress,permissionId)' });
    expect(exchanges.slice(from).map((e) => e.status)).toEqual(Array(14).fill(200));
    checkSince(from);
  });

  describe('shared drives', () => {
    const drives: { id: string; name: string }[] = [];

    beforeAll(async () => {
      for (let i = 1; i <= 12; i++) {
        const created = await call(
          'POST',
          '/drive/v3/drives',
          { requestId: `req-${i}`, fields: 'id,name,kind,createdTime' },
          { name: `Team ${String(i).padStart(2, '0')}` },
        );
        expect(created.status).toBe(200);
        drives.push(created.json as { id: string; name: string });
      }
    });

    it('drives.create: a requestId made once (409 after), the answer a Drive', async () => {
      const again = await call('POST', '/drive/v3/drives', { requestId: 'req-1' }, { name: 'Again' });
      expect(again.status).toBe(409);
      checkSince(exchanges.length - 13);
    });

    it('drives.list pages by pageSize (default 10, at most 100) and pageToken; the client lists them after My Drive', async () => {
      const from = exchanges.length;
      const first = await call('GET', '/drive/v3/drives', {});
      expect((first.json as { drives: unknown[] }).drives).toHaveLength(10);
      const token = (first.json as { nextPageToken: string }).nextPageToken;
      const second = await call('GET', '/drive/v3/drives', { pageToken: token });
      expect(second.json).toEqual({ kind: 'drive#driveList', drives: expect.any(Array) });
      expect((second.json as { drives: unknown[] }).drives).toHaveLength(2);
      expect((await call('GET', '/drive/v3/drives', { pageSize: '101' })).status).toBe(400);

      const api = client();
      const names: string[] = [];
      let next: string | undefined;
      let pages = 0;
      do {
        const page = await api.browse(TOKEN, undefined, { token: next, limit: 5 });
        names.push(...page.entries.map((e) => e.name));
        next = page.next;
        pages++;
      } while (next);
      expect(pages).toBe(3);
      expect(names[0]).toBe('My Drive');
      expect(names.slice(1).sort()).toEqual(drives.map((d) => d.name).sort());
      checkSince(from);
    });

    it('browses and imports a shared drive through the client; files.list honours corpora, driveId and the all-drives switches', async () => {
      const from = exchanges.length;
      const team = drives[0]!;
      const top = tree.folder(team.id)!;
      const matters = tree.addFolder(top, 'Matters');
      tree.putFile(top, 'policy.pdf', text('policy', 'application/pdf'));
      tree.putFile(matters, 'brief.txt', text('brief'));
      const api = client();

      // My Drive's root does not show the drives' top folders.
      const mine = await api.browse(TOKEN, 'root', { limit: 100 });
      expect(mine.entries.map((e) => e.id)).not.toContain(team.id);
      const inside = await api.browse(TOKEN, team.id, { limit: 100 });
      expect(inside.entries.map((e) => e.name).sort()).toEqual(['Matters', 'policy.pdf']);
      await api.checkContainer(TOKEN, team.id);

      const first = await changesPass(api, TOKEN, team.id, undefined);
      expect(first.files.map((f) => f.name).sort()).toEqual(['brief.txt', 'policy.pdf']);
      tree.putFile(matters, 'brief.txt', text('brief, amended'));
      tree.putFile(acme, 'elsewhere.txt', text('not in the drive'));
      const second = await changesPass(api, TOKEN, team.id, first.cursor);
      expect(second.files.map((f) => [f.name, f.deleted])).toEqual([
        ['brief.txt', false],
        ['elsewhere.txt', true], // outside the link's container: not imported
      ]);
      const exported = await api.upload(TOKEN, matters.id, uploadOf('out.pdf', Buffer.from('out'), 'k-team'));
      expect(tree.file(exported.id)?.parent).toBe(matters);

      // Direct: one drive's corpus, every item carrying its driveId.
      const all = { includeItemsFromAllDrives: 'true', supportsAllDrives: 'true' };
      const listed = await call('GET', '/drive/v3/files', {
        corpora: 'drive',
        driveId: team.id,
        ...all,
        fields: 'nextPageToken,files(id,name,driveId,parents)',
      });
      const files = (listed.json as { files: { name: string; driveId: string }[] }).files;
      expect(files.map((f) => f.name).sort()).toEqual(['brief.txt', 'out.pdf', 'policy.pdf']);
      expect(new Set(files.map((f) => f.driveId))).toEqual(new Set([team.id]));
      // Without the all-drives switches a shared drive's items are not seen.
      const hidden = await call('GET', '/drive/v3/files', { q: `'${team.id}' in parents` });
      expect(hidden.json).toMatchObject({ files: [] });
      const policy = tree.liveFiles(top).find((f) => f.name === 'policy.pdf')!;
      expect((await call('GET', `/drive/v3/files/${policy.id}`, {})).status).toBe(404);
      expect((await call('GET', `/drive/v3/files/${policy.id}`, { supportsAllDrives: 'true' })).status).toBe(
        200,
      );
      // The documented pairings: driveId with corpora=drive; corpora=drive|allDrives with the switches.
      expect((await call('GET', '/drive/v3/files', { driveId: team.id, ...all })).status).toBe(400);
      expect((await call('GET', '/drive/v3/files', { corpora: 'drive', ...all })).status).toBe(400);
      expect((await call('GET', '/drive/v3/files', { corpora: 'drive', driveId: team.id })).status).toBe(400);
      expect((await call('GET', '/drive/v3/files', { corpora: 'allDrives' })).status).toBe(400);
      // changes.list with driveId: that drive's changes only.
      const changes = await call('GET', '/drive/v3/changes', {
        pageToken: '1',
        driveId: team.id,
        ...all,
        fields: 'newStartPageToken,changes(fileId,file(name,driveId))',
      });
      const names = (changes.json as { changes: { file: { name: string } }[] }).changes.map(
        (c) => c.file.name,
      );
      expect(names.sort()).toEqual(['brief.txt', 'out.pdf', 'policy.pdf']);
      checkSince(from);
    });
  });
});
