// What the connectors need from a provider's content API, whatever its shape: browse containers and
// files, list a container's changes since a cursor, download a file, upload one. One client per API
// shape (./practice.ts, ./drive.ts); a provider definition names its shape, its configuration the URL.
import type { Readable } from 'node:stream';

export interface SourceEntry {
  id: string;
  name: string;
  /** A container can be a link's source (a matter, a folder); a file is imported from one. */
  kind: 'container' | 'file';
  size?: number;
  version?: string;
  contentType?: string;
  /** ISO 8601, as the provider gave it. */
  updatedAt?: string;
}

export interface ChangedFile {
  id: string;
  name: string;
  /** Changes whenever the content does. */
  version: string;
  size?: number;
  contentType?: string;
  /** The provider's own type of the file, where its client downloads by type (Google's native documents are exported). */
  providerType?: string;
  /** Gone at the provider since the cursor. */
  deleted: boolean;
  /**
   * A deletion whose id may be a folder's path (Dropbox reports a deleted or moved folder by its path
   * alone): every file the link holds under `<id>/` is gone too.
   */
  subtree?: boolean;
}

/** Where a changes listing is: a page within a pass, or (after the last page) the cursor to keep. */
export type ChangesPosition = { page: string } | { cursor?: string };

export interface ChangesPage {
  files: ChangedFile[];
  /** `page`: more of this pass; `cursor`: the pass is complete, keep this for the next one. */
  next: { page: string } | { cursor: string };
}

export interface Download {
  body: Readable;
  contentType: string;
  size?: number;
  version?: string;
}

export interface Upload {
  /** Checked with nameProblem() first: a client never lets a name choose another URL. */
  name: string;
  contentType: string;
  size: number;
  body: Readable;
  /** The same key uploads once (a retried export step does not make a second file). */
  idempotencyKey: string;
  /**
   * Replace this file (one this service exported, as findFile saw it) with the new content, only if it
   * is still at that version; without it an upload makes a new file and never replaces one. A client
   * whose provider cannot replace conditionally checks the version just before it writes.
   */
  replace?: ProviderFile;
}

/**
 * The provider will not continue its feed from this position (Graph's 410 resync, Dropbox's `reset`, a
 * Drive page token refused, a cursor this client no longer reads, a Clio pass whose overlap window was
 * lost): what changed meanwhile, deletions included, cannot be listed. The run starts over as a full
 * pass from no cursor, followed by its reconcile (a client never restarts the pass silently itself).
 */
export class FeedRestartError extends Error {
  constructor(
    readonly operation: string,
    /** What the provider said, in its own terms (`resyncRequired`, `reset`, ...), for the log. */
    readonly detail: string,
  ) {
    super(`provider ${operation}: the feed cannot continue from the cursor (${detail})`);
    this.name = 'FeedRestartError';
  }
}

/** A file as the provider holds it, for a name-conflict check before an upload. */
export interface ProviderFile {
  id: string;
  name: string;
  /** Changes whenever the file does (a user's edit of our export makes it theirs). */
  version: string;
}

/** The file a provider refused or could not make, per document (the export records it as failed). */
export class UploadRefusedError extends Error {
  constructor(
    /** invalid_name | name_taken (the name was taken between the check and the upload) | changed */
    readonly reason: 'invalid_name' | 'name_taken' | 'changed',
    message: string,
  ) {
    super(message);
    this.name = 'UploadRefusedError';
  }
}

/** The longest file name any provider takes (Clio, Dropbox and OneDrive say 255; Google Drive is held to it too). */
export const NAME_MAX_LENGTH = 255;

/**
 * Bidirectional controls (the embeddings, overrides and isolates, LRM/RLM, ALM): a name holding one shows
 * other than it is (`invoice\u202Efdp.exe` reads as "invoiceexe.pdf") in the console and at the provider.
 */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** A provider's own refusals beyond the shared ones (OneDrive's reserved characters). */
export interface NameRules {
  reserved?: RegExp;
  /** What to tell the user when `reserved` matches. */
  reservedText?: string;
}

/**
 * The one file-name policy of every provider: why `name` cannot be a file's name there, else undefined.
 * Shared: nothing that names another path or URL (empty, `.`, `..`, a `/` or `\`, NUL or another
 * control character such as CR/LF), no bidirectional control, at most NAME_MAX_LENGTH characters; then
 * the provider's own `rules`. A client refuses with UploadRefusedError('invalid_name').
 */
export function nameProblem(name: string, rules: NameRules = {}): string | undefined {
  if (!name.trim()) return 'the name is empty';
  if (name === '.' || name === '..') return `the name ${name} is a path segment`;
  if (/[/\\]/.test(name)) return 'the name holds a / or \\';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name))
    return 'the name holds a control character (NUL, CR, LF, ...)';
  if (BIDI_CONTROL.test(name))
    return 'the name holds a bidirectional control character (such as U+202E), which would show it as another name';
  if (name.length > NAME_MAX_LENGTH) return `the name is longer than ${NAME_MAX_LENGTH} characters`;
  if (rules.reserved?.test(name)) return rules.reservedText ?? 'the provider refuses a character of the name';
  return undefined;
}

/**
 * What a route asks of a provider (listing sources, checking a link's or an export's container): the
 * part of a client a route's bundle carries. The transfers (changes, download, upload) run in the
 * sync worker only.
 */
export type ContainerApi = Pick<ContentApi, 'browse' | 'checkContainer'>;

export interface ContentApi {
  /**
   * false: the provider keeps every upload a file of its own (Clio's documents), so `replace` is never
   * asked of it; a new version of an earlier export is a new file named by the export's conflict rule.
   */
  readonly replaces?: boolean;
  /** The top level (no parent) or a container's entries, a page at a time. */
  browse(
    token: string,
    parent: string | undefined,
    page: { token?: string; limit: number },
  ): Promise<{
    entries: SourceEntry[];
    next?: string;
  }>;
  /** Throws ProviderApiError 404 when the container does not exist (or is not a container). */
  checkContainer(token: string, id: string): Promise<void>;
  changes(token: string, container: string, position: ChangesPosition, limit: number): Promise<ChangesPage>;
  /**
   * `listed`: the file as this client's `changes` listed it, from which a client takes what it would
   * otherwise read again before the download (one provider call per file, not two). Its version is then
   * the listed one: content changed since is newer than it, and the next run imports it again.
   */
  download(token: string, fileId: string, listed?: ChangedFile): Promise<Download>;
  /**
   * The file named exactly `name` (case-insensitively where the provider's names are) directly in the
   * container, if any: what an export checks before it uploads, so it never replaces a user's file.
   */
  findFile(token: string, container: string, name: string): Promise<ProviderFile | undefined>;
  /**
   * A new file named `file.name` (or, with `file.replace`, a new version of that file). Never replaces
   * another file: a name taken meanwhile is UploadRefusedError('name_taken'), a name the provider cannot
   * hold UploadRefusedError('invalid_name'), a `replace` target changed since UploadRefusedError('changed').
   */
  upload(token: string, container: string, file: Upload): Promise<ProviderFile>;
}
