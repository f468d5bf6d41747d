// A file an import run's changes listed is downloaded with one provider call: the
// Google Drive client takes the listed type (media or export) and the OneDrive client the listed eTag
// and type instead of reading the file's metadata first; without the listing both read it as before.
import type { IncomingMessage } from 'node:http';
import type { ChangedFile, ContentApi } from '../../functions/connectors/infra/content/api';
import { GoogleDriveApi } from '../../functions/connectors/providers/google_drive/client';
import { OneDriveApi } from '../../functions/connectors/providers/onedrive/client';
import { ManualClock } from '../../functions/platform/clock';
import { textContent } from '../../sandbox/content/tree';
import type { AccountTree } from '../../sandbox/content/tree';
import { googleDriveFake } from '../../sandbox/providers/google_drive';
import { onedriveFake } from '../../sandbox/providers/onedrive';
import { onedriveIds } from '../../sandbox/providers/onedrive/graph';
import { changesPass } from '../support/content-walk';
import type { FakeHarness } from '../support/fake-harness';
import { startFakeHarness } from '../support/fake-harness';

const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
const ACCOUNT = 'acct-listed';
const seen: string[] = [];
const observe = (request: IncomingMessage) => void seen.push(request.url ?? '');

async function text(api: ContentApi, fileId: string, listed?: ChangedFile) {
  const download = await api.download('tok', fileId, listed);
  const chunks: Buffer[] = [];
  for await (const chunk of download.body) chunks.push(chunk as Buffer);
  return { download, text: Buffer.concat(chunks).toString() };
}

describe('Google Drive: a listed file', () => {
  let fake: FakeHarness;
  let api: GoogleDriveApi;
  let folder: string;
  beforeAll(async () => {
    fake = await startFakeHarness(googleDriveFake, clock, observe);
    fake.grant('tok', ACCOUNT, ['https://www.googleapis.com/auth/drive']);
    api = new GoogleDriveApi({
      apiUrl: `${fake.base}/google`,
      throttleReasons: ['userRateLimitExceeded'],
    });
    const tree: AccountTree = fake.tree(ACCOUNT);
    const node = tree.addFolder(tree.root, 'Listed');
    tree.putFile(node, 'plain.txt', { contentType: 'text/plain', content: textContent('plain bytes') });
    tree.putFile(node, 'Minutes', {
      contentType: 'application/vnd.google-apps.document',
      content: textContent('native'),
    });
    folder = node.id;
  });
  afterAll(() => fake.close());

  it('is downloaded (or exported) without a metadata read, its version the listed one', async () => {
    const { files } = await changesPass(api, 'tok', folder, undefined, 100);
    const plain = files.find((f) => f.name === 'plain.txt')!;
    const native = files.find((f) => f.name === 'Minutes')!;

    seen.length = 0;
    const listed = await text(api, plain.id, plain);
    expect(listed.text).toBe('plain bytes');
    // The content's own ETag where the provider sends one, else the run records the listed version.
    expect(listed.download.version ?? plain.version).toBe(plain.version);
    expect(seen).toEqual([expect.stringContaining('alt=media')]);

    seen.length = 0;
    await text(api, native.id, native);
    expect(seen).toEqual([expect.stringContaining(`/files/${native.id}/export`)]);

    seen.length = 0;
    const unlisted = await text(api, plain.id);
    expect(unlisted.text).toBe('plain bytes');
    expect(unlisted.download.version).toBe(plain.version);
    expect(seen).toHaveLength(2); // the file's metadata, then its bytes
  });
});

describe('OneDrive: a listed file', () => {
  let fake: FakeHarness;
  let api: OneDriveApi;
  let tree: AccountTree;
  beforeAll(async () => {
    fake = await startFakeHarness(onedriveFake, clock, observe);
    fake.grant('tok', ACCOUNT, ['Files.ReadWrite.All'], 'client-od');
    api = new OneDriveApi({
      apiUrl: `${fake.base}/microsoft`,
      throttleReasons: ['activityLimitReached'],
      ownClientId: () => 'client-od',
    });
    tree = fake.tree(ACCOUNT);
  });
  afterAll(() => fake.close());

  it('is downloaded without a metadata read, its eTag and type the listed ones', async () => {
    const node = tree.addFolder(tree.root, 'Listed');
    tree.putFile(node, 'plain.txt', { contentType: 'text/plain', content: textContent('plain bytes') });
    const { files } = await changesPass(api, 'tok', onedriveIds.providerId(tree, node), undefined, 100);
    const plain = files.find((f) => f.name === 'plain.txt')!;

    seen.length = 0;
    const listed = await text(api, plain.id, plain);
    expect(listed.text).toBe('plain bytes');
    expect(listed.download).toMatchObject({ version: plain.version, contentType: 'text/plain' });
    // The content request and its redirect's hop: no item read before them.
    expect(seen).toEqual([expect.stringContaining('/content'), expect.stringContaining('/download/')]);

    seen.length = 0;
    const unlisted = await text(api, plain.id);
    expect(unlisted.download.version).toBe(plain.version);
    expect(seen).toHaveLength(3);
  });
});
