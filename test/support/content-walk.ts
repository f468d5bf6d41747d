// What the provider contract tests do with a production content-API client: walk a changes pass to its
// end, read a download, describe an upload, and the walk through a seeded account that the described
// fakes' contracts (Graph metadata, Dropbox Stone) share.
import { Readable } from 'node:stream';
import type { ChangedFile, ContentApi, Upload } from '../../functions/connectors/infra/content/api';
import type { ManualClock } from '../../functions/platform/clock';
import { textContent } from '../../sandbox/content/tree';
import type { AccountTree, FolderNode, TreeNode } from '../../sandbox/content/tree';

/** Every file a changes pass reports, and the cursor it ends with. */
export async function changesPass(
  api: ContentApi,
  token: string,
  container: string,
  cursor: string | undefined,
  limit = 2,
): Promise<{ files: ChangedFile[]; cursor: string }> {
  const files: ChangedFile[] = [];
  let page = await api.changes(token, container, { cursor }, limit);
  files.push(...page.files);
  while ('page' in page.next) {
    page = await api.changes(token, container, { page: page.next.page }, limit);
    files.push(...page.files);
  }
  return { files, cursor: page.next.cursor };
}

export async function drain(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export const uploadOf = (name: string, bytes: Buffer, key: string): Upload => ({
  name,
  contentType: 'application/pdf',
  size: bytes.length,
  body: Readable.from([bytes]),
  idempotencyKey: key,
});

const text = (value: string, contentType = 'text/plain') => ({ contentType, content: textContent(value) });

/** The account the walk goes through: Clients/engagement.pdf and Clients/Acme/{letter,minutes}.txt. */
export function seedClients(tree: AccountTree): { clients: FolderNode; acme: FolderNode } {
  const clients = tree.addFolder(tree.root, 'Clients');
  const acme = tree.addFolder(clients, 'Acme');
  tree.putFile(clients, 'engagement.pdf', text('engagement', 'application/pdf'));
  tree.putFile(acme, 'letter.txt', text('dear acme'));
  tree.putFile(acme, 'minutes.txt', text('minutes'));
  return { clients, acme };
}

/**
 * What an import does with a client, over the seeded account: browse Clients a page at a time, a full
 * changes pass, then a create, a change, a move out and a delete at the provider, the incremental
 * pass (two deletions: the moved and the deleted file), and a download of the changed file.
 */
export async function walkClients(
  api: ContentApi,
  token: string,
  tree: AccountTree,
  clock: ManualClock,
  { clients, acme }: { clients: FolderNode; acme: FolderNode },
  idOf: (node: TreeNode) => string,
): Promise<void> {
  const seen: string[] = [];
  let next: string | undefined;
  do {
    const page = await api.browse(token, idOf(clients), { token: next, limit: 1 });
    seen.push(...page.entries.map((e) => e.name));
    next = page.next;
  } while (next);
  expect(seen.sort()).toEqual(['Acme', 'engagement.pdf']);
  await api.checkContainer(token, idOf(clients));

  const first = await changesPass(api, token, idOf(clients), undefined);
  expect(first.files.map((f) => f.name).sort()).toEqual(['engagement.pdf', 'letter.txt', 'minutes.txt']);
  clock.advance(1000);
  tree.putFile(acme, 'new.txt', text('new'));
  tree.putFile(acme, 'letter.txt', text('dear acme, again'));
  tree.moveFile(
    tree.liveFiles(clients).find((f) => f.name === 'engagement.pdf')!,
    tree.root,
  );
  tree.deleteFile(tree.liveFiles(acme).find((f) => f.name === 'minutes.txt')!);
  const second = await changesPass(api, token, idOf(clients), first.cursor);
  expect(second.files.filter((f) => f.deleted)).toHaveLength(2);
  expect(
    second.files
      .filter((f) => !f.deleted)
      .map((f) => f.name)
      .sort(),
  ).toEqual(['letter.txt', 'new.txt']);

  const letter = tree.liveFiles(acme).find((f) => f.name === 'letter.txt')!;
  expect((await drain((await api.download(token, idOf(letter))).body)).toString()).toBe('dear acme, again');
}
