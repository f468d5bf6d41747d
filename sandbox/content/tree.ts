// The sandbox provider's content: one tree per (provider, account). Every change of a file (created,
// changed, deleted) takes the account's next change sequence number as the file's version, and the
// change log keeps files in version order. So "changed since N" is "version > N", and a walk of the
// log in version order never skips or repeats an unchanged file: a change moves a file to the end.
import { createHash } from 'node:crypto';

/** The two API shapes the sandbox serves: a practice-management provider and a file-storage provider. */
export type ContentShape = 'practice' | 'drive';

export type FileContent =
  | { kind: 'bytes'; chunks: Buffer[]; size: number }
  /** Produced chunk by chunk from the file's id and version when read: large files cost no memory. */
  | { kind: 'generated'; size: number };

export interface FolderNode {
  type: 'folder';
  id: string;
  name: string;
  parent: FolderNode | undefined;
  updatedAt: number;
  /** Live children by name: a name is unique in its folder. */
  byName: Map<string, TreeNode>;
  /** Live children's ids in order (the keyset of listings), rebuilt after a child comes or goes. */
  sortedIds?: string[];
}

export interface FileNode {
  type: 'file';
  id: string;
  name: string;
  parent: FolderNode;
  contentType: string;
  content: FileContent;
  version: number;
  updatedAt: number;
  /** A deleted file stays in the change log (a tombstone) so a delta can report it. */
  deleted: boolean;
  /** SHA-256 (hex) of the current version's content, once computed. */
  sha256?: string;
  /**
   * Where the file was before each move, oldest first: `until` is the version the move gave it. A
   * path-addressed provider's feed (Dropbox) reports a move as the old path deleted. `path` is the
   * file's path then; `withFolder`, the folder whose move took the file along, with its path then (a
   * feed reporting a folder move as the folder alone reports that folder, or that path).
   */
  formerPlaces?: {
    parent: FolderNode;
    name: string;
    until: number;
    path?: string;
    withFolder?: { folder: FolderNode; path: string };
  }[];
  /** The version a deleted file had before its deletion (what a restore brings back). */
  versionBeforeDeletion?: number;
  /**
   * The path of the folder whose deletion took the file with it: a provider that reports a folder
   * deletion as the folder alone (Dropbox) reports that path, not the file's.
   */
  deletedWith?: string;
  /** That folder itself: a provider that reports a folder deletion by the folder's id (Box) names it. */
  deletedWithFolder?: FolderNode;
  /**
   * The version a restore reported as a change gave the file, and the folder whose restore brought
   * it back if it came with one: a feed that tells a restore from an edit (Box) reads it.
   */
  restored?: { version: number; folder?: FolderNode };
}

export type TreeNode = FolderNode | FileNode;

export interface NewContent {
  contentType: string;
  content: FileContent;
  /** SHA-256 (hex) of the content when the caller already hashed it (an upload). */
  sha256?: string;
}

export type PutOutcome = 'created' | 'changed' | 'unchanged';

export class NameTakenError extends Error {}

/** A file's folder was deleted after it: restore the folder (which brings the file back too). */
export class FolderGoneError extends Error {}

/** Generated content is lines of this many bytes, so any byte range is cheap to produce. */
const LINE_BYTES = 64;
const CHUNK_LINES = 1024; // 64 KiB per chunk

/** The chunks of a file's current content; a generated one is produced as it is read. */
export function* contentChunks(file: FileNode): Generator<Buffer> {
  const { content } = file;
  if (content.kind === 'bytes') {
    yield* content.chunks;
    return;
  }
  // Lines "<id> v<version> line 0000000042....\n": captured now, so a version written while this is
  // read does not change what this reader gets. One chunk is laid out once; each copy gets its numbers.
  const lead = `${file.id} v${file.version} line `.slice(0, 48);
  const line = `${lead}${'0'.repeat(10)}`.padEnd(LINE_BYTES - 1, '.') + '\n';
  const template = Buffer.from(line.repeat(CHUNK_LINES), 'latin1');
  const lines = Math.ceil(content.size / LINE_BYTES);
  let remaining = content.size;
  for (let first = 0; first < lines; first += CHUNK_LINES) {
    const count = Math.min(CHUNK_LINES, lines - first);
    const chunk = Buffer.allocUnsafe(Math.min(remaining, count * LINE_BYTES));
    template.copy(chunk, 0, 0, chunk.length);
    const length = chunk.length;
    for (let j = 0; j < count; j++) {
      // The line number's digits, last first (plain arithmetic: this loop runs for every line).
      let n = first + j;
      for (let at = j * LINE_BYTES + lead.length + 9; n > 0; at--) {
        const digit = n % 10;
        if (at < length) chunk[at] = 48 + digit; // the last line may be cut short
        n = (n - digit) / 10;
      }
    }
    remaining -= chunk.length;
    yield chunk;
  }
}

export const contentSize = (content: FileContent): number => content.size;

export function sha256Of(file: FileNode): string {
  if (file.sha256) return file.sha256;
  const hash = createHash('sha256');
  for (const chunk of contentChunks(file)) hash.update(chunk);
  file.sha256 = hash.digest('hex');
  return file.sha256;
}

export const textContent = (text: string): FileContent => {
  const bytes = Buffer.from(text, 'utf8');
  return { kind: 'bytes', chunks: [bytes], size: bytes.length };
};

/** First index in `sorted` whose key is greater than `key`. */
function upperBound<T, K>(sorted: readonly T[], key: K, keyOf: (item: T) => K): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (keyOf(sorted[mid]!) <= key) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** One account's content at one provider. */
export class AccountTree {
  private seq = 0;
  private created = 0;
  private readonly nodes = new Map<string, TreeNode>();
  /** Every file, deleted ones too, in version order. */
  private readonly log: FileNode[] = [];
  readonly root: FolderNode;

  constructor(
    readonly shape: ContentShape,
    readonly accountId: string,
    private readonly now: () => number,
  ) {
    this.root = this.folderNode(shape === 'drive' ? 'root' : 'matters', '', undefined, 0);
  }

  /** The last change sequence number given out: what "everything so far" is as a sync token. */
  get changeSequence(): number {
    return this.seq;
  }

  /**
   * The change sequence of the feeds' last reset (a test hook): a feed position from a walk that began
   * before it (its `start`, or a sync token below it) is refused, each API in its provider's words.
   */
  feedResetAt = 0;

  /** Every feed position handed out so far is refused from now on (a number no file takes marks the line). */
  resetFeeds(): void {
    this.feedResetAt = ++this.seq;
  }

  /** Ids are deterministic: the n-th node an account gets has the same id in every run. */
  private nextId(prefix: string): string {
    const digest = createHash('sha256')
      .update(`${this.shape}\u0000${this.accountId}\u0000${++this.created}`)
      .digest('hex');
    return `${prefix}_${digest.slice(0, 16)}`;
  }

  private folderNode(id: string, name: string, parent: FolderNode | undefined, at: number): FolderNode {
    const folder: FolderNode = { type: 'folder', id, name, parent, updatedAt: at, byName: new Map() };
    this.nodes.set(id, folder);
    return folder;
  }

  folder(id: string): FolderNode | undefined {
    const node = this.nodes.get(id);
    return node?.type === 'folder' ? node : undefined;
  }

  /** A folder deleted with deleteFolder (the one named, not one inside it) that restoreFolder can bring back. */
  deletedFolder(id: string): FolderNode | undefined {
    return this.deletedFolders.get(id)?.folder;
  }

  /** Whether `folder` is there now: not deleted, nor inside a deleted folder. */
  isLive(folder: FolderNode): boolean {
    return this.nodes.get(folder.id) === folder;
  }

  /** A deleted file (a tombstone a restore may bring back). */
  deletedFile(id: string): FileNode | undefined {
    const node = this.nodes.get(id);
    return node?.type === 'file' && node.deleted ? node : undefined;
  }

  /** A file that is there now (not deleted). */
  file(id: string): FileNode | undefined {
    const node = this.nodes.get(id);
    return node?.type === 'file' && !node.deleted ? node : undefined;
  }

  addFolder(parent: FolderNode, name: string, at = this.now()): FolderNode {
    if (parent.byName.has(name)) throw new NameTakenError(name);
    const folder = this.folderNode(this.nextId(this.shape === 'drive' ? 'fld' : 'mat'), name, parent, at);
    this.adopt(parent, folder);
    return folder;
  }

  private adopt(parent: FolderNode, node: TreeNode) {
    parent.byName.set(node.name, node);
    parent.sortedIds = undefined;
  }

  private release(parent: FolderNode, node: TreeNode) {
    parent.byName.delete(node.name);
    parent.sortedIds = undefined;
  }

  /** Gives `file` the next version and moves it to the end of the change log. */
  private touch(file: FileNode, at: number) {
    if (file.version > 0) {
      const index = upperBound(this.log, file.version - 1, (f) => f.version);
      if (this.log[index] === file) this.log.splice(index, 1);
    }
    file.version = ++this.seq;
    file.updatedAt = at;
    file.sha256 = undefined;
    this.log.push(file);
  }

  /**
   * Writes `name` in `parent`: a new file, or the next version of the one of that name. With
   * `keepIdentical`, content and type equal to the current version's change nothing (an idempotent upload).
   */
  putFile(
    parent: FolderNode,
    name: string,
    input: NewContent,
    options: { keepIdentical?: boolean; at?: number } = {},
  ): { file: FileNode; outcome: PutOutcome } {
    const at = options.at ?? this.now();
    const existing = parent.byName.get(name);
    if (existing?.type === 'folder') throw new NameTakenError(name);
    if (existing) {
      const identical =
        options.keepIdentical &&
        existing.contentType === input.contentType &&
        input.sha256 !== undefined &&
        sha256Of(existing) === input.sha256;
      if (identical) return { file: existing, outcome: 'unchanged' };
      existing.contentType = input.contentType;
      existing.content = input.content;
      this.touch(existing, at);
      if (input.sha256) existing.sha256 = input.sha256;
      return { file: existing, outcome: 'changed' };
    }
    const file: FileNode = {
      type: 'file',
      id: this.nextId(this.shape === 'drive' ? 'fil' : 'doc'),
      name,
      parent,
      contentType: input.contentType,
      content: input.content,
      version: 0,
      updatedAt: at,
      deleted: false,
    };
    this.nodes.set(file.id, file);
    this.adopt(parent, file);
    this.touch(file, at);
    if (input.sha256) file.sha256 = input.sha256;
    return { file, outcome: 'created' };
  }

  /** Moves (and may rename) a live file: a change like any other, so the feeds report it. */
  moveFile(file: FileNode, parent: FolderNode, name = file.name, at = this.now()): void {
    const taken = parent.byName.get(name);
    if (taken && taken !== file) throw new NameTakenError(name);
    const from = { parent: file.parent, name: file.name, path: pathOf(file) };
    this.release(file.parent, file);
    file.parent = parent;
    file.name = name;
    this.adopt(parent, file);
    this.touch(file, at);
    (file.formerPlaces ??= []).push({ ...from, until: file.version });
  }

  /**
   * Moves (and may rename) a folder (not the top) with everything in it, under `parent`. Each file in
   * it is a change in the log (its place changed, not its content: `updatedAt` is kept), recorded with
   * the folder's former path, so each feed reports the move as its provider does: the files one by one
   * (Graph), the folder alone (Dropbox's old path deleted, Drive's folder whose parents changed).
   */
  moveFolder(folder: FolderNode, parent: FolderNode, name = folder.name): void {
    if (!folder.parent) throw new Error('the top folder cannot be moved');
    if (isWithin(parent, folder)) throw new Error('a folder cannot be moved into itself');
    const taken = parent.byName.get(name);
    if (taken && taken !== folder) throw new NameTakenError(name);
    const from = pathOf(folder);
    const files = this.log.filter((file) => !file.deleted && isWithin(file, folder));
    const places = files.map((file) => ({ parent: file.parent, name: file.name, path: pathOf(file) }));
    this.release(folder.parent, folder);
    folder.parent = parent;
    folder.name = name;
    this.adopt(parent, folder);
    files.forEach((file, index) => {
      this.touch(file, file.updatedAt);
      (file.formerPlaces ??= []).push({
        ...places[index]!,
        until: file.version,
        withFolder: { folder, path: from },
      });
    });
  }

  /**
   * Deletes a folder (not the top) with everything in it: each file is a deletion of its own in the
   * change log, marked with the folder's path (a feed reporting the folder alone reports that).
   */
  deleteFolder(folder: FolderNode, at = this.now()): void {
    if (!folder.parent) throw new Error('the top folder cannot be deleted');
    const path = pathOf(folder);
    const files = this.log.filter((file) => !file.deleted && isWithin(file, folder));
    for (const file of files) {
      file.deletedWith = path;
      file.deletedWithFolder = folder;
      this.deleteFile(file, at);
    }
    this.release(folder.parent, folder);
    const folders: FolderNode[] = [];
    for (const node of [...this.nodes.values()])
      if (node.type === 'folder' && isWithin(node, folder)) {
        folders.push(node);
        this.nodes.delete(node.id);
      }
    this.deletedFolders.set(folder.id, { folder, folders, files });
  }

  /** Folders deleted with deleteFolder, by id, with what went with them (what restoreFolder brings back). */
  private readonly deletedFolders = new Map<
    string,
    { folder: FolderNode; folders: FolderNode[]; files: FileNode[] }
  >();

  /**
   * Brings a deleted folder back in its place, with the files deleted with it, each a change (a
   * restore the feeds list). Undefined: no such deleted folder; NameTakenError: its name is taken now.
   */
  restoreFolder(id: string, at = this.now()): FolderNode | undefined {
    const deleted = this.deletedFolders.get(id);
    if (!deleted?.folder.parent) return undefined;
    const { folder, folders, files } = deleted;
    if (folder.parent!.byName.has(folder.name)) throw new NameTakenError(folder.name);
    this.deletedFolders.delete(id);
    this.adopt(folder.parent!, folder);
    for (const node of folders) this.nodes.set(node.id, node);
    for (const file of files) {
      if (!file.deleted || file.parent.byName.has(file.name)) continue;
      file.deleted = false;
      file.versionBeforeDeletion = undefined;
      file.deletedWith = undefined;
      file.deletedWithFolder = undefined;
      this.adopt(file.parent, file);
      this.touch(file, at);
      file.restored = { version: file.version, folder };
    }
    return folder;
  }

  /** Where a deleted file comes back (a restore to another folder or name); its deletion stays recorded. */
  placeDeleted(file: FileNode, parent: FolderNode, name: string): void {
    if (!file.deleted) throw new Error('only a deleted file is placed');
    file.parent = parent;
    file.name = name;
  }

  deleteFile(file: FileNode, at = this.now()): void {
    if (file.deleted) return;
    this.release(file.parent, file);
    file.deleted = true;
    file.versionBeforeDeletion = file.version;
    this.touch(file, at);
  }

  /**
   * Brings a deleted file back under its id and at the version it had, in its place in the change log
   * (a test hook: a provider's restore that answers the old version). No change is recorded, so a feed
   * past that version does not report it; a pass from the start lists it. Undefined: no such deleted
   * file; NameTakenError: its name is taken in its folder now; FolderGoneError: its folder is deleted.
   */
  restoreFile(id: string, options: { asChange?: boolean } = {}): FileNode | undefined {
    const file = this.nodes.get(id);
    if (file?.type !== 'file' || !file.deleted || file.versionBeforeDeletion === undefined) return undefined;
    if (this.nodes.get(file.parent.id) !== file.parent) throw new FolderGoneError(file.parent.name);
    if (file.parent.byName.has(file.name)) throw new NameTakenError(file.name);
    if (options.asChange) {
      // As a feed that reports a restore (Drive's untrash, Graph's restore): a change like any other.
      file.versionBeforeDeletion = undefined;
      file.deleted = false;
      file.deletedWith = undefined;
      file.deletedWithFolder = undefined;
      this.adopt(file.parent, file);
      this.touch(file, this.now());
      file.restored = { version: file.version };
      return file;
    }
    this.log.splice(
      upperBound(this.log, file.version - 1, (f) => f.version),
      1,
    );
    file.version = file.versionBeforeDeletion;
    file.versionBeforeDeletion = undefined;
    file.deleted = false;
    file.deletedWith = undefined;
    file.deletedWithFolder = undefined;
    file.sha256 = undefined;
    this.log.splice(
      upperBound(this.log, file.version, (f) => f.version),
      0,
      file,
    );
    this.adopt(file.parent, file);
    return file;
  }

  /** A folder's live children in id order after `afterId`, at most `limit`; `more` when others follow. */
  children(folder: FolderNode, afterId: string, limit: number): { items: TreeNode[]; more: boolean } {
    folder.sortedIds ??= [...folder.byName.values()].map((node) => node.id).sort();
    const start = upperBound(folder.sortedIds, afterId, (id) => id);
    const ids = folder.sortedIds.slice(start, start + limit);
    return {
      items: ids.map((id) => this.nodes.get(id)!),
      more: start + limit < folder.sortedIds.length,
    };
  }

  /** Files with a version above `after`, in version order, that `admit` takes: at most `limit`. */
  changesAfter(after: number, admit: (file: FileNode) => boolean, limit: number) {
    const files: FileNode[] = [];
    for (let i = upperBound(this.log, after, (f) => f.version); i < this.log.length; i++) {
      const file = this.log[i]!;
      if (!admit(file)) continue;
      if (files.length === limit) return { files, more: true };
      files.push(file);
    }
    return { files, more: false };
  }

  /** The files directly in `folder` (or in the whole account), as they are now. */
  liveFiles(folder?: FolderNode): FileNode[] {
    return this.log.filter((f) => !f.deleted && (!folder || f.parent === folder));
  }
}

/** Whether `node` is `folder` or inside it. */
export function isWithin(node: TreeNode, folder: FolderNode): boolean {
  for (let at: FolderNode | undefined = node.type === 'folder' ? node : node.parent; at; at = at.parent)
    if (at === folder) return true;
  return false;
}

/** `/Clients/Acme/letter.txt`: the node's path from the root. */
export function pathOf(node: TreeNode): string {
  const names: string[] = [];
  for (let at: TreeNode | undefined = node; at?.parent; at = at.parent) names.unshift(at.name);
  return `/${names.join('/')}`;
}

/**
 * Where a walk of a change feed is: `since` null for a first walk (every current file), else the
 * change sequence it reports changes after; `after` the last version it has passed; `start` the
 * change sequence when it began (a file deleted after that may have been reported live, so the first
 * walk reports its deletion too).
 */
export interface WalkState {
  since: number | null;
  after: number;
  start: number;
}

export const beginWalk = (tree: AccountTree, since: number | null): WalkState => ({
  since,
  after: since ?? 0,
  start: tree.changeSequence,
});

/**
 * One page of a change feed over the files `inScope` admits: `next` while more follow, else `syncedTo`,
 * the change sequence everything up to which has been reported (the next walk's `since`).
 */
export function walkChanges(
  tree: AccountTree,
  inScope: (file: FileNode) => boolean,
  state: WalkState,
  limit: number,
): { files: FileNode[]; next?: WalkState; syncedTo?: number } {
  const admit = (file: FileNode) =>
    inScope(file) && (!file.deleted || state.since !== null || file.version > state.start);
  const { files, more } = tree.changesAfter(state.after, admit, limit);
  if (more) return { files, next: { ...state, after: files.at(-1)!.version } };
  return { files, syncedTo: tree.changeSequence };
}
