// A fake of Dropbox API v2's file endpoints, written from its HTTP documentation
// (https://www.dropbox.com/developers/documentation/http/documentation), over the sandbox's account
// trees (../../content/tree.ts). Paths, as Dropbox serves them (the API host's and the content host's
// paths do not overlap, so one mount serves both):
//   POST /2/files/list_folder           {path, recursive?, include_deleted?, limit?}      files.metadata.read
//   POST /2/files/list_folder/continue  {cursor}                                          files.metadata.read
//        -> {entries: [{".tag": "file"|"folder"|"deleted", ...}], cursor, has_more}
//   POST /2/files/download        Dropbox-API-Arg {path}  -> bytes + Dropbox-API-Result  files.content.read
//   POST /2/files/upload          Dropbox-API-Arg {path, mode, autorename, mute, strict_conflict}, bytes
//                                 (at most 150 MiB) -> FileMetadata                     files.content.write
//   POST /2/files/upload_session/start      Dropbox-API-Arg {close?}, bytes -> {session_id}
//   POST /2/files/upload_session/append_v2  Dropbox-API-Arg {cursor: {session_id, offset}, close?} -> null
//   POST /2/files/upload_session/finish     Dropbox-API-Arg {cursor, commit}, bytes -> FileMetadata
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
import type { Clock } from '../../clock';
import { isoTime } from '../../clock';
import { readUpload } from '../../content/http';
import type { AccountTree, FileNode, FolderNode, TreeNode } from '../../content/tree';
import { contentChunks, isWithin, pathOf, sha256Of, walkChanges } from '../../content/tree';
import type { BearerGrant } from '../../content/types';

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

const authError = (tag: string, extra: Record<string, unknown> = {}) =>
  new DropboxError(401, { error_summary: `${tag}${suffix()}`, error: { '.tag': tag, ...extra } });

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

export interface DropboxFault {
  status: 401 | 429 | 500 | 503;
  /** For 429: which throttle (too_many_write_operations only hits writes). */
  reason?: 'too_many_requests' | 'too_many_write_operations';
  retryAfter?: number;
  remaining: number;
}

export interface DropboxFakeOptions {
  clock: Clock;
  /** The account's tree (shared with the sandbox's other providers' store). */
  tree(accountId: string): AccountTree;
  /** The live grant behind an access token, or undefined (unknown, expired, revoked). */
  bearer(token: string): BearerGrant | undefined;
  /** /2/auth/token/revoke: ends the grant of that access token. */
  revoke?(token: string): void;
  maxUploadBytes?: number;
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

export function createDropboxFake(options: DropboxFakeOptions) {
  const maxUpload = Math.min(options.maxUploadBytes ?? DROPBOX_UPLOAD_MAX, DROPBOX_UPLOAD_MAX);
  /** A moved file keeps its Dropbox id: new tree node id -> the id it had. */
  const movedIds = new Map<string, string>();
  const hashes = new WeakMap<FileNode, { version: number; hash: string }>();
  /** Per account: cursors issued before a reset (hook) answer `reset`. */
  const epochs = new Map<string, number>();
  const sessions = new Map<string, { account: string; chunks: Buffer[]; offset: number; closed: boolean }>();
  let faults: DropboxFault | undefined;
  let sessionCount = 0;

  const dropboxId = (node: TreeNode) => `id:${movedIds.get(node.id) ?? node.id}`;
  const hashOf = (file: FileNode) => {
    const cached = hashes.get(file);
    if (cached?.version === file.version) return cached.hash;
    const hash = contentHash(file);
    hashes.set(file, { version: file.version, hash });
    return hash;
  };

  const fileMetadata = (file: FileNode) => ({
    name: file.name,
    id: dropboxId(file),
    client_modified: isoTime(file.updatedAt).replace(/\.\d{3}Z$/, 'Z'),
    server_modified: isoTime(file.updatedAt).replace(/\.\d{3}Z$/, 'Z'),
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
  const deletedMetadata = (file: FileNode) => ({
    '.tag': 'deleted',
    name: file.name,
    path_lower: pathOf(file).toLowerCase(),
    path_display: pathOf(file),
  });

  /** A live child by name, compared case-insensitively as Dropbox compares paths. */
  function child(folder: FolderNode, name: string): TreeNode | undefined {
    const exact = folder.byName.get(name);
    if (exact) return exact;
    const lower = name.toLowerCase();
    for (const [key, node] of folder.byName) if (key.toLowerCase() === lower) return node;
    return undefined;
  }

  function nodeById(tree: AccountTree, id: string): TreeNode | undefined {
    if (id === 'root') return tree.root;
    for (const [nodeId, original] of movedIds) if (original === id) return tree.file(nodeId);
    return tree.folder(id) ?? tree.file(id);
  }

  /** The node a path names, or undefined; `parent`/`name` say where it would go. */
  function resolve(tree: AccountTree, path: string) {
    let at: FolderNode = tree.root;
    let rest = path;
    if (path.startsWith('id:')) {
      const [id, ...tail] = path.slice(3).split('/');
      const node = nodeById(tree, id!);
      if (!node) return { node: undefined, missingAt: 0 };
      if (!tail.length) return { node };
      if (node.type !== 'folder') throw endpointError(['path', 'not_folder']);
      at = node;
      rest = `/${tail.join('/')}`;
    }
    const names = rest.split('/').slice(1);
    if (rest === '' || rest === '/') return { node: at as TreeNode };
    for (let i = 0; i < names.length; i++) {
      const next = child(at, names[i]!);
      if (!next) return { node: undefined, parent: i === names.length - 1 ? at : undefined, name: names[i]! };
      if (i === names.length - 1) return { node: next };
      if (next.type !== 'folder') throw endpointError(['path', 'not_folder']);
      at = next;
    }
    return { node: at as TreeNode };
  }

  function folderAt(tree: AccountTree, path: string): FolderNode {
    const { node } = resolve(tree, path);
    if (!node) throw endpointError(['path', 'not_found']);
    if (node.type !== 'folder') throw endpointError(['path', 'not_folder']);
    return node;
  }

  const encode = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');

  function decode(raw: string, account: string): Cursor {
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    } catch {
      throw badInput('cursor: invalid');
    }
    const cursor = parse(cursorSchema, parsed, 'cursor');
    if (cursor.acct !== account) throw badInput('cursor: not for this account');
    if (cursor.epoch !== (epochs.get(account) ?? 0)) throw endpointError(['reset']);
    return cursor;
  }

  /** One page of a listing from `cursor`: children first (non-recursive) or the change walk. */
  function listPage(tree: AccountTree, cursor: Cursor, limit: number) {
    const folder = cursor.f === 'root' ? tree.root : tree.folder(cursor.f);
    if (!folder) throw endpointError(['path', 'not_found']);
    if (cursor.k === 'list') {
      const { items, more } = tree.children(folder, cursor.a ?? '', limit);
      const entries = items.map(metadata);
      if (more) return { entries, next: { ...cursor, a: items.at(-1)!.id }, more };
      // Listed: later calls report what changed among the folder's own files.
      const at = tree.changeSequence;
      return { entries, next: { ...cursor, k: 'walk' as const, a: undefined, s: at, v: at, w: at }, more };
    }
    const inScope = (file: FileNode) => (cursor.r ? isWithin(file, folder) : file.parent === folder);
    const page = walkChanges(
      tree,
      inScope,
      { since: cursor.s ?? null, after: cursor.v ?? 0, start: cursor.w ?? 0 },
      limit,
    );
    const entries = page.files.map((file) => (file.deleted ? deletedMetadata(file) : metadata(file)));
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
    for (const node of folder.byName.values())
      if (node.type === 'folder') out.push(node, ...subfolders(node));
    return out;
  }

  function listFolder(account: string, tree: AccountTree, body: unknown) {
    const arg = parse(listFolderArg, body, 'files/list_folder');
    const folder = folderAt(tree, arg.path);
    const limit = arg.limit ?? 500;
    const base = { acct: account, epoch: epochs.get(account) ?? 0, f: folder.id, r: arg.recursive === true };
    if (!arg.recursive) return answerPage(listPage(tree, { ...base, k: 'list' }, limit));
    // Recursive: the folders first, then every file through the change walk (a walk that began now).
    const start = tree.changeSequence;
    const page = listPage(tree, { ...base, k: 'walk', s: null, v: 0, w: start }, limit);
    return answerPage({ ...page, entries: [...subfolders(folder).map(metadata), ...page.entries] });
  }

  const answerPage = (page: { entries: unknown[]; next: Cursor; more: boolean }) => ({
    entries: page.entries,
    cursor: encode(page.next),
    has_more: page.more,
  });

  function uniqueName(folder: FolderNode, name: string): string {
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    for (let n = 1; ; n++) {
      const candidate = `${stem} (${n})${ext}`;
      if (!child(folder, candidate)) return candidate;
    }
  }

  function ensureFolder(tree: AccountTree, path: string): FolderNode {
    // The parent folders of an upload are made as needed, as Dropbox does.
    const slash = path.lastIndexOf('/');
    const parentPath = path.slice(0, slash);
    if (parentPath === '' && !path.startsWith('id:')) return tree.root;
    const found = resolve(tree, parentPath);
    if (found.node?.type === 'folder') return found.node;
    if (found.node) throw endpointError(['path', 'conflict', 'file']);
    if (parentPath.startsWith('id:') && !parentPath.includes('/')) throw endpointError(['path', 'not_found']);
    const grand = ensureFolder(tree, parentPath);
    return tree.addFolder(grand, parentPath.slice(parentPath.lastIndexOf('/') + 1));
  }

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
      const identical = !arg.strict_conflict && sha256Of(existing) === upload.sha256;
      const updatesIt =
        modeTag === 'update' &&
        typeof arg.mode === 'object' &&
        'update' in arg.mode &&
        arg.mode.update === rev(existing);
      if (identical) return fileMetadata(existing);
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

  async function jsonBody(request: IncomingMessage, where: string): Promise<unknown> {
    const type = request.headers['content-type'] ?? '';
    const { chunks } = await readUpload(request, 1 * MiB);
    const text = Buffer.concat(chunks).toString('utf8');
    if (!/^application\/json\b/.test(type) && text !== '' && text !== 'null')
      throw badInput(`${where}: Bad HTTP "Content-Type" header: "${type}". Expecting "application/json".`);
    try {
      return text ? (JSON.parse(text) as unknown) : null;
    } catch {
      throw badInput(`${where}: could not decode input as JSON`);
    }
  }

  async function octets(request: IncomingMessage, cap: number) {
    const type = request.headers['content-type'];
    if (
      type !== undefined &&
      type !== 'application/octet-stream' &&
      type !== 'text/plain; charset=dropbox-cors-hack'
    )
      throw badInput(`Bad HTTP "Content-Type" header: "${type}". Expecting "application/octet-stream".`);
    try {
      return await readUpload(request, cap);
    } catch (error) {
      if (error instanceof Error && /larger than/.test(error.message))
        throw badInput(`the body is larger than ${cap} bytes: use an upload session`);
      throw error;
    }
  }

  type Handler = (context: {
    account: string;
    tree: AccountTree;
    request: IncomingMessage;
    response: ServerResponse;
    token: string;
  }) => Promise<unknown>;

  const WRITES = new Set([
    'files/upload',
    'files/upload_session/start',
    'files/upload_session/append_v2',
    'files/upload_session/finish',
  ]);
  const routes: Record<string, { scope: string; handle: Handler }> = {
    'users/get_current_account': {
      scope: 'account_info.read',
      handle: async ({ account, request }) => {
        await jsonBody(request, 'users/get_current_account');
        return {
          account_id: `dbid:${account}`,
          name: {
            given_name: 'Sandbox',
            surname: account,
            familiar_name: 'Sandbox',
            display_name: `Sandbox ${account}`,
            abbreviated_name: 'SB',
          },
          email: `${account}@dropbox.sandbox.example`,
          email_verified: true,
          disabled: false,
          country: 'US',
          locale: 'en',
          is_paired: false,
          account_type: { '.tag': 'basic' },
        };
      },
    },
    'auth/token/revoke': {
      scope: '',
      handle: async ({ token, request }) => {
        await jsonBody(request, 'auth/token/revoke');
        options.revoke?.(token);
        return null;
      },
    },
    'files/list_folder': {
      scope: 'files.metadata.read',
      handle: async ({ account, tree, request }) =>
        listFolder(account, tree, await jsonBody(request, 'files/list_folder')),
    },
    'files/list_folder/continue': {
      scope: 'files.metadata.read',
      handle: async ({ account, tree, request }) => {
        const arg = parse(
          continueArg,
          await jsonBody(request, 'files/list_folder/continue'),
          'files/list_folder/continue',
        );
        return answerPage(listPage(tree, decode(arg.cursor, account), 500));
      },
    },
    'files/download': {
      scope: 'files.content.read',
      handle: async ({ tree, request, response }) => {
        const arg = parse(downloadArg, headerArg(request), 'files/download');
        const { node } = resolve(tree, arg.path);
        if (!node) throw endpointError(['path', 'not_found']);
        if (node.type !== 'file') throw endpointError(['path', 'not_file']);
        const result = JSON.stringify(fileMetadata(node)).replace(
          /[\u007f-\uffff]/g,
          (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
        );
        response.writeHead(200, {
          'Content-Type': 'application/octet-stream',
          'Content-Length': String(node.content.size),
          'Dropbox-API-Result': result,
          ETag: `W/"${rev(node)}"`,
        });
        for (const chunk of contentChunks(node)) {
          if (!response.write(chunk)) await new Promise((resolve) => response.once('drain', resolve));
          if (response.destroyed) return undefined;
        }
        response.end();
        return undefined;
      },
    },
    'files/upload': {
      scope: 'files.content.write',
      handle: async ({ tree, request }) => {
        const arg = parse(commitArg, headerArg(request), 'files/upload');
        return commit(tree, arg, await octets(request, maxUpload));
      },
    },
    'files/upload_session/start': {
      scope: 'files.content.write',
      handle: async ({ account, request }) => {
        const arg = parse(startArg, headerArg(request), 'files/upload_session/start');
        const body = await octets(request, DROPBOX_UPLOAD_MAX);
        const id = `pid_upload_session:${(++sessionCount).toString(36)}${Math.random().toString(36).slice(2, 10)}`;
        sessions.set(id, {
          account,
          chunks: [...body.chunks],
          offset: body.size,
          closed: arg.close === true,
        });
        return { session_id: id };
      },
    },
    'files/upload_session/append_v2': {
      scope: 'files.content.write',
      handle: async ({ account, request }) => {
        const arg = parse(appendArg, headerArg(request), 'files/upload_session/append_v2');
        const session = sessions.get(arg.cursor.session_id);
        if (!session || session.account !== account) throw endpointError(['not_found']);
        if (session.closed) throw endpointError(['closed']);
        if (arg.cursor.offset !== session.offset)
          throw endpointError(['incorrect_offset'], { correct_offset: session.offset });
        const body = await octets(request, DROPBOX_UPLOAD_MAX);
        session.chunks.push(...body.chunks);
        session.offset += body.size;
        session.closed = arg.close === true;
        return null;
      },
    },
    'files/upload_session/finish': {
      scope: 'files.content.write',
      handle: async ({ account, tree, request }) => {
        const arg = parse(finishArg, headerArg(request), 'files/upload_session/finish');
        const session = sessions.get(arg.cursor.session_id);
        if (!session || session.account !== account) throw endpointError(['lookup_failed', 'not_found']);
        if (arg.cursor.offset !== session.offset)
          throw endpointError(['lookup_failed', 'incorrect_offset'], { correct_offset: session.offset });
        const body = await octets(request, DROPBOX_UPLOAD_MAX);
        const chunks = [...session.chunks, ...body.chunks];
        const size = session.offset + body.size;
        const hash = createHash('sha256');
        for (const chunk of chunks) hash.update(chunk);
        sessions.delete(arg.cursor.session_id);
        return commit(tree, arg.commit, { chunks, size, sha256: hash.digest('hex') });
      },
    },
  };

  function takeFault(route: string): DropboxError | undefined {
    if (!faults) return undefined;
    if (faults.reason === 'too_many_write_operations' && !WRITES.has(route)) return undefined;
    const fault = faults;
    if (--fault.remaining <= 0) faults = undefined;
    if (fault.status === 401) return authError('invalid_access_token');
    if (fault.status === 429) return rateLimited(fault.reason ?? 'too_many_requests', fault.retryAfter ?? 1);
    return new DropboxError(
      fault.status,
      fault.status === 503 ? 'Service Unavailable' : 'Internal Server Error',
      fault.status === 503 && fault.retryAfter !== undefined
        ? { 'Retry-After': String(fault.retryAfter) }
        : {},
    );
  }

  async function handle(route: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const entry = routes[route];
    if (!entry) throw new DropboxError(404, 'Unknown API function');
    if (request.method !== 'POST') throw new DropboxError(405, 'Only POST is allowed');
    const fault = takeFault(route);
    if (fault) throw fault;
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const grant = token ? options.bearer(token) : undefined;
    if (!token || !grant) throw authError('invalid_access_token');
    if (entry.scope && !grant.scopes.includes(entry.scope))
      throw authError('missing_scope', { required_scope: entry.scope });
    const result = await entry.handle({
      account: grant.accountId,
      tree: options.tree(grant.accountId),
      request,
      response,
      token,
    });
    if (response.headersSent) return;
    const text = JSON.stringify(result);
    response.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(text)),
    });
    response.end(text);
  }

  function answerError(response: ServerResponse, error: unknown) {
    if (response.headersSent) return void response.destroy();
    const failure = error instanceof DropboxError ? error : new DropboxError(500, 'Internal Server Error');
    const json = typeof failure.body !== 'string';
    const text = json ? JSON.stringify(failure.body) : (failure.body as string);
    response.writeHead(failure.status, {
      'Content-Type': json ? 'application/json' : 'text/plain; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(text)),
      ...failure.headers,
    });
    response.end(text);
  }

  return {
    /** Serves `path` (e.g. /2/files/list_folder) when it is a Dropbox endpoint; false otherwise. */
    serve(path: string, request: IncomingMessage, response: ServerResponse): boolean {
      if (!path.startsWith('/2/')) return false;
      handle(path.slice(3), request, response).catch((error: unknown) => answerError(response, error));
      return true;
    },
    /** Test hooks: faults, cursor resets, moves. */
    hooks: {
      fail(fault: Omit<DropboxFault, 'remaining'> & { count?: number }) {
        faults = { ...fault, remaining: fault.count ?? 1 };
      },
      /** Every cursor of the account issued so far answers `reset`. */
      resetCursors(account: string) {
        epochs.set(account, (epochs.get(account) ?? 0) + 1);
      },
      /** Moves (or renames) a file: the old path is deleted and the new one made, with the same id. */
      move(tree: AccountTree, fileId: string, to: FolderNode, name: string): FileNode {
        const file = tree.file(fileId);
        if (!file) throw new Error(`no file ${fileId}`);
        const original = movedIds.get(file.id) ?? file.id;
        tree.deleteFile(file);
        const { file: moved } = tree.putFile(to, name, {
          contentType: file.contentType,
          content: file.content,
        });
        movedIds.set(moved.id, original);
        return moved;
      },
    },
  };
}

export type DropboxFake = ReturnType<typeof createDropboxFake>;
