// Dropbox API v2's file endpoints, written from its HTTP documentation
// (https://www.dropbox.com/developers/documentation/http/documentation), over the sandbox's account
// trees (../../content/tree.ts). Paths under the fake's prefix, the content host's under /content
// (CONTENT_URL `<origin>/dropbox/content` stands for https://content.dropboxapi.com):
//   POST /2/files/list_folder           {path, recursive?, include_deleted?, limit?}      files.metadata.read
//   POST /2/files/list_folder/continue  {cursor}                                          files.metadata.read
//        -> {entries: [{".tag": "file"|"folder"|"deleted", ...}], cursor, has_more}
//   POST /content/2/files/download        Dropbox-API-Arg {path}  -> bytes + Dropbox-API-Result  files.content.read
//   POST /content/2/files/upload          Dropbox-API-Arg {path, mode, autorename, mute, strict_conflict}, bytes
//                                 (at most 150 MiB) -> FileMetadata                     files.content.write
//   POST /content/2/files/upload_session/start      Dropbox-API-Arg {close?}, bytes -> {session_id}
//   POST /content/2/files/upload_session/append_v2  Dropbox-API-Arg {cursor: {session_id, offset}, close?} -> null
//   POST /content/2/files/upload_session/finish     Dropbox-API-Arg {cursor, commit}, bytes -> FileMetadata
//   POST /2/files/get_metadata          {path, include_deleted?} -> Metadata | 409 path/not_found  files.metadata.read
//   POST /2/users/get_current_account  (no body)                                         account_info.read
// Paths: "" (the root), "/a/b" (case-insensitive), "id:<id>" or "id:<id>/a/b". Dropbox-API-Arg must be
// HTTP-header-safe (printable ASCII; other characters as \uXXXX): anything else is a 400, as Dropbox
// answers a header it cannot decode. Errors: 400 text/plain for bad input; 401 `invalid_access_token`
// (also a revoked or expired token) and `missing_scope` {required_scope}; 409 endpoint errors
// `{error_summary, error}` (path/not_found, path/not_file, path/not_folder, path/conflict/file, reset,
// incorrect_offset, not_found for a session); 429 too_many_requests / too_many_write_operations with
// Retry-After and `retry_after`; 500/503 when injected.
//
// Files are addressed by path as Dropbox does; a file's id is `id:<tree id>` and keeps across a move
// (a move is the old path deleted and the new path created, which is what list_folder/continue reports).
// rev is the file's version as 9+ hex digits; content_hash is Dropbox's (SHA-256 over the SHA-256s of
// 4 MiB blocks).
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as z from 'zod';
import { isoTime } from '../../clock';
import { readUpload } from '../../content/http';
import type { AccountTree, FileNode, FolderNode, TreeNode } from '../../content/tree';
import { contentChunks, isWithin, pathOf, sha256Of, walkChanges } from '../../content/tree';
import type { WalkState } from '../../content/tree';
import type { ProviderIds } from '../../content/types';
import type { FakeRoute, FakeRouteContext } from '../fake';

export const DROPBOX_SCOPES = [
  'account_info.read',
  'files.metadata.read',
  'files.content.read',
  'files.content.write',
];

const MiB = 1024 * 1024;
/** What /2/files/upload takes in one call. */
export const DROPBOX_UPLOAD_MAX = 150 * MiB;

/** A Dropbox answer other than 200. */
export class DropboxError extends Error {
  constructor(
    readonly status: number,
    /** JSON `{error_summary, error}` for endpoint and auth errors; text for bad input (400) and 5xx. */
    readonly body: { error_summary: string; error: unknown } | string,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'string' ? body : body.error_summary);
  }
}

/** error_summary ends in a filler after the tags ("path/not_found/.."); clients must not read it. */
const suffix = () => `/${'.'.repeat(1 + Math.floor(Math.random() * 3))}`;

/** A 409 endpoint error: `tags` nested as Dropbox nests unions (path -> not_found). */
export function endpointError(tags: string[], extra: Record<string, unknown> = {}): DropboxError {
  let error: Record<string, unknown> = { '.tag': tags.at(-1)!, ...extra };
  for (let i = tags.length - 2; i >= 0; i--) error = { '.tag': tags[i]!, [tags[i]!]: error };
  return new DropboxError(409, { error_summary: `${tags.join('/')}${suffix()}`, error });
}

const badInput = (message: string) => new DropboxError(400, `Error in call to API function: ${message}`);

export function rateLimited(
  tag: 'too_many_requests' | 'too_many_write_operations',
  retryAfter: number,
): DropboxError {
  return new DropboxError(
    429,
    { error_summary: `${tag}${suffix()}`, error: { reason: { '.tag': tag }, retry_after: retryAfter } },
    { 'Retry-After': String(retryAfter) },
  );
}

const pathArg = z
  .string()
  .max(4096)
  .regex(/^$|^\/[\s\S]*$|^id:[\s\S]+$/, 'path: did not match pattern');
const listFolderArg = z.strictObject({
  path: pathArg,
  recursive: z.boolean().optional(),
  include_deleted: z.boolean().optional(),
  include_media_info: z.boolean().optional(),
  include_has_explicit_shared_members: z.boolean().optional(),
  include_mounted_folders: z.boolean().optional(),
  include_non_downloadable_files: z.boolean().optional(),
  limit: z.number().int().min(1).max(2000).optional(),
});
const continueArg = z.strictObject({ cursor: z.string().min(1) });
const mode = z.union([
  z.literal('add'),
  z.literal('overwrite'),
  z.strictObject({ '.tag': z.literal('update'), update: z.string() }),
  z.strictObject({ '.tag': z.enum(['add', 'overwrite']) }),
]);
const commitArg = z.strictObject({
  path: pathArg,
  mode: mode.optional(),
  autorename: z.boolean().optional(),
  client_modified: z.string().optional(),
  mute: z.boolean().optional(),
  strict_conflict: z.boolean().optional(),
});
const metadataArg = z.strictObject({
  path: pathArg,
  include_media_info: z.boolean().optional(),
  include_deleted: z.boolean().optional(),
  include_has_explicit_shared_members: z.boolean().optional(),
});
const downloadArg = z.strictObject({ path: pathArg, rev: z.string().optional() });
const sessionCursor = z.strictObject({ session_id: z.string(), offset: z.number().int().nonnegative() });
const startArg = z.strictObject({ close: z.boolean().optional(), session_type: z.string().optional() });
const appendArg = z.strictObject({ cursor: sessionCursor, close: z.boolean().optional() });
const finishArg = z.strictObject({ cursor: sessionCursor, commit: commitArg });

/** A cursor: a listing of one folder (page `a` after an id) or a walk of its changes. */
const cursorSchema = z.strictObject({
  acct: z.string(),
  epoch: z.number().int(),
  f: z.string(),
  r: z.boolean(),
  /** list: children after id `a`; walk: the change walk (since, after, start). */
  k: z.enum(['list', 'walk']),
  a: z.string().optional(),
  s: z.number().int().nullable().optional(),
  v: z.number().int().optional(),
  w: z.number().int().optional(),
  /** The page size list_folder was asked for (continue has none of its own). */
  l: z.number().int().optional(),
});
type Cursor = z.infer<typeof cursorSchema>;

function parse<T>(schema: z.ZodType<T>, input: unknown, where: string): T {
  const checked = schema.safeParse(input);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw badInput(`${where}: ${issue?.path.join('.') || 'body'}: ${issue?.message}`);
  }
  return checked.data;
}

/** Dropbox's content hash: SHA-256 of the concatenated SHA-256 digests of each 4 MiB block. */
function contentHash(file: FileNode): string {
  const outer = createHash('sha256');
  let block = createHash('sha256');
  let inBlock = 0;
  for (const chunk of contentChunks(file)) {
    for (let at = 0; at < chunk.length;) {
      const take = Math.min(4 * MiB - inBlock, chunk.length - at);
      block.update(chunk.subarray(at, at + take));
      inBlock += take;
      at += take;
      if (inBlock === 4 * MiB) {
        outer.update(block.digest());
        block = createHash('sha256');
        inBlock = 0;
      }
    }
  }
  if (inBlock > 0) outer.update(block.digest());
  return outer.digest('hex');
}

const rev = (file: FileNode) => file.version.toString(16).padStart(9, '0');

/** Escapes every character outside printable ASCII as \uXXXX (what a header can carry). */
const headerSafe = (value: unknown) =>
  JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

const hashes = new WeakMap<FileNode, { version: number; hash: string }>();
function hashOf(file: FileNode): string {
  const cached = hashes.get(file);
  if (cached?.version === file.version) return cached.hash;
  const hash = contentHash(file);
  hashes.set(file, { version: file.version, hash });
  return hash;
}

/** Cursors issued for a tree before its last reset (a test hook) answer `reset`. */
const epochs = new WeakMap<AccountTree, number>();
const epochOf = (tree: AccountTree) => epochs.get(tree) ?? 0;

/** Makes every cursor issued so far for the account's tree answer `reset`, as Dropbox may. */
export function resetCursors(tree: AccountTree): void {
  epochs.set(tree, epochOf(tree) + 1);
}

interface Session {
  tree: AccountTree;
  chunks: Buffer[];
  offset: number;
  closed: boolean;
}
const sessions = new Map<string, Session>();

const dropboxId = (node: TreeNode) => `id:${node.id}`;
const digestOf = (text: string) => createHash('sha256').update(text).digest();
/** An account id as Dropbox's are (Stone's AccountId: exactly 40 characters, `dbid:` and 35 more). */
export const dropboxAccountId = (accountId: string) =>
  `dbid:${digestOf(`account\u0000${accountId}`).toString('base64url').slice(0, 35)}`;
/** The account's namespace (Stone's NamespaceId; a decimal number at Dropbox). */
const namespaceOf = (accountId: string) => String(digestOf(`ns\u0000${accountId}`).readUInt32BE(0));
const stamp = (ms: number) => isoTime(ms).replace(/\.\d{3}Z$/, 'Z');

const fileMetadata = (file: FileNode) => ({
  name: file.name,
  id: dropboxId(file),
  client_modified: stamp(file.updatedAt),
  server_modified: stamp(file.updatedAt),
  rev: rev(file),
  size: file.content.size,
  path_lower: pathOf(file).toLowerCase(),
  path_display: pathOf(file),
  is_downloadable: true,
  content_hash: hashOf(file),
});

const metadata = (node: TreeNode) =>
  node.type === 'file'
    ? { '.tag': 'file', ...fileMetadata(node) }
    : {
        '.tag': 'folder',
        name: node.name,
        id: dropboxId(node),
        path_lower: pathOf(node).toLowerCase(),
        path_display: pathOf(node),
      };

const deletedAt = (path: string, name: string) => ({
  '.tag': 'deleted',
  name,
  path_lower: path.toLowerCase(),
  path_display: path,
});

/** A live child by name, compared case-insensitively as Dropbox compares paths. */
function child(folder: FolderNode, name: string): TreeNode | undefined {
  const exact = folder.byName.get(name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  for (const [key, node] of folder.byName) if (key.toLowerCase() === lower) return node;
  return undefined;
}

const nodeById = (tree: AccountTree, id: string): TreeNode | undefined =>
  id === tree.root.id ? tree.root : (tree.folder(id) ?? tree.file(id));

/** The node a path names ("" the root, "/a/b", "id:x", "id:x/a/b"), or undefined. */
function resolve(tree: AccountTree, path: string): TreeNode | undefined {
  let at: FolderNode = tree.root;
  let rest = path;
  if (path.startsWith('id:')) {
    const [id, ...tail] = path.slice(3).split('/');
    const node = nodeById(tree, id!);
    if (!node || !tail.length) return node;
    if (node.type !== 'folder') throw endpointError(['path', 'not_folder']);
    at = node;
    rest = `/${tail.join('/')}`;
  }
  if (rest === '' || rest === '/') return at;
  const names = rest.split('/').slice(1);
  for (let i = 0; i < names.length; i++) {
    const next = child(at, names[i]!);
    if (!next || i === names.length - 1) return next;
    if (next.type !== 'folder') throw endpointError(['path', 'not_folder']);
    at = next;
  }
  return at;
}

function folderAt(tree: AccountTree, path: string): FolderNode {
  const node = resolve(tree, path);
  if (!node) throw endpointError(['path', 'not_found']);
  if (node.type !== 'folder') throw endpointError(['path', 'not_folder']);
  return node;
}

/** The provider's ids: folders `id:<tree id>` (the root `/`), files their lower-cased path. */
export const dropboxIds: ProviderIds = {
  treeId(tree, id) {
    if (id === '/') return tree.root.id;
    if (id.startsWith('id:')) return id.slice(3);
    if (!id.startsWith('/')) return undefined;
    // A path now free names the file last deleted there (what a restore at that path brings back).
    const live = resolve(tree, id)?.id;
    if (live) return live;
    const gone = tree.changesAfter(0, (f) => f.deleted && pathOf(f).toLowerCase() === id, Infinity).files;
    return gone.at(-1)?.id;
  },
  providerId: (tree, node) =>
    node === tree.root ? '/' : node.type === 'folder' ? dropboxId(node) : pathOf(node).toLowerCase(),
};

const encode = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');

function decode(raw: string, tree: AccountTree): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw badInput('cursor: invalid');
  }
  const cursor = parse(cursorSchema, parsed, 'cursor');
  if (cursor.acct !== tree.accountId) throw badInput('cursor: not for this account');
  if (cursor.epoch !== epochOf(tree) || (cursor.w ?? 0) < tree.feedResetAt) throw endpointError(['reset']);
  return cursor;
}

/** Where a file was at change sequence `at` (before any move made after it, its own or its folder's). */
function placeAt(file: FileNode, at: number): { path: string; name: string; withFolder?: string } {
  const former = file.formerPlaces?.find((place) => place.until > at);
  if (!former) return { path: pathOf(file), name: file.name };
  const path = former.path ?? `${former.parent.parent ? pathOf(former.parent) : ''}/${former.name}`;
  return { path, name: former.name, withFolder: former.withFolder?.path };
}

/**
 * One page of a change walk: a file reported at its path now, and, when it moved away from a path in
 * scope since the walk's `since`, that path as deleted (Dropbox reports a move as the old path gone,
 * and a folder's move as the folder's old path alone).
 */
function walkPage(
  tree: AccountTree,
  folder: FolderNode,
  recursive: boolean,
  state: WalkState,
  limit: number,
) {
  const inScope = (parent: FolderNode) => (recursive ? isWithin(parent, folder) : parent === folder);
  // Where a file was is a path (its folder may have moved since): in scope by the listed folder's path.
  const top = folder.parent ? pathOf(folder).toLowerCase() : '';
  const pathInScope = (path: string) => {
    const lower = path.toLowerCase();
    return recursive ? lower.startsWith(`${top}/`) : lower.slice(0, lower.lastIndexOf('/')) === top;
  };
  const wasInScope = (file: FileNode) => state.since !== null && pathInScope(placeAt(file, state.since).path);
  const page = walkChanges(tree, (file) => inScope(file.parent) || wasInScope(file), state, limit);
  const entries: unknown[] = [];
  const foldersGone = new Set<string>();
  const folderGone = (path: string) => {
    // A folder deleted or moved away is reported as the folder alone, whatever was in it.
    if (!foldersGone.has(path)) entries.push(deletedAt(path, path.split('/').at(-1)!));
    foldersGone.add(path);
  };
  for (const file of page.files) {
    const before = state.since === null ? undefined : placeAt(file, state.since);
    if (file.deleted && file.deletedWith) {
      folderGone(file.deletedWith);
      continue;
    }
    if (file.deleted) {
      entries.push(deletedAt(before && pathInScope(before.path) ? before.path : pathOf(file), file.name));
      continue;
    }
    if (before && before.path !== pathOf(file) && pathInScope(before.path)) {
      if (before.withFolder && pathInScope(before.withFolder)) folderGone(before.withFolder);
      else entries.push(deletedAt(before.path, before.name));
    }
    if (inScope(file.parent)) entries.push(metadata(file));
  }
  return { entries, page };
}

/** One page of a listing from `cursor`: a folder's children (non-recursive) or the change walk. */
function listPage(tree: AccountTree, cursor: Cursor, limit: number) {
  const folder = cursor.f === tree.root.id ? tree.root : tree.folder(cursor.f);
  if (!folder) throw endpointError(['path', 'not_found']);
  if (cursor.k === 'list') {
    const { items, more } = tree.children(folder, cursor.a ?? '', limit);
    const entries = items.map(metadata);
    if (more) return { entries, next: { ...cursor, a: items.at(-1)!.id }, more };
    // Listed: later calls report what changed among the folder's own files.
    const at = tree.changeSequence;
    return { entries, next: { ...cursor, k: 'walk' as const, a: undefined, s: at, v: at, w: at }, more };
  }
  const state = { since: cursor.s ?? null, after: cursor.v ?? 0, start: cursor.w ?? 0 };
  const { entries, page } = walkPage(tree, folder, cursor.r, state, limit);
  if (page.next)
    return {
      entries,
      next: { ...cursor, s: page.next.since, v: page.next.after, w: page.next.start },
      more: true,
    };
  const at = page.syncedTo!;
  return { entries, next: { ...cursor, s: at, v: at, w: at }, more: false };
}

function subfolders(folder: FolderNode): FolderNode[] {
  const out: FolderNode[] = [];
  for (const node of folder.byName.values()) if (node.type === 'folder') out.push(node, ...subfolders(node));
  return out;
}

const answerPage = (page: { entries: unknown[]; next: Cursor; more: boolean }) => ({
  entries: page.entries,
  cursor: encode(page.next),
  has_more: page.more,
});

function listFolder(tree: AccountTree, body: unknown) {
  const arg = parse(listFolderArg, body, 'files/list_folder');
  const folder = folderAt(tree, arg.path);
  const limit = arg.limit ?? 500;
  const base = {
    acct: tree.accountId,
    epoch: epochOf(tree),
    f: folder.id,
    r: arg.recursive === true,
    l: limit,
  };
  if (!arg.recursive) return answerPage(listPage(tree, { ...base, k: 'list' }, limit));
  // Recursive: the folders first, then every file through the change walk (a walk that began now).
  const start = tree.changeSequence;
  const page = listPage(tree, { ...base, k: 'walk', s: null, v: 0, w: start }, limit);
  return answerPage({ ...page, entries: [...subfolders(folder).map(metadata), ...page.entries] });
}

function uniqueName(folder: FolderNode, name: string): string {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 1; ; n++) {
    const candidate = `${stem} (${n})${ext}`;
    if (!child(folder, candidate)) return candidate;
  }
}

/** The parent folders of an upload, made as needed (as Dropbox does). */
function ensureFolder(tree: AccountTree, path: string): FolderNode {
  const parentPath = path.slice(0, path.lastIndexOf('/'));
  if (parentPath === '' && !path.startsWith('id:')) return tree.root;
  const found = resolve(tree, parentPath);
  if (found?.type === 'folder') return found;
  if (found) throw endpointError(['path', 'conflict', 'file']);
  if (parentPath.startsWith('id:') && !parentPath.includes('/')) throw endpointError(['path', 'not_found']);
  return tree.addFolder(ensureFolder(tree, parentPath), parentPath.slice(parentPath.lastIndexOf('/') + 1));
}

/**
 * upload's error names the write error as an UploadWriteFailed struct (`reason`, `upload_session_id`),
 * where upload_session/finish's names it under `path` (Stone: UploadError.path vs
 * UploadSessionFinishError.path): `{".tag": "path", "reason": {".tag": "conflict", ...}, ...}`.
 */
function uploadWriteFailed(error: unknown): unknown {
  if (!(error instanceof DropboxError) || typeof error.body === 'string') return error;
  const body = error.body as { error_summary: string; error: { '.tag': string; path?: unknown } };
  if (body.error['.tag'] !== 'path') return error;
  const session = `pid_upload_session:${createHash('sha256').update(`${Math.random()}`).digest('base64url').slice(0, 24)}`;
  return new DropboxError(error.status, {
    error_summary: body.error_summary,
    error: { '.tag': 'path', reason: body.error.path, upload_session_id: session },
  });
}

/** Writes an upload at its path under the mode's conflict rules. */
function commit(
  tree: AccountTree,
  arg: z.infer<typeof commitArg>,
  upload: { chunks: Buffer[]; size: number; sha256: string },
) {
  const name = arg.path.slice(arg.path.lastIndexOf('/') + 1);
  if (!name || name === '.' || name === '..') throw endpointError(['path', 'malformed_path']);
  const folder = ensureFolder(tree, arg.path);
  const content = { kind: 'bytes' as const, chunks: upload.chunks, size: upload.size };
  const modeTag = typeof arg.mode === 'string' ? arg.mode : (arg.mode?.['.tag'] ?? 'add');
  const existing = child(folder, name);
  let target = existing?.name ?? name;
  if (existing?.type === 'folder') {
    if (!arg.autorename) throw endpointError(['path', 'conflict', 'folder']);
    target = uniqueName(folder, name);
  } else if (existing && modeTag !== 'overwrite') {
    // The same bytes are no conflict (unless strict_conflict); `update` replaces only the rev it names.
    if (!arg.strict_conflict && sha256Of(existing) === upload.sha256) return fileMetadata(existing);
    const updatesIt =
      typeof arg.mode === 'object' && 'update' in arg.mode && arg.mode.update === rev(existing);
    if (!updatesIt) {
      if (!arg.autorename) throw endpointError(['path', 'conflict', 'file']);
      target = uniqueName(folder, name);
    }
  }
  const { file } = tree.putFile(folder, target, {
    contentType: 'application/octet-stream',
    content,
    sha256: upload.sha256,
  });
  return fileMetadata(file);
}

/** The argument of a content endpoint, from its header: header-safe JSON only. */
function headerArg(request: IncomingMessage): unknown {
  const raw = request.headers['dropbox-api-arg'];
  if (typeof raw !== 'string') throw badInput('missing Dropbox-API-Arg header');
  // Node reads header bytes as latin1: anything outside printable ASCII was not escaped.
  if (!/^[\x20-\x7e]*$/.test(raw))
    throw badInput('HTTP header "Dropbox-API-Arg": must be ASCII (escape other characters as \\uXXXX)');
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw badInput('HTTP header "Dropbox-API-Arg": could not decode input as JSON');
  }
}

/** An RPC body: JSON (or nothing, for endpoints without arguments). */
async function jsonBody(request: IncomingMessage, where: string): Promise<unknown> {
  const type = request.headers['content-type'] ?? '';
  const { chunks } = await readUpload(request, MiB);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!/^application\/json\b/.test(type) && text !== '' && text !== 'null')
    throw badInput(`${where}: Bad HTTP "Content-Type" header: "${type}". Expecting "application/json".`);
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    throw badInput(`${where}: could not decode input as JSON`);
  }
}

/** A content endpoint's bytes, at most `cap`. */
async function octets(request: IncomingMessage, cap: number) {
  const type = request.headers['content-type'];
  if (type !== undefined && type !== 'application/octet-stream')
    throw badInput(`Bad HTTP "Content-Type" header: "${type}". Expecting "application/octet-stream".`);
  if (Number(request.headers['content-length'] ?? 0) > cap)
    throw badInput(`the body is larger than ${cap} bytes: use an upload session`);
  return readUpload(request, cap);
}

/** Writes a Dropbox error as Dropbox does: JSON for endpoint and auth errors, text otherwise. */
export function sendDropboxFailure(response: ServerResponse, failure: DropboxError): void {
  const json = typeof failure.body !== 'string';
  const text = json ? JSON.stringify(failure.body) : (failure.body as string);
  response.writeHead(failure.status, {
    'Content-Type': json ? 'application/json' : 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    ...failure.headers,
  });
  response.end(text);
}

type Handler = (context: FakeRouteContext) => Promise<unknown>;

/** A route whose handler answers JSON (or streams itself), its Dropbox errors written as Dropbox's. */
function route(path: string, scopes: string[], handle: Handler): FakeRoute {
  return {
    method: 'POST',
    path,
    scopes,
    async handle(context) {
      try {
        const result = await handle(context);
        if (context.response.headersSent) return;
        const text = JSON.stringify(result);
        context.response.writeHead(200, {
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(text)),
        });
        context.response.end(text);
      } catch (error) {
        if (!(error instanceof DropboxError) || context.response.headersSent) throw error;
        sendDropboxFailure(context.response, error);
      }
    },
  };
}

const READ_METADATA = ['files.metadata.read'];
const READ_CONTENT = ['files.content.read'];
const WRITE = ['files.content.write'];

export function dropboxFileRoutes(): FakeRoute[] {
  return [
    route('/2/users/get_current_account', ['account_info.read'], async ({ grant, request }) => {
      await jsonBody(request, 'users/get_current_account');
      const [given, ...rest] = grant.name.split(' ');
      const namespace = namespaceOf(grant.accountId);
      return {
        account_id: dropboxAccountId(grant.accountId),
        name: {
          given_name: given ?? '',
          surname: rest.join(' '),
          familiar_name: given ?? '',
          display_name: grant.name,
          abbreviated_name: grant.name
            .split(' ')
            .map((part) => part[0] ?? '')
            .join(''),
        },
        email: grant.email,
        email_verified: true,
        disabled: false,
        country: 'US',
        locale: 'en',
        referral_link: `https://www.dropbox.com/referrals/${namespace}`,
        is_paired: false,
        account_type: { '.tag': 'basic' },
        // A personal account: its root is its home (a team member's is the team's root, `.tag` team).
        root_info: { '.tag': 'user', root_namespace_id: namespace, home_namespace_id: namespace },
      };
    }),
    route('/2/files/list_folder', READ_METADATA, async ({ tree, request }) =>
      listFolder(tree, await jsonBody(request, 'files/list_folder')),
    ),
    route('/2/files/list_folder/continue', READ_METADATA, async ({ tree, request }) => {
      const body = await jsonBody(request, 'files/list_folder/continue');
      const arg = parse(continueArg, body, 'files/list_folder/continue');
      const cursor = decode(arg.cursor, tree);
      return answerPage(listPage(tree, cursor, cursor.l ?? 500));
    }),
    route('/2/files/get_metadata', READ_METADATA, async ({ tree, request }) => {
      const arg = parse(metadataArg, await jsonBody(request, 'files/get_metadata'), 'files/get_metadata');
      if (arg.path === '') throw badInput('request body: path: The root folder is unsupported.');
      const node = resolve(tree, arg.path);
      if (!node) throw endpointError(['path', 'not_found']);
      return metadata(node);
    }),
    route('/content/2/files/download', READ_CONTENT, async ({ tree, request, response }) => {
      const arg = parse(downloadArg, headerArg(request), 'files/download');
      const node = resolve(tree, arg.path);
      if (!node) throw endpointError(['path', 'not_found']);
      if (node.type !== 'file') throw endpointError(['path', 'not_file']);
      response.writeHead(200, {
        'Content-Type': 'application/octet-stream',
        'Content-Length': String(node.content.size),
        'Dropbox-API-Result': headerSafe(fileMetadata(node)),
        ETag: `W/"${rev(node)}"`,
      });
      for (const chunk of contentChunks(node)) {
        if (response.destroyed) return undefined;
        if (!response.write(chunk)) await new Promise((resolve) => response.once('drain', resolve));
      }
      response.end();
      return undefined;
    }),
    route('/content/2/files/upload', WRITE, async ({ tree, request }) => {
      const arg = parse(commitArg, headerArg(request), 'files/upload');
      const upload = await octets(request, DROPBOX_UPLOAD_MAX);
      try {
        return commit(tree, arg, upload);
      } catch (error) {
        throw uploadWriteFailed(error);
      }
    }),
    route('/content/2/files/upload_session/start', WRITE, async ({ tree, request }) => {
      const arg = parse(startArg, headerArg(request), 'files/upload_session/start');
      const body = await octets(request, DROPBOX_UPLOAD_MAX);
      const id = `pid_upload_session:${createHash('sha256').update(`${Math.random()}:${Date.now()}`).digest('base64url').slice(0, 24)}`;
      sessions.set(id, { tree, chunks: [...body.chunks], offset: body.size, closed: arg.close === true });
      return { session_id: id };
    }),
    route('/content/2/files/upload_session/append_v2', WRITE, async ({ tree, request }) => {
      const arg = parse(appendArg, headerArg(request), 'files/upload_session/append_v2');
      const session = sessions.get(arg.cursor.session_id);
      if (!session || session.tree !== tree) throw endpointError(['not_found']);
      if (session.closed) throw endpointError(['closed']);
      if (arg.cursor.offset !== session.offset)
        throw endpointError(['incorrect_offset'], { correct_offset: session.offset });
      const body = await octets(request, DROPBOX_UPLOAD_MAX);
      session.chunks.push(...body.chunks);
      session.offset += body.size;
      session.closed = arg.close === true;
      return null;
    }),
    route('/content/2/files/upload_session/finish', WRITE, async ({ tree, request }) => {
      const arg = parse(finishArg, headerArg(request), 'files/upload_session/finish');
      const session = sessions.get(arg.cursor.session_id);
      if (!session || session.tree !== tree) throw endpointError(['lookup_failed', 'not_found']);
      if (arg.cursor.offset !== session.offset)
        throw endpointError(['lookup_failed', 'incorrect_offset'], { correct_offset: session.offset });
      const body = await octets(request, DROPBOX_UPLOAD_MAX);
      const chunks = [...session.chunks, ...body.chunks];
      const hash = createHash('sha256');
      for (const chunk of chunks) hash.update(chunk);
      sessions.delete(arg.cursor.session_id);
      return commit(tree, arg.commit, {
        chunks,
        size: session.offset + body.size,
        sha256: hash.digest('hex'),
      });
    }),
  ];
}
