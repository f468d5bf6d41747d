// Box API 2.0's file endpoints, written from Box's API reference (https://developer.box.com/reference/)
// and its OpenAPI description (box/box-openapi), over the sandbox's account trees. Paths under the
// fake's prefix: the API host's under /2.0 (API_URL `<origin>/box/2.0` stands for
// https://api.box.com/2.0), the upload host's under /upload/api/2.0 (UPLOAD_URL), the download host's
// under /dl (pre-signed: no bearer).
//   GET    /2.0/users/me                                 the account (User)
//   GET    /2.0/folders/{id}[?fields]                    a folder (`0` is the root, All Files)
//   GET    /2.0/folders/{id}/items?usemarker=true&marker&limit&fields   marker paging (or offset)
//   GET    /2.0/files/{id}[?fields]                      a file
//   GET    /2.0/files/{id}/content                       302 to the download host
//   PUT    /2.0/files/{id}  {name?, parent?: {id}}       rename or move
//   DELETE /2.0/files/{id} | /2.0/folders/{id}?recursive=true    to the trash
//   POST   /2.0/files/{id} | /2.0/folders/{id}           restore from the trash
//   GET    /2.0/events?stream_type=changes&stream_position&limit    the user's events
//   POST   /upload/api/2.0/files/content                 multipart: `attributes` {name, parent}, then `file`
//   POST   /upload/api/2.0/files/{id}/content            a new version (If-Match its etag)
//   POST   /upload/api/2.0/files[/{id}]/upload_sessions  a chunked session (files from 20 MB)
//   PUT    /upload/api/2.0/files/upload_sessions/{sid}   a part: Content-Range, Digest sha=<base64 SHA-1>
//   POST   /upload/api/2.0/files/upload_sessions/{sid}/commit   {parts}, Digest of the whole file
//   DELETE /upload/api/2.0/files/upload_sessions/{sid}   abort
// Scopes: root_readonly reads, root_readwrite reads and writes. Errors as Box words them: JSON
// `{type: "error", status, code, message, help_url, request_id, context_info?}`; a name taken is 409
// `item_name_in_use` with the conflicting item in `context_info.conflicts`; 401 has no body, only
// WWW-Authenticate. Ids: the tree's hex ids read as decimal numbers (Box's ids are digits).
//
// Events are the tree's change log read as Box's stream: the stream position is the change sequence; a
// file changed since is ITEM_UPLOAD (ITEM_MOVE after a move or rename, ITEM_UNDELETE_VIA_TRASH after a
// restore), a file deleted is ITEM_TRASH, and the files of a folder trashed, restored or moved at once
// are that folder's ITEM_TRASH, ITEM_UNDELETE_VIA_TRASH or ITEM_MOVE alone, as Box reports them.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isoTime } from '../../clock';
import { jsonAndFileParts, readUpload, sendContent } from '../../content/http';
import type { AccountTree, FileNode, FolderNode, TreeNode } from '../../content/tree';
import { NameTakenError, contentChunks } from '../../content/tree';
import type { ProviderIds } from '../../content/types';
import type { FakeRoute, FakeRouteContext } from '../fake';

export const BOX_READ = 'root_readonly';
export const BOX_WRITE = 'root_readwrite';
const READ = [BOX_READ, BOX_WRITE];
const WRITE = [BOX_WRITE];

/** Box refuses a session for a smaller file ("file_size_too_small"). */
export const BOX_SESSION_MIN_BYTES = 20_000_000;
/** The part size Box gives sessions of the sizes the sandbox serves. */
export const BOX_PART_BYTES = 8 * 1024 * 1024;
const PAGE_MAX = 1000;
const EVENTS_MAX = 500;

/** A Box answer other than success. */
export class BoxError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly contextInfo?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export function sendBoxFailure(response: ServerResponse, error: BoxError): void {
  if (error.status === 401) {
    // Box answers a bad token with no body, its reason in WWW-Authenticate.
    response.writeHead(401, {
      'WWW-Authenticate':
        'Bearer realm="Service", error="invalid_token", error_description="The access token provided is invalid."',
      'Content-Length': '0',
      ...error.headers,
    });
    response.end();
    return;
  }
  const text = JSON.stringify({
    type: 'error',
    status: error.status,
    code: error.code,
    message: error.message,
    ...(error.contextInfo ? { context_info: error.contextInfo } : {}),
    help_url: 'https://developer.box.com/guides/api-calls/permissions-and-errors/common-errors/',
    request_id: randomBytes(8).toString('hex'),
  });
  response.writeHead(error.status, {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(text)),
    ...error.headers,
  });
  response.end(text);
}

/**
 * A restore whose original folder is in the trash: Box puts an item back in its folder only while that
 * is there, else in the parent the request names (a folder's restore here takes none).
 */
const parentTrashed = (item: 'file' | 'folder') =>
  new BoxError(403, 'forbidden', `The ${item}'s folder is in the trash: restore that folder first`);
const badRequest = (message: string) => new BoxError(400, 'bad_request', message);
const notFound = (message = 'Not Found') => new BoxError(404, 'not_found', message);

// Ids: `fld_<16 hex>` / `fil_<16 hex>` in the tree, the same 64-bit number in decimal at Box.
const numeric = (node: TreeNode) => BigInt(`0x${node.id.slice(4)}`).toString(10);
export const boxIds: ProviderIds = {
  providerId: (tree, node) => (node === tree.root ? '0' : numeric(node)),
  treeId(tree, id) {
    if (id === '0') return tree.root.id;
    if (!/^\d{1,20}$/.test(id) || BigInt(id) >= 2n ** 64n) return undefined;
    const hex = BigInt(id).toString(16).padStart(16, '0');
    // A trashed folder keeps its id (a restore names it), as a trashed file does.
    return [`fld_${hex}`, `fil_${hex}`].find(
      (candidate) => tree.folder(candidate) ?? tree.deletedFolder(candidate) ?? anyFile(tree, candidate),
    );
  },
};

/** A file by tree id, trashed ones too (restore reads them). */
function anyFile(tree: AccountTree, id: string): FileNode | undefined {
  return tree.file(id) ?? tree.changesAfter(0, (f) => f.id === id, 1).files[0];
}

export const boxUserId = (account: string) =>
  String(createHash('sha256').update(`box-user\u0000${account}`).digest().readUInt32BE(0) + 10_000_000);

const stamp = (ms: number) => isoTime(ms).replace(/\.\d{3}Z$/, 'Z');

const sha1s = new WeakMap<FileNode, { version: number; hex: string }>();
function sha1Of(file: FileNode): string {
  const cached = sha1s.get(file);
  if (cached?.version === file.version) return cached.hex;
  const hash = createHash('sha1');
  for (const chunk of contentChunks(file)) hash.update(chunk);
  const hex = hash.digest('hex');
  sha1s.set(file, { version: file.version, hex });
  return hex;
}

function folderMini(tree: AccountTree, folder: FolderNode) {
  return {
    type: 'folder',
    id: boxIds.providerId(tree, folder),
    sequence_id: folder === tree.root ? null : '0',
    etag: folder === tree.root ? null : '0',
    name: folder === tree.root ? 'All Files' : folder.name,
  };
}

function pathCollection(tree: AccountTree, node: TreeNode) {
  if (node.type === 'file' && node.deleted)
    return {
      total_count: 1,
      entries: [{ type: 'folder', id: '1', sequence_id: null, etag: null, name: 'Trash' }],
    };
  const entries = [];
  for (let at = node.parent; at; at = at.parent) entries.unshift(folderMini(tree, at));
  return { total_count: entries.length, entries };
}

function userMini(grant: { accountId: string; name: string; email: string }) {
  return { type: 'user', id: boxUserId(grant.accountId), name: grant.name, login: grant.email };
}

type Owner = { accountId: string; name: string; email: string };

/** The standard (and full) representation of a file, every field the fake knows. */
function fileFull(tree: AccountTree, file: FileNode, owner: Owner) {
  const sha1 = sha1Of(file);
  const id = numeric(file);
  const user = userMini(owner);
  return {
    type: 'file',
    id,
    etag: String(file.version),
    sequence_id: String(file.version),
    name: file.name,
    sha1,
    file_version: { type: 'file_version', id: String(file.version), sha1 },
    description: '',
    size: file.content.size,
    path_collection: pathCollection(tree, file),
    created_at: stamp(file.updatedAt),
    modified_at: stamp(file.updatedAt),
    trashed_at: file.deleted ? stamp(file.updatedAt) : null,
    purged_at: null,
    content_created_at: stamp(file.updatedAt),
    content_modified_at: stamp(file.updatedAt),
    created_by: user,
    modified_by: user,
    owned_by: user,
    shared_link: null,
    parent: file.deleted ? null : folderMini(tree, file.parent),
    item_status: file.deleted ? 'trashed' : 'active',
  };
}

/** The fields of a folder the fake knows (its Full representation). */
function folderFull(tree: AccountTree, folder: FolderNode, owner: Owner) {
  const user = userMini(owner);
  return {
    ...folderMini(tree, folder),
    created_at: folder === tree.root ? null : stamp(folder.updatedAt),
    modified_at: folder === tree.root ? null : stamp(folder.updatedAt),
    description: '',
    size: 0,
    path_collection: pathCollection(tree, folder),
    created_by: user,
    modified_by: user,
    trashed_at: null,
    purged_at: null,
    content_created_at: null,
    content_modified_at: null,
    owned_by: user,
    shared_link: null,
    parent: folder.parent ? folderMini(tree, folder.parent) : null,
    item_status: 'active',
  };
}

/** Only the fields asked for, with the base ones (type, id, etag) Box always sends. */
function select<T extends Record<string, unknown>>(
  full: T,
  fields: string | null,
  mini: readonly string[],
): Partial<T> {
  const names = fields === null ? mini : ['type', 'id', 'etag', ...fields.split(',').map((f) => f.trim())];
  const out: Partial<T> = {};
  for (const name of names) if (name in full) out[name as keyof T] = full[name as keyof T];
  return out;
}

const FILE_MINI = ['type', 'id', 'sequence_id', 'etag', 'sha1', 'name', 'file_version'];
const FOLDER_MINI = ['type', 'id', 'sequence_id', 'etag', 'name'];

/** An item in a listing: a file as the request's fields select, a folder in its mini form's fields. */
function listed(tree: AccountTree, node: TreeNode, fields: string | null, owner: Owner) {
  if (node.type === 'file') return select(fileFull(tree, node, owner), fields, FILE_MINI);
  const mini = folderMini(tree, node);
  return select(
    mini,
    fields === null
      ? null
      : fields
          .split(',')
          .filter((f) => f in mini)
          .join(','),
    FOLDER_MINI,
  );
}

function nodeOf(tree: AccountTree, id: string, kind: 'file' | 'folder'): TreeNode {
  const treeId = /^\d{1,20}$/.test(id) ? boxIds.treeId(tree, id) : undefined;
  const node = treeId
    ? kind === 'folder'
      ? treeId === tree.root.id
        ? tree.root
        : tree.folder(treeId)
      : tree.file(treeId)
    : undefined;
  if (!node) throw notFound(`Could not find the specified resource`);
  return node;
}

const folderOf = (tree: AccountTree, id: string) => nodeOf(tree, id, 'folder') as FolderNode;
const fileOf = (tree: AccountTree, id: string) => nodeOf(tree, id, 'file') as FileNode;

/** A live item of that name in the folder, compared case-insensitively as Box compares names. */
function named(folder: FolderNode, name: string): TreeNode | undefined {
  const lower = name.toLowerCase();
  for (const [key, node] of folder.byName) if (key.toLowerCase() === lower) return node;
  return undefined;
}

function conflictOf(tree: AccountTree, node: TreeNode): BoxError {
  const conflict =
    node.type === 'file'
      ? {
          type: 'file',
          id: numeric(node),
          sequence_id: String(node.version),
          etag: String(node.version),
          sha1: sha1Of(node),
          name: node.name,
          file_version: { type: 'file_version', id: String(node.version), sha1: sha1Of(node) },
        }
      : folderMini(tree, node);
  return new BoxError(
    409,
    'item_name_in_use',
    'Item with the same name already exists',
    {},
    { conflicts: [conflict] },
  );
}

/** Box's name rules: 1-255 characters, no / or \, not . or .., no leading or trailing space, printable. */
function checkName(name: unknown): string {
  if (
    typeof name !== 'string' ||
    !name ||
    name.length > 255 ||
    /[/\\]/.test(name) ||
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f]/.test(name) ||
    name === '.' ||
    name === '..' ||
    /^\s|\s$/.test(name)
  )
    throw new BoxError(400, 'item_name_invalid', 'Item name invalid');
  return name;
}

// Markers: the folder and the last id of the page, signed so a client cannot forge one.
const SECRET = randomBytes(32);
const sign = (text: string) => createHmac('sha256', SECRET).update(text).digest('base64url').slice(0, 22);
const marker = (folder: string, after: string) => {
  const body = Buffer.from(JSON.stringify([folder, after])).toString('base64url');
  return `${body}.${sign(body)}`;
};
function readMarker(raw: string, folder: string): string {
  const [body, mac] = raw.split('.');
  if (!body || mac !== sign(body)) throw badRequest('Invalid value for marker');
  const [of, after] = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as [string, string];
  if (of !== folder) throw badRequest('Invalid value for marker');
  return after;
}

function limitOf(query: URLSearchParams, max: number, fallback: number): number {
  const raw = query.get('limit');
  if (raw === null) return fallback;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) < 1) throw badRequest('Invalid value for limit');
  return Math.min(Number(raw), max);
}

function items(context: FakeRouteContext) {
  const { tree, query, grant } = context;
  const folder = folderOf(tree, context.params.id!);
  const fields = query.get('fields');
  if (query.get('usemarker') === 'true') {
    const limit = limitOf(query, PAGE_MAX, 100);
    const after = query.get('marker') ? readMarker(query.get('marker')!, folder.id) : '';
    const { items: page, more } = tree.children(folder, after, limit);
    return {
      entries: page.map((node) => listed(tree, node, fields, grant)),
      limit,
      next_marker: more ? marker(folder.id, page.at(-1)!.id) : null,
    };
  }
  const limit = limitOf(query, PAGE_MAX, 100);
  const offset = Number(query.get('offset') ?? 0);
  if (!Number.isSafeInteger(offset) || offset < 0) throw badRequest('Invalid value for offset');
  const all = tree.children(folder, '', Number.MAX_SAFE_INTEGER).items;
  return {
    total_count: all.length,
    entries: all.slice(offset, offset + limit).map((node) => listed(tree, node, fields, grant)),
    offset,
    limit,
    order: [{ by: 'type', direction: 'ASC' }],
  };
}

// The events stream over the tree's change log.
function events(context: FakeRouteContext) {
  const { tree, query, grant } = context;
  const type = query.get('stream_type') ?? 'all';
  if (!['all', 'changes', 'sync'].includes(type)) throw badRequest('Invalid value for stream_type');
  const raw = query.get('stream_position') ?? '0';
  if (raw === 'now') return { chunk_size: 0, next_stream_position: String(tree.changeSequence), entries: [] };
  if (!/^\d{1,20}$/.test(raw)) throw badRequest('Invalid value for stream_position');
  const position = Number(raw);
  if (position < tree.feedResetAt) throw badRequest('stream_position is no longer valid');
  const limit = limitOf(query, EVENTS_MAX, 100);
  const { files } = tree.changesAfter(position, () => true, limit);
  const entries: unknown[] = [];
  const folders = new Set<string>();
  const user = userMini(grant);
  const event = (eventType: string, source: unknown, at: number, key: string) => ({
    type: 'event',
    event_id: createHash('sha1').update(`${tree.accountId}\u0000${key}`).digest('hex'),
    created_by: user,
    created_at: stamp(at),
    recorded_at: stamp(at),
    event_type: eventType,
    source,
  });
  // The tree records how a file was trashed or restored (by the API here or by a test hook standing
  // for the user), so both read as Box reports them: the files of a folder trashed or restored at once
  // are that folder's event alone.
  const folderEvent = (eventType: string, folder: FolderNode, file: FileNode, sequence: string) => {
    const id = numeric(folder);
    if (!folders.has(id))
      entries.push(
        event(
          eventType,
          { type: 'folder', id, sequence_id: sequence, etag: sequence, name: folder.name },
          file.updatedAt,
          `folder\u0000${id}\u0000${file.version}`,
        ),
      );
    folders.add(id);
  };
  for (const file of files) {
    if (file.deleted && file.deletedWithFolder) {
      folderEvent('ITEM_TRASH', file.deletedWithFolder, file, '1');
      continue;
    }
    const restored = file.restored?.version === file.version ? file.restored : undefined;
    if (restored?.folder) {
      folderEvent('ITEM_UNDELETE_VIA_TRASH', restored.folder, file, '2');
      continue;
    }
    const place = file.formerPlaces?.at(-1);
    const moved = place?.until === file.version;
    // A folder moved (by the user, the test hook) takes its files along: Box reports the folder's
    // ITEM_MOVE alone, not one per file.
    if (moved && place?.withFolder && !file.deleted) {
      folderEvent('ITEM_MOVE', place.withFolder.folder, file, '3');
      continue;
    }
    const kind = file.deleted
      ? 'ITEM_TRASH'
      : restored
        ? 'ITEM_UNDELETE_VIA_TRASH'
        : moved
          ? 'ITEM_MOVE'
          : 'ITEM_UPLOAD';
    entries.push(event(kind, fileFull(tree, file, grant), file.updatedAt, `${file.id}\u0000${file.version}`));
  }
  const next = files.length ? files.at(-1)!.version : Math.max(position, tree.changeSequence);
  return { chunk_size: entries.length, next_stream_position: String(next), entries };
}

// Uploads.
interface Part {
  part_id: string;
  offset: number;
  size: number;
  sha1: string;
  bytes: Buffer;
}
interface Session {
  tree: AccountTree;
  folder?: FolderNode;
  file?: FileNode;
  name: string;
  size: number;
  parts: Map<number, Part>;
  expires: number;
}
const sessions = new Map<string, Session>();

function multipart(
  request: IncomingMessage,
  body: Buffer,
): { attributes: Record<string, unknown>; bytes: Buffer; type: string } {
  // Box reads `attributes` first.
  const { json, bytes, type } = jsonAndFileParts(
    request,
    body,
    { json: 'attributes', file: 'file' },
    badRequest,
  );
  return { attributes: json, bytes, type };
}

function checkIfMatch(request: IncomingMessage, file: FileNode): void {
  const match = request.headers['if-match'];
  if (match !== undefined && match.replace(/"/g, '').trim() !== String(file.version))
    throw new BoxError(
      412,
      'precondition_failed',
      'The resource has been modified. Please retrieve the resource again and retry',
    );
}

/** Writes bytes as a new file in `folder` (a name taken: 409) or a new version of `file`. */
function write(
  tree: AccountTree,
  target: { folder: FolderNode; name: string } | { file: FileNode; name?: string },
  bytes: Buffer,
  contentType: string,
): FileNode {
  const content = { kind: 'bytes' as const, chunks: [bytes], size: bytes.length };
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if ('folder' in target) {
    const taken = named(target.folder, target.name);
    if (taken) throw conflictOf(tree, taken);
    return tree.putFile(target.folder, target.name, { contentType, content, sha256 }).file;
  }
  const { file } = target;
  if (target.name && target.name !== file.name) {
    const taken = named(file.parent, target.name);
    if (taken && taken !== file) throw conflictOf(tree, taken);
    tree.moveFile(file, file.parent, target.name);
  }
  return tree.putFile(file.parent, file.name, { contentType, content, sha256 }).file;
}

const digestOf = (request: IncomingMessage): string => {
  const digest = /^sha=(\S+)$/.exec(String(request.headers.digest ?? ''))?.[1];
  if (!digest) throw badRequest('A Digest header "sha=<base64 SHA-1>" is required');
  return digest;
};

function sessionOf(context: FakeRouteContext): Session {
  const session = sessions.get(context.params.sid!);
  if (!session || session.tree !== context.tree || session.expires < context.now)
    throw notFound('Could not find the specified upload session');
  return session;
}

function startSession(
  context: FakeRouteContext,
  body: Record<string, unknown>,
  file?: FileNode,
): Session & { id: string } {
  const size = body.file_size;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0)
    throw badRequest('file_size is required');
  if (size < BOX_SESSION_MIN_BYTES)
    throw new BoxError(
      400,
      'bad_request',
      `file_size_too_small: sessions take files of ${BOX_SESSION_MIN_BYTES} bytes or more`,
    );
  let folder: FolderNode | undefined;
  let name: string;
  if (file) {
    name = body.file_name === undefined ? file.name : checkName(body.file_name);
    if (name !== file.name) {
      const taken = named(file.parent, name);
      if (taken && taken !== file) throw conflictOf(context.tree, taken);
    }
  } else {
    folder = folderOf(context.tree, String(body.folder_id ?? ''));
    name = checkName(body.file_name);
    const taken = named(folder, name);
    if (taken) throw conflictOf(context.tree, taken);
  }
  const id = randomBytes(16).toString('hex').toUpperCase();
  const session = {
    tree: context.tree,
    folder,
    file,
    name,
    size,
    parts: new Map<number, Part>(),
    expires: context.now + 7 * 86_400_000,
  };
  sessions.set(id, session);
  return { ...session, id };
}

function sessionView(context: FakeRouteContext, id: string, session: Session) {
  const base = `${context.origin}/box/upload/api/2.0/files/upload_sessions/${id}`;
  return {
    type: 'upload_session',
    id,
    session_expires_at: stamp(session.expires),
    part_size: BOX_PART_BYTES,
    total_parts: Math.max(1, Math.ceil(session.size / BOX_PART_BYTES)),
    num_parts_processed: session.parts.size,
    session_endpoints: {
      upload_part: base,
      commit: `${base}/commit`,
      abort: base,
      list_parts: `${base}/parts`,
      status: base,
      log_event: `${base}/log`,
    },
  };
}

async function jsonBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const { chunks } = await readUpload(request, 1024 * 1024);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    const value = JSON.parse(text || '{}') as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // refused below
  }
  throw badRequest('The body is not a JSON object');
}

type Handler = (context: FakeRouteContext) => Promise<unknown> | unknown;

/** A route answering JSON with `status` (or streaming / redirecting itself), its BoxErrors as Box's. */
function route(
  method: FakeRoute['method'],
  path: string,
  scopes: string[],
  handle: Handler,
  status = 200,
  anonymous = false,
): FakeRoute {
  return {
    method,
    path,
    scopes,
    anonymous,
    async handle(context) {
      try {
        const result = await handle(context);
        if (context.response.headersSent) return;
        if (result === undefined) {
          context.response.writeHead(204).end();
          return;
        }
        const text = JSON.stringify(result);
        context.response.writeHead(status, {
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(text)),
        });
        context.response.end(text);
      } catch (error) {
        if (context.response.headersSent) throw error;
        if (error instanceof NameTakenError)
          return sendBoxFailure(
            context.response,
            new BoxError(409, 'conflict', 'Item with the same name already exists'),
          );
        if (!(error instanceof BoxError)) throw error;
        sendBoxFailure(context.response, error);
      }
    },
  };
}

const downloadSig = (account: string, id: string, version: number) =>
  sign(`dl\u0000${account}\u0000${id}\u0000${version}`);

export function boxFileRoutes(): FakeRoute[] {
  return [
    route('GET', '/2.0/users/me', READ, ({ grant, now }) => ({
      type: 'user',
      id: boxUserId(grant.accountId),
      name: grant.name,
      login: grant.email,
      created_at: stamp(now),
      modified_at: stamp(now),
      language: 'en',
      timezone: 'America/Los_Angeles',
      space_amount: 10_737_418_240,
      space_used: 0,
      max_upload_size: 5_368_709_120,
      status: 'active',
      avatar_url: `https://app.box.com/api/avatar/large/${boxUserId(grant.accountId)}`,
    })),
    route('GET', '/2.0/folders/{id}', READ, (context) => {
      const folder = folderOf(context.tree, context.params.id!);
      return select(
        folderFull(context.tree, folder, context.grant),
        context.query.get('fields'),
        Object.keys(folderFull(context.tree, folder, context.grant)),
      );
    }),
    route('GET', '/2.0/folders/{id}/items', READ, items),
    route('GET', '/2.0/files/{id}', READ, (context) => {
      const full = fileFull(context.tree, fileOf(context.tree, context.params.id!), context.grant);
      return select(full, context.query.get('fields'), Object.keys(full));
    }),
    route('GET', '/2.0/files/{id}/content', READ, (context) => {
      const file = fileOf(context.tree, context.params.id!);
      const account = Buffer.from(context.grant.accountId).toString('base64url');
      const id = numeric(file);
      context.response.writeHead(302, {
        Location: `${context.origin}/box/dl/${account}/${id}/${file.version}/${downloadSig(context.grant.accountId, id, file.version)}`,
        'Content-Length': '0',
      });
      context.response.end();
    }),
    route(
      'GET',
      '/dl/{account}/{id}/{version}/{sig}',
      [],
      async (context) => {
        const account = Buffer.from(context.params.account!, 'base64url').toString('utf8');
        const version = Number(context.params.version);
        if (context.params.sig !== downloadSig(account, context.params.id!, version))
          throw new BoxError(403, 'forbidden', 'Forbidden');
        const tree = context.treeOf(account);
        const file = fileOf(tree, context.params.id!);
        if (file.version !== version) throw notFound('The file changed since the link was made');
        await sendContent(context.request, context.response, file);
      },
      200,
      true,
    ),
    route('PUT', '/2.0/files/{id}', WRITE, async (context) => {
      const file = fileOf(context.tree, context.params.id!);
      checkIfMatch(context.request, file);
      const body = await jsonBody(context.request);
      const parentId = (body.parent as { id?: unknown } | undefined)?.id;
      const parent = parentId === undefined ? file.parent : folderOf(context.tree, String(parentId));
      const name = body.name === undefined ? file.name : checkName(body.name);
      const taken = named(parent, name);
      if (taken && taken !== file) throw conflictOf(context.tree, taken);
      context.tree.moveFile(file, parent, name);
      return fileFull(context.tree, file, context.grant);
    }),
    route('DELETE', '/2.0/files/{id}', WRITE, (context) => {
      const file = fileOf(context.tree, context.params.id!);
      checkIfMatch(context.request, file);
      context.tree.deleteFile(file);
      return undefined;
    }),
    route(
      'POST',
      '/2.0/files/{id}',
      WRITE,
      async (context) => {
        const treeId = boxIds.treeId(context.tree, context.params.id!);
        const gone = treeId ? anyFile(context.tree, treeId) : undefined;
        if (!gone?.deleted) throw notFound('The item is not in the trash');
        const body = await jsonBody(context.request);
        const parentId = (body.parent as { id?: unknown } | undefined)?.id;
        // Box puts the file back in its folder while that is there, else in the `parent` the request names.
        if (parentId === undefined && !context.tree.isLive(gone.parent)) throw parentTrashed('file');
        const parent = parentId === undefined ? gone.parent : folderOf(context.tree, String(parentId));
        const name = body.name === undefined ? gone.name : checkName(body.name);
        if (named(parent, name)) throw conflictOf(context.tree, named(parent, name)!);
        if (parent !== gone.parent || name !== gone.name) context.tree.placeDeleted(gone, parent, name);
        const file = context.tree.restoreFile(gone.id, { asChange: true })!;
        return fileFull(context.tree, file, context.grant);
      },
      201,
    ),
    route('DELETE', '/2.0/folders/{id}', WRITE, (context) => {
      const folder = folderOf(context.tree, context.params.id!);
      if (folder === context.tree.root)
        throw new BoxError(403, 'forbidden', 'The root folder cannot be trashed');
      if (folder.byName.size && context.query.get('recursive') !== 'true')
        throw new BoxError(400, 'bad_request', 'folder_not_empty: pass recursive=true');
      context.tree.deleteFolder(folder);
      return undefined;
    }),
    route(
      'POST',
      '/2.0/folders/{id}',
      WRITE,
      async (context) => {
        await jsonBody(context.request);
        const treeId = boxIds.treeId(context.tree, context.params.id!);
        const gone = treeId ? context.tree.deletedFolder(treeId) : undefined;
        if (!gone?.parent) throw notFound('The item is not in the trash');
        if (!context.tree.isLive(gone.parent)) throw parentTrashed('folder');
        const taken = named(gone.parent, gone.name);
        if (taken) throw conflictOf(context.tree, taken);
        const folder = context.tree.restoreFolder(gone.id)!;
        return folderFull(context.tree, folder, context.grant);
      },
      201,
    ),
    route('GET', '/2.0/events', READ, events),
    route(
      'POST',
      '/upload/api/2.0/files/content',
      WRITE,
      async (context) => {
        const upload = await context.upload();
        const { attributes, bytes, type } = multipart(
          context.request,
          Buffer.concat(upload.chunks, upload.size),
        );
        const parent = (attributes.parent as { id?: unknown } | undefined)?.id;
        if (parent === undefined) throw badRequest('attributes.parent.id is required');
        const folder = folderOf(context.tree, String(parent));
        const file = write(context.tree, { folder, name: checkName(attributes.name) }, bytes, type);
        return { total_count: 1, entries: [fileFull(context.tree, file, context.grant)] };
      },
      201,
    ),
    route('POST', '/upload/api/2.0/files/{id}/content', WRITE, async (context) => {
      const file = fileOf(context.tree, context.params.id!);
      checkIfMatch(context.request, file);
      const upload = await context.upload();
      const { attributes, bytes, type } = multipart(
        context.request,
        Buffer.concat(upload.chunks, upload.size),
      );
      const name = attributes.name === undefined ? undefined : checkName(attributes.name);
      const written = write(context.tree, { file, ...(name ? { name } : {}) }, bytes, type);
      return { total_count: 1, entries: [fileFull(context.tree, written, context.grant)] };
    }),
    route(
      'POST',
      '/upload/api/2.0/files/upload_sessions',
      WRITE,
      async (context) => {
        const session = startSession(context, await jsonBody(context.request));
        return sessionView(context, session.id, session);
      },
      201,
    ),
    route(
      'POST',
      '/upload/api/2.0/files/{id}/upload_sessions',
      WRITE,
      async (context) => {
        const file = fileOf(context.tree, context.params.id!);
        checkIfMatch(context.request, file);
        const session = startSession(context, await jsonBody(context.request), file);
        return sessionView(context, session.id, session);
      },
      201,
    ),
    route('GET', '/upload/api/2.0/files/upload_sessions/{sid}', WRITE, (context) =>
      sessionView(context, context.params.sid!, sessionOf(context)),
    ),
    route('PUT', '/upload/api/2.0/files/upload_sessions/{sid}', WRITE, async (context) => {
      const session = sessionOf(context);
      const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(context.request.headers['content-range'] ?? ''));
      if (!range)
        throw new BoxError(416, 'bad_request', 'Content-Range "bytes <first>-<last>/<total>" is required');
      const [first, last, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
      const size = last - first + 1;
      const lastPart = last === session.size - 1;
      if (
        total !== session.size ||
        first % BOX_PART_BYTES !== 0 ||
        size < 1 ||
        (!lastPart && size !== BOX_PART_BYTES) ||
        last >= session.size
      )
        throw new BoxError(416, 'bad_request', 'The range is not a part of this session');
      const digest = digestOf(context.request);
      const { chunks, size: got } = await readUpload(context.request, BOX_PART_BYTES);
      if (got !== size) throw new BoxError(416, 'bad_request', 'The body is not the size of its range');
      const bytes = Buffer.concat(chunks, got);
      const sha1 = createHash('sha1').update(bytes);
      if (sha1.copy().digest('base64') !== digest)
        throw new BoxError(412, 'precondition_failed', 'The digest does not match the part');
      const part = {
        part_id: randomBytes(4).toString('hex').toUpperCase(),
        offset: first,
        size,
        sha1: sha1.digest('hex'),
        bytes,
      };
      session.parts.set(first, part);
      return { part: { part_id: part.part_id, offset: part.offset, size: part.size, sha1: part.sha1 } };
    }),
    route(
      'POST',
      '/upload/api/2.0/files/upload_sessions/{sid}/commit',
      WRITE,
      async (context) => {
        const session = sessionOf(context);
        const digest = digestOf(context.request);
        const body = await jsonBody(context.request);
        const listedParts = Array.isArray(body.parts) ? (body.parts as Record<string, unknown>[]) : undefined;
        const parts = [...session.parts.values()].sort((a, b) => a.offset - b.offset);
        const agree =
          listedParts?.length === parts.length &&
          listedParts.every(
            (p, i) =>
              p.part_id === parts[i]!.part_id && p.offset === parts[i]!.offset && p.size === parts[i]!.size,
          );
        if (!agree) throw badRequest('The parts are not the parts of this session');
        const bytes = Buffer.concat(parts.map((p) => p.bytes));
        if (bytes.length !== session.size) throw badRequest('The parts do not make the whole file');
        if (createHash('sha1').update(bytes).digest('base64') !== digest)
          throw new BoxError(412, 'precondition_failed', 'The digest does not match the file');
        if (session.file) checkIfMatch(context.request, session.file);
        const file = session.file
          ? write(context.tree, { file: session.file, name: session.name }, bytes, 'application/octet-stream')
          : write(
              context.tree,
              { folder: session.folder!, name: session.name },
              bytes,
              'application/octet-stream',
            );
        sessions.delete(context.params.sid!);
        return { total_count: 1, entries: [fileFull(context.tree, file, context.grant)] };
      },
      201,
    ),
    route('DELETE', '/upload/api/2.0/files/upload_sessions/{sid}', WRITE, (context) => {
      sessionOf(context);
      sessions.delete(context.params.sid!);
      return undefined;
    }),
  ];
}
