// The production OneDrive client (functions/connectors/infra/content/onedrive.ts) against the sandbox's
// Graph fake over real HTTP, for what the contract suite does not pin down: the fake's own wire rules
// (simple-upload size, fragment multiples, contiguous ranges, no bearer token on pre-authenticated
// URLs), delta pages carrying parents, a kept position of another drive, and the export policy when the
// user has edited a file we exported.
import { FeedRestartError } from '../../functions/connectors/infra/content/api';
import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { OneDriveApi, parseItemId } from '../../functions/connectors/providers/onedrive/client';
import { ProviderApiError } from '../../functions/connectors/infra/content/http';
import { ManualClock } from '../../functions/platform/clock';
import { textContent } from '../../sandbox/content/tree';
import { onedriveFake } from '../../sandbox/providers/onedrive';
import { driveIdOf, onedriveIds } from '../../sandbox/providers/onedrive/graph';
import type { FakeHarness } from '../support/fake-harness';
import { startFakeHarness } from '../support/fake-harness';

const ACCOUNT = 'acct-od-1';
const CLIENT = 'client-od';
const KiB = 1024;
const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
let fake: FakeHarness;
let graph: string;
const seen: { url: string; authorization: boolean }[] = [];

beforeAll(async () => {
  fake = await startFakeHarness(onedriveFake, clock, (request: IncomingMessage) =>
    seen.push({ url: request.url ?? '', authorization: !!request.headers.authorization }),
  );
  graph = `${fake.base}/microsoft`;
  fake.grant('tok', ACCOUNT, ['Files.ReadWrite.All'], CLIENT);
});
afterAll(() => fake.close());

const client = () =>
  new OneDriveApi({
    apiUrl: graph,
    throttleReasons: ['activityLimitReached'],
    ownClientId: () => CLIENT,
  });
const idOf = (node: Parameters<typeof onedriveIds.providerId>[1]) =>
  onedriveIds.providerId(fake.tree(ACCOUNT), node);
const text = (value: string) => ({ contentType: 'text/plain', content: textContent(value) });

async function status(path: string, init: RequestInit = {}): Promise<{ status: number; code?: string }> {
  const response = await fetch(`${graph}${path}`, init);
  const body = (await response.json().catch(() => ({}))) as { error?: { code?: string } };
  return { status: response.status, code: body.error?.code };
}

describe('OneDrive client and the Graph fake', () => {
  it('names items <driveId>:<itemId> and refuses anything else before a request', async () => {
    expect(parseItemId('b!abc:01XYZ')).toEqual({ drive: 'b!abc', item: '01XYZ' });
    for (const bad of ['', 'noseparator', ':x', 'b!abc:', 'b!abc:../x', 'b!abc:a/b'])
      expect(() => parseItemId(bad)).toThrow(ProviderApiError);
  });

  it('holds the simple upload to 4 MB and session fragments to 320 KiB multiples, contiguous, without a token', async () => {
    const tree = fake.tree(ACCOUNT);
    const folder = tree.addFolder(tree.root, 'Wire');
    const [drive, parent] = [driveIdOf(tree), folder.id];
    const auth = { Authorization: 'Bearer tok' };
    const big = Buffer.alloc(4 * 1024 * KiB + 1);
    expect(
      await status(`/v1.0/drives/${drive}/items/${parent}:/big.bin:/content`, {
        method: 'PUT',
        headers: auth,
        body: big,
      }),
    ).toEqual({ status: 413, code: 'requestTooLarge' });

    tree.putFile(folder, 'taken.txt', text('the user wrote this'));
    expect(
      await status(`/v1.0/drives/${drive}/items/${parent}:/taken.txt:/createUploadSession`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ item: { '@microsoft.graph.conflictBehavior': 'fail' } }),
      }),
    ).toEqual({ status: 409, code: 'nameAlreadyExists' });

    const session = (await (
      await fetch(`${graph}/v1.0/drives/${drive}/items/${parent}:/s.bin:/createUploadSession`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: '{}',
      })
    ).json()) as { uploadUrl: string; nextExpectedRanges: string[] };
    expect(session.nextExpectedRanges).toEqual(['0-']);
    const put = (range: string, body: Buffer, headers: Record<string, string> = {}) =>
      fetch(session.uploadUrl, { method: 'PUT', headers: { 'Content-Range': range, ...headers }, body });
    const total = 700 * KiB;
    expect((await put(`bytes 0-${300 * KiB - 1}/${total}`, Buffer.alloc(300 * KiB))).status).toBe(400);
    expect((await put(`bytes 0-${320 * KiB - 1}/${total}`, Buffer.alloc(320 * KiB), auth)).status).toBe(401);
    const first = await put(`bytes 0-${320 * KiB - 1}/${total}`, Buffer.alloc(320 * KiB));
    expect(first.status).toBe(202);
    expect(((await first.json()) as { nextExpectedRanges: string[] }).nextExpectedRanges).toEqual([
      `${320 * KiB}-${total - 1}`,
    ]);
    expect((await put(`bytes 0-${320 * KiB - 1}/${total}`, Buffer.alloc(320 * KiB))).status).toBe(416);
    const last = await put(`bytes ${320 * KiB}-${total - 1}/${total}`, Buffer.alloc(total - 320 * KiB));
    expect(last.status).toBe(201);
    expect(folder.byName.get('s.bin')).toMatchObject({ content: { size: total } });
  });

  it('pages the delta with parents before their files, and reads only this drive’s positions', async () => {
    const tree = fake.tree(ACCOUNT);
    const top = tree.addFolder(tree.root, 'Delta');
    const inner = tree.addFolder(top, 'Inner');
    tree.putFile(inner, 'deep.txt', text('deep'));
    tree.putFile(top, 'shallow.txt', text('shallow'));
    const raw = (await (
      await fetch(`${graph}/v1.0/drives/${driveIdOf(tree)}/root/delta?$top=1000`, {
        headers: { Authorization: 'Bearer tok' },
      })
    ).json()) as { value: { id: string; folder?: object }[] };
    const order = raw.value.map((i) => i.id);
    expect(order.indexOf(inner.id)).toBeLessThan(
      order.indexOf(tree.file([...inner.byName.values()][0]!.id)!.id),
    );
    expect(order.indexOf(top.id)).toBeLessThan(order.indexOf(inner.id));

    const files: string[] = [];
    let position: { page: string } | { cursor?: string } = {};
    for (;;) {
      const page = await client().changes('tok', idOf(top), position, 1);
      files.push(...page.files.filter((f) => !f.deleted).map((f) => f.name));
      if ('cursor' in page.next) {
        // Another drive's cursor is not followed: the run is told to start over (a full run).
        const other = page.next.cursor.replace(driveIdOf(tree), 'b!other');
        await expect(client().changes('tok', idOf(top), { cursor: other }, 1000)).rejects.toBeInstanceOf(
          FeedRestartError,
        );
        // Graph's 410 resyncRequired (a token from before the feed's reset) is the same.
        tree.resetFeeds();
        await expect(client().changes('tok', idOf(top), page.next, 1000)).rejects.toMatchObject({
          name: 'FeedRestartError',
          detail: 'resyncRequired',
        });
        break;
      }
      position = page.next;
    }
    expect(files.sort()).toEqual(['deep.txt', 'shallow.txt']);
  });

  it('takes a retried create as its first attempt only for a file our app made and nobody changed', async () => {
    const tree = fake.tree(ACCOUNT);
    const folder = tree.addFolder(tree.root, 'Exports');
    const send = (body: string, key: string) =>
      client().upload('tok', idOf(folder), {
        name: 'Memo.txt',
        contentType: 'text/plain',
        size: body.length,
        body: Readable.from([Buffer.from(body)]),
        idempotencyKey: key,
      });
    const first = await send('v1', 'k1');
    // The step retried after its upload got through (the ledger never heard): the same file.
    expect(await send('v1', 'k1')).toEqual(first);
    // Once the user edits it, it is theirs: a create at that name is refused, never a replace.
    tree.putFile(folder, 'Memo.txt', text('u2'));
    await expect(send('v1', 'k1')).rejects.toMatchObject({ reason: 'name_taken' });
    // Without our client id nothing counts as ours.
    const anonymous = new OneDriveApi({ apiUrl: graph });
    const other = tree.addFolder(tree.root, 'Exports 2');
    const upload = () =>
      anonymous.upload('tok', idOf(other), {
        name: 'a.txt',
        contentType: 'text/plain',
        size: 1,
        body: Readable.from([Buffer.from('a')]),
        idempotencyKey: 'k',
      });
    await upload();
    await expect(upload()).rejects.toMatchObject({ reason: 'name_taken' });
    const memo = folder.byName.get('Memo.txt');
    expect(
      memo?.type === 'file' && memo.content.kind === 'bytes' && Buffer.concat(memo.content.chunks).toString(),
    ).toBe('u2');
  });

  it('replaces under If-Match through an upload session too: a stale version is refused', async () => {
    const tree = fake.tree(ACCOUNT);
    const folder = tree.addFolder(tree.root, 'Big exports');
    const size = 5 * 1024 * KiB;
    const upload = (fill: number, replace?: { id: string; name: string; version: string }) =>
      client().upload('tok', idOf(folder), {
        name: 'big.bin',
        contentType: 'application/octet-stream',
        size,
        body: Readable.from([Buffer.alloc(size, fill)]),
        idempotencyKey: `big-${fill}`,
        ...(replace ? { replace } : {}),
      });
    const first = await upload(1);
    const second = await upload(2, first);
    expect(second.id).toBe(first.id);
    expect(second.version).not.toBe(first.version);
    await expect(upload(3, first)).rejects.toMatchObject({ reason: 'changed' });
  });

  it('follows the download redirect without our token', async () => {
    const tree = fake.tree(ACCOUNT);
    const { file } = tree.putFile(tree.root, 'redirected.txt', text('after a 302'));
    seen.length = 0;
    const download = await client().download('tok', idOf(file));
    const chunks: Buffer[] = [];
    for await (const chunk of download.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('after a 302');
    const hop = seen.find((r) => r.url.startsWith('/microsoft/download/'));
    expect(hop).toEqual({ url: expect.any(String), authorization: false });
    expect(seen.filter((r) => r.url.includes('/content')).every((r) => r.authorization)).toBe(true);
  });
});
