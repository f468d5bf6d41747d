// The Drive API v3 routes of the Google Drive fake (under /google), as Google's reference describes
// them (https://developers.google.com/workspace/drive/api/reference/rest/v3):
//   GET  /drive/v3/about?fields=user                       `fields` required
//   POST /drive/v3/drives?requestId  {name}                a shared drive (a requestId used before -> 409)
//   GET  /drive/v3/drives?pageSize&pageToken               the shared drives, by id; pageSize 1..100,
//        default 10
//   GET  /drive/v3/files?q&pageSize&pageToken&fields&corpora&driveId&supportsAllDrives&includeItemsFromAllDrives
//        q: clauses joined by `and`: '<id>' in parents | trashed = false | name = '<n>' |
//        mimeType = '<t>' | mimeType != '<t>'; another clause -> 400 invalid. Shared drives' items
//        only with includeItemsFromAllDrives=true and supportsAllDrives=true; corpora user (default) |
//        drive (with driveId, and only then) | allDrives, the last two with includeItemsFromAllDrives
//   GET  /drive/v3/files/{fileId}?fields | ?alt=media      `root` is an alias of My Drive's root id;
//        a Google-native document with alt=media -> 403 fileNotDownloadable; a shared drive's item
//        without supportsAllDrives=true -> 404
//   GET  /drive/v3/files/{fileId}/export?mimeType          native documents only, 10 MB at most
//        (403 exportSizeLimitExceeded)
//   GET  /drive/v3/changes/startPageToken ; GET /drive/v3/changes?pageToken&pageSize&fields
//        -> changes [{kind, changeType:file, time, removed, fileId, file?}] and nextPageToken, or
//        newStartPageToken on the last page; a deletion is `removed: true`; a move or an edit is the
//        file with its new parents and version; shared drives' files as files.list admits them, or only
//        one drive's with driveId
//   POST /upload/drive/v3/files?uploadType=multipart       multipart/related: JSON metadata then media,
//        at most 5 MiB (larger: resumable)
//   POST /upload/drive/v3/files?uploadType=resumable       JSON metadata, X-Upload-Content-Type and
//        -Length -> 200 with Location: the session URI
//   PUT  <session URI>  Content-Range bytes a-b/total, chunks multiples of 256 KiB but the last ->
//        308 with Range: bytes=0-n, then 200 or 201 with the file; `bytes */total` asks the status
//        (308 with Range while incomplete; 200 with the file once complete)
//   PATCH /upload/drive/v3/files/{fileId}?uploadType=multipart|resumable   new content of a file
// Fields: answers hold only the fields asked for (`files(id,name)`); the defaults are Drive's
// (kind, id, name, mimeType). int64 values (size, version) are strings, as Drive sends them. Every
// property is one of the discovery document's (test/contract/google-drive-discovery.test.ts checks).
// Shared drives are folders of the account's tree kept out of My Drive: a drive's id is its top
// folder's, whose files carry `driveId`; the top folders (My Drive's and the drives') have no parents.
// Names: Drive allows two files of one name in a folder; the shared tree does not, so creating a
// name that is taken answers 409 duplicateName (a client that avoids duplicates never sees it).
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SandboxApiError, sendContent, sendJson } from '../../content/http';
import type { AccountTree, FileNode, FolderNode, TreeNode } from '../../content/tree';
import { contentChunks } from '../../content/tree';
import type { FakeRoute, FakeRouteContext } from '../fake';

const DRIVE = 'https://www.googleapis.com/auth/drive';
const DRIVE_READONLY = 'https://www.googleapis.com/auth/drive.readonly';
const READ = [DRIVE, DRIVE_READONLY];
const WRITE = [DRIVE];

export const FOLDER_TYPE = 'application/vnd.google-apps.folder';
const NATIVE = 'application/vnd.google-apps.';
/** What each Google-native type exports to (a subset of about.exportFormats). */
const EXPORT_FORMATS: Record<string, string[]> = {
  'application/vnd.google-apps.document': [
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/pdf',
    'text/plain',
  ],
  'application/vnd.google-apps.spreadsheet': [
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/pdf',
    'text/csv',
  ],
  'application/vnd.google-apps.presentation': [
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    'application/pdf',
  ],
};
export const EXPORT_LIMIT_BYTES = 10 * 1024 * 1024;
export const MULTIPART_LIMIT_BYTES = 5 * 1024 * 1024;
const CHUNK_GRANULE = 256 * 1024;

const bad = (reason: string, message: string) => new SandboxApiError(400, reason, message);
const notFound = (id: string) => new SandboxApiError(404, 'notFound', `File not found: ${id}.`);

/** My Drive's root has a real id (the `root` alias stands for it), as at Google. */
const rootId = (tree: AccountTree) =>
  `0A${createHash('sha256').update(tree.accountId).digest('base64url').slice(0, 17)}Uk9PVA`;

/** appProperties of uploaded files (the shared tree has no place for them). */
const appProperties = new WeakMap<FileNode, Record<string, string>>();

/** The shared drives of an account: their top folders (children of the tree's root) by id. */
interface SharedDrive {
  id: string;
  name: string;
  requestId: string;
  createdTime: string;
}
const sharedDrives = new WeakMap<AccountTree, Map<string, SharedDrive>>();

function drivesOf(tree: AccountTree): Map<string, SharedDrive> {
  let drives = sharedDrives.get(tree);
  if (!drives) sharedDrives.set(tree, (drives = new Map()));
  return drives;
}

/** The shared drive `node` is in (undefined: My Drive). */
function driveOf(tree: AccountTree, node: TreeNode): SharedDrive | undefined {
  const drives = sharedDrives.get(tree);
  if (!drives?.size) return undefined;
  for (let at: FolderNode | undefined = node.type === 'folder' ? node : node.parent; at; at = at.parent)
    if (at.parent === tree.root) return drives.get(at.id);
  return undefined;
}

/** Whether a request sees shared drives' items (files.list and changes.list, as Drive documents it). */
const seesAllDrives = (query: URLSearchParams) =>
  query.get('includeItemsFromAllDrives') === 'true' && query.get('supportsAllDrives') === 'true';

function nodeOf(tree: AccountTree, id: string): TreeNode | undefined {
  if (id === 'root' || id === rootId(tree)) return tree.root;
  return tree.folder(id) ?? tree.file(id);
}

const idOf = (tree: AccountTree, node: TreeNode) => (node === tree.root ? rootId(tree) : node.id);

function resource(tree: AccountTree, node: TreeNode): Record<string, unknown> {
  const drive = driveOf(tree, node);
  const top = node === tree.root || drive?.id === node.id;
  const common = {
    kind: 'drive#file',
    id: idOf(tree, node),
    name: node === tree.root ? 'My Drive' : drive?.id === node.id ? drive.name : node.name,
    ...(!top && node.parent ? { parents: [idOf(tree, node.parent)] } : {}),
    ...(drive ? { driveId: drive.id } : {}),
    trashed: false,
    modifiedTime: new Date(node.updatedAt).toISOString(),
  };
  if (node.type === 'folder') return { ...common, mimeType: FOLDER_TYPE, version: '1' };
  const native = node.contentType.startsWith(NATIVE);
  return {
    ...common,
    mimeType: node.contentType,
    version: String(node.version),
    ...(native ? {} : { size: String(node.content.size) }),
    ...(appProperties.has(node) ? { appProperties: appProperties.get(node) } : {}),
  };
}

/** `nextPageToken,files(id,name)` -> { nextPageToken: true, files: { id: true, name: true } }. */
interface FieldMaskObject {
  [field: string]: FieldMask;
}
type FieldMask = true | FieldMaskObject;

function parseFields(text: string): FieldMask {
  const out: FieldMaskObject = {};
  let depth = 0;
  let start = 0;
  const take = (part: string) => {
    const item = part.trim();
    if (!item) return;
    if (item === '*') return void (out['*'] = true);
    const open = item.indexOf('(');
    if (open < 0) {
      const [head, ...rest] = item.split('/');
      out[head!] = rest.length ? { [rest.join('/')]: true } : true;
      return;
    }
    if (!item.endsWith(')')) throw bad('invalidParameter', `Invalid field selection ${item}`);
    out[item.slice(0, open)] = parseFields(item.slice(open + 1, -1));
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      take(text.slice(start, i));
      start = i + 1;
    }
    if (depth < 0) throw bad('invalidParameter', 'Invalid field selection');
  }
  if (depth !== 0) throw bad('invalidParameter', 'Invalid field selection');
  take(text.slice(start));
  return out;
}

function project(value: unknown, mask: FieldMask): unknown {
  if (mask === true || (typeof mask === 'object' && mask['*'])) return value;
  if (Array.isArray(value)) return value.map((item) => project(item, mask));
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(mask))
    if (Object.hasOwn(value, key)) out[key] = project((value as Record<string, unknown>)[key], sub);
  return out;
}

/** Answers `body` cut to the request's `fields` (or the method's defaults). */
function answer(context: FakeRouteContext, body: Record<string, unknown>, defaults: string, status = 200) {
  sendJson(context.response, status, project(body, parseFields(context.query.get('fields') ?? defaults)));
}

function pageSize(query: URLSearchParams, max: number, fallback: number): number {
  const raw = query.get('pageSize');
  if (raw === null) return fallback;
  const size = /^\d{1,5}$/.test(raw) ? Number(raw) : 0;
  if (size < 1 || size > max)
    throw bad('invalidParameter', `Invalid value '${raw}'. Values must be within the range: [1, ${max}]`);
  return size;
}

interface Query {
  parent?: string;
  name?: string;
  mimeType?: { equal: boolean; value: string };
}

const QUOTED = String.raw`'((?:[^'\\]|\\.)*)'`;
const unquote = (text: string) => text.replace(/\\(.)/g, '$1');

/** The `q` clauses the fake understands; anything else is refused as Drive refuses a bad query. */
function parseQuery(q: string | null): Query {
  const out: Query = {};
  if (!q) return out;
  for (const clause of q.split(/\s+and\s+/i)) {
    const text = clause.trim();
    let m: RegExpExecArray | null;
    if ((m = new RegExp(`^${QUOTED}\\s+in\\s+parents$`).exec(text))) out.parent = unquote(m[1]!);
    else if (/^trashed\s*=\s*false$/.test(text)) continue;
    else if ((m = new RegExp(`^name\\s*=\\s*${QUOTED}$`).exec(text))) out.name = unquote(m[1]!);
    else if ((m = new RegExp(`^mimeType\\s*(!?=)\\s*${QUOTED}$`).exec(text)))
      out.mimeType = { equal: m[1] === '=', value: unquote(m[2]!) };
    else throw bad('invalid', 'Invalid Value');
  }
  return out;
}

const encodePage = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
function decodePage(raw: string | null, q: string): string {
  if (raw === null) return '';
  try {
    const page = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as {
      after?: unknown;
      q?: unknown;
    };
    if (typeof page.after === 'string' && page.q === q) return page.after;
  } catch {
    // fall through
  }
  throw bad('invalid', 'Invalid Value');
}

const CORPORA = new Set(['user', 'domain', 'drive', 'allDrives']);

/** Which items a files.list request takes, from corpora, driveId and the all-drives switches. */
function listScope(tree: AccountTree, query: URLSearchParams) {
  const corpora = (query.get('corpora') ?? 'user').split(',');
  if (corpora.some((c) => !CORPORA.has(c))) throw bad('invalid', 'Invalid Value');
  const driveId = query.get('driveId') ?? undefined;
  const driveOnly = corpora.length === 1 && corpora[0] === 'drive';
  if (corpora.includes('drive') !== (driveId !== undefined) || (driveId !== undefined && !driveOnly))
    throw bad('invalid', 'driveId is given with corpora=drive, and corpora=drive with a driveId.');
  if ((corpora.includes('drive') || corpora.includes('allDrives')) && !seesAllDrives(query))
    throw bad(
      'invalid',
      'includeItemsFromAllDrives and supportsAllDrives must be true when corpora is drive or allDrives.',
    );
  const all = seesAllDrives(query);
  const drives = drivesOf(tree);
  const within = (node: TreeNode) => {
    const drive = driveOf(tree, node);
    if (!drive) return !driveOnly;
    return all && (driveId === undefined || driveId === drive.id);
  };
  return {
    /** A folder whose children the request may list. */
    folder: within,
    /** An item the request may see (a shared drive's top folder is no one's child: drives.list has it). */
    item: (node: TreeNode) => !(node.parent === tree.root && drives.has(node.id)) && within(node),
  };
}

function listFiles(context: FakeRouteContext) {
  const { tree, query } = context;
  const q = query.get('q') ?? '';
  const parsed = parseQuery(q);
  const limit = pageSize(query, 1000, 100);
  const after = decodePage(query.get('pageToken'), q);
  const scope = listScope(tree, query);
  // Without a parent clause: everything of the corpora's, in id order (a full walk).
  const node = parsed.parent === undefined ? undefined : nodeOf(tree, parsed.parent);
  const folder = node?.type === 'folder' && scope.folder(node) ? node : undefined;
  if (parsed.parent !== undefined && !folder)
    return answer(
      context,
      { kind: 'drive#fileList', files: [] },
      'kind,nextPageToken,files(kind,id,name,mimeType)',
    );
  const { items, more } = folder
    ? tree.children(folder, after, limit)
    : {
        items: tree
          .liveFiles()
          .filter((f) => f.id > after && scope.item(f))
          .slice(0, limit),
        more: false,
      };
  const admitted = items.filter((node) => {
    if (!scope.item(node)) return false;
    if (parsed.name !== undefined && node.name !== parsed.name) return false;
    if (parsed.mimeType) {
      const type = node.type === 'folder' ? FOLDER_TYPE : node.contentType;
      if ((type === parsed.mimeType.value) !== parsed.mimeType.equal) return false;
    }
    return true;
  });
  answer(
    context,
    {
      kind: 'drive#fileList',
      incompleteSearch: false,
      files: admitted.map((node) => resource(tree, node)),
      ...(more ? { nextPageToken: encodePage({ after: items.at(-1)!.id, q }) } : {}),
    },
    'kind,nextPageToken,incompleteSearch,files(kind,id,name,mimeType)',
  );
}

async function getFile(context: FakeRouteContext) {
  const { tree, query, params } = context;
  const node = nodeOf(tree, params.fileId!);
  if (!node || (driveOf(tree, node) && query.get('supportsAllDrives') !== 'true'))
    throw notFound(params.fileId!);
  if (query.get('alt') !== 'media') return answer(context, resource(tree, node), 'kind,id,name,mimeType');
  if (node.type === 'folder' || node.contentType.startsWith(NATIVE))
    throw new SandboxApiError(
      403,
      'fileNotDownloadable',
      'Only files with binary content can be downloaded. Use Export with Docs Editors files.',
    );
  await sendContent(context.request, context.response, node);
}

async function exportFile(context: FakeRouteContext) {
  const { tree, query, params, response } = context;
  const node = nodeOf(tree, params.fileId!);
  if (!node || node.type === 'folder') throw notFound(params.fileId!);
  const formats = EXPORT_FORMATS[node.contentType];
  if (!formats)
    throw new SandboxApiError(403, 'fileNotExportable', 'Export only supports Docs Editors files.');
  const mimeType = query.get('mimeType') ?? '';
  if (!formats.includes(mimeType)) throw bad('badRequest', `The requested conversion is not supported.`);
  if (node.content.size > EXPORT_LIMIT_BYTES)
    throw new SandboxApiError(403, 'exportSizeLimitExceeded', 'This file is too large to be exported.');
  response.writeHead(200, { 'Content-Type': mimeType, 'Cache-Control': 'private, no-cache' });
  await pipeline(Readable.from(contentChunks(node)), response).catch(() => undefined);
}

interface Change {
  kind: 'drive#change';
  changeType: 'file';
  time: string;
  removed: boolean;
  fileId: string;
  file?: Record<string, unknown>;
}

const changeOf = (node: TreeNode) => ({
  kind: 'drive#change' as const,
  changeType: 'file' as const,
  time: new Date(node.updatedAt).toISOString(),
  fileId: node.id,
});

/** A folder no longer in the tree (deleted since it moved): its files' deletions report it. */
const isDeleted = (tree: AccountTree, folder: FolderNode) => tree.folder(folder.id) !== folder;

function changesPage(context: FakeRouteContext) {
  const { tree, query } = context;
  const token = query.get('pageToken');
  if (token === null || !/^\d{1,15}$/.test(token)) throw bad('required', 'Required parameter: pageToken');
  const limit = pageSize(query, 1000, 100);
  const includeRemoved = query.get('includeRemoved') !== 'false';
  const driveId = query.get('driveId') ?? undefined;
  if (driveId !== undefined && query.get('supportsAllDrives') !== 'true')
    throw bad('invalid', 'driveId needs supportsAllDrives=true.');
  const inScope = (file: FileNode) => {
    const drive = driveOf(tree, file);
    if (driveId !== undefined) return drive?.id === driveId;
    return !drive || seesAllDrives(query);
  };
  const from = Number(token);
  // A token from before the feed's reset (a test hook) is one Drive no longer honours.
  if (from <= tree.feedResetAt) throw bad('invalid', 'Invalid Value');
  const { files, more } = tree.changesAfter(
    from - 1,
    (file) => (includeRemoved || !file.deleted) && inScope(file),
    limit,
  );
  const changes: Change[] = [];
  const foldersMoved = new Set<FolderNode>();
  for (const file of files) {
    // A folder's move is the folder's change alone (its parents), not one for each file in it.
    const place = file.formerPlaces?.at(-1);
    const folder = place?.until === file.version ? place.withFolder?.folder : undefined;
    if (folder && !file.deleted) {
      if (!foldersMoved.has(folder) && !isDeleted(tree, folder))
        changes.push({ ...changeOf(folder), removed: false, file: resource(tree, folder) });
      foldersMoved.add(folder);
      continue;
    }
    changes.push({
      ...changeOf(file),
      removed: file.deleted,
      ...(file.deleted ? {} : { file: resource(tree, file) }),
    });
  }
  answer(
    context,
    {
      kind: 'drive#changeList',
      changes,
      ...(more
        ? { nextPageToken: String(files.at(-1)!.version + 1) }
        : { newStartPageToken: String(tree.changeSequence + 1) }),
    },
    'kind,nextPageToken,newStartPageToken,changes(kind,changeType,time,removed,fileId,file(kind,id,name,mimeType))',
  );
}

interface Metadata {
  name?: string;
  mimeType?: string;
  parents?: string[];
  appProperties?: Record<string, string>;
}

function metadataOf(text: string): Metadata {
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    throw bad('parseError', 'Parse Error');
  }
  if (!parsed || typeof parsed !== 'object') throw bad('parseError', 'Parse Error');
  return parsed as Metadata;
}

/** Writes content as a new file (create) or the next version of `target` (update). */
function store(
  tree: AccountTree,
  metadata: Metadata,
  bytes: Buffer[],
  size: number,
  contentType: string,
  target?: FileNode,
): { file: FileNode; created: boolean } {
  const content = { kind: 'bytes' as const, chunks: bytes, size };
  if (target) {
    const name = metadata.name ?? target.name;
    if (name !== target.name) tree.moveFile(target, target.parent, name);
    const { file } = tree.putFile(target.parent, target.name, {
      contentType: metadata.mimeType ?? contentType,
      content,
    });
    if (metadata.appProperties)
      appProperties.set(file, { ...appProperties.get(file), ...metadata.appProperties });
    return { file, created: false };
  }
  const parentId = metadata.parents?.[0] ?? 'root';
  const parent = nodeOf(tree, parentId);
  if (parent?.type !== 'folder') throw notFound(parentId);
  const name = metadata.name ?? 'Untitled';
  if (parent.byName.has(name))
    throw new SandboxApiError(
      409,
      'duplicateName',
      `A file named ${name} is there already (sandbox: names are unique per folder).`,
    );
  const { file } = tree.putFile(parent, name, { contentType: metadata.mimeType ?? contentType, content });
  if (metadata.appProperties) appProperties.set(file, { ...metadata.appProperties });
  return { file, created: true };
}

/** multipart/related: the first part JSON metadata, the second the media with its Content-Type. */
function splitMultipart(
  request: IncomingMessage,
  body: Buffer,
): { metadata: Metadata; media: Buffer; type: string } {
  const boundary = /boundary="?([^";]+)"?/i.exec(request.headers['content-type'] ?? '')?.[1];
  if (!/^multipart\/related/i.test(request.headers['content-type'] ?? '') || !boundary)
    throw bad('badContent', 'Media type must be multipart/related with a boundary');
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Buffer[] = [];
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const next = body.indexOf(delimiter, at + delimiter.length);
    if (next < 0) break;
    parts.push(body.subarray(at + delimiter.length, next));
    at = next;
  }
  if (parts.length !== 2) throw bad('badContent', 'A multipart upload has a metadata part and a media part');
  const parse = (part: Buffer) => {
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) throw bad('badContent', 'A part has no headers');
    const headers = part.subarray(0, split).toString('utf8');
    let content = part.subarray(split + 4);
    if (content.subarray(-2).toString() === '\r\n') content = content.subarray(0, -2);
    return {
      type: /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim() ?? 'application/octet-stream',
      content,
    };
  };
  const [head, media] = parts.map(parse);
  return { metadata: metadataOf(head!.content.toString('utf8')), media: media!.content, type: media!.type };
}

interface Session {
  accountId: string;
  metadata: Metadata;
  type: string;
  total: number;
  chunks: Buffer[];
  received: number;
  fileId?: string;
  /** The file a completed session made: a status query answers it again (200), as Google does. */
  made?: string;
}

const sessions = new Map<string, Session>();

async function startUpload(context: FakeRouteContext, fileId?: string) {
  const { request, query, tree } = context;
  const kind = query.get('uploadType');
  const target = fileId === undefined ? undefined : tree.file(fileId);
  if (fileId !== undefined && !target) throw notFound(fileId);
  if (kind === 'multipart') {
    const upload = await context.upload();
    if (upload.size > MULTIPART_LIMIT_BYTES + 64 * 1024)
      throw new SandboxApiError(
        413,
        'uploadTooLarge',
        'Multipart uploads are for 5 MB or less: use a resumable upload.',
      );
    const { metadata, media, type } = splitMultipart(request, Buffer.concat(upload.chunks));
    const { file } = store(tree, metadata, [media], media.length, type, target);
    return answer(context, resource(tree, file), 'kind,id,name,mimeType');
  }
  if (kind === 'resumable') {
    const upload = await context.upload();
    const metadata = metadataOf(Buffer.concat(upload.chunks).toString('utf8'));
    const total = Number(request.headers['x-upload-content-length'] ?? NaN);
    if (!Number.isSafeInteger(total) || total < 0)
      throw bad('badRequest', 'X-Upload-Content-Length is required for this upload');
    const id = randomBytes(18).toString('base64url');
    sessions.set(id, {
      accountId: tree.accountId,
      metadata,
      type: String(
        request.headers['x-upload-content-type'] ?? metadata.mimeType ?? 'application/octet-stream',
      ),
      total,
      chunks: [],
      received: 0,
      fileId,
    });
    const path =
      fileId === undefined
        ? '/google/upload/drive/v3/files'
        : `/google/upload/drive/v3/files/${encodeURIComponent(fileId)}`;
    context.response.writeHead(200, {
      Location: `${context.origin}${path}?uploadType=resumable&upload_id=${id}`,
      'Content-Length': '0',
    });
    return void context.response.end();
  }
  throw bad('invalidParameter', `Invalid value for uploadType: ${kind ?? '(none)'}`);
}

/** A chunk of a resumable upload (Content-Range bytes a-b/total), or its status (bytes * /total). */
async function putChunk(context: FakeRouteContext) {
  const { request, response, query } = context;
  const id = query.get('upload_id') ?? '';
  const session = sessions.get(id);
  if (!session) throw new SandboxApiError(404, 'notFound', 'No such upload session');
  const range = /^bytes (\d+)-(\d+)\/(\d+)$|^bytes \*\/(\d+)$/.exec(
    String(request.headers['content-range'] ?? ''),
  );
  if (!range) throw bad('badRequest', 'Content-Range is required');
  const incomplete = () => {
    response.writeHead(308, {
      ...(session.received > 0 ? { Range: `bytes=0-${session.received - 1}` } : {}),
      'Content-Length': '0',
    });
    response.end();
  };
  if (session.made !== undefined) {
    const tree = context.treeOf(session.accountId);
    const made = tree.file(session.made);
    if (range[4] === undefined || !made) throw new SandboxApiError(404, 'notFound', 'No such upload session');
    return answer(context, resource(tree, made), 'kind,id,name,mimeType');
  }
  if (range[4] !== undefined) return incomplete();
  const [first, last, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
  const upload = await context.upload();
  if (total !== session.total || first !== session.received || last - first + 1 !== upload.size)
    throw bad('badRequest', 'The chunk does not continue the upload');
  const final = last + 1 === total;
  if (!final && upload.size % CHUNK_GRANULE !== 0)
    throw bad('badRequest', 'Chunks must be multiples of 256 KiB, but for the last');
  session.chunks.push(...upload.chunks);
  session.received += upload.size;
  if (!final) return incomplete();
  const tree = context.treeOf(session.accountId);
  const target = session.fileId === undefined ? undefined : tree.file(session.fileId);
  const { file } = store(tree, session.metadata, session.chunks, session.received, session.type, target);
  session.made = file.id;
  session.chunks = [];
  answer(context, resource(tree, file), 'kind,id,name,mimeType');
}

const driveResource = (drive: SharedDrive) => ({
  kind: 'drive#drive',
  id: drive.id,
  name: drive.name,
  createdTime: drive.createdTime,
  hidden: false,
});

/** drives.create: the drive is a new top folder of the tree (kept out of My Drive). */
async function createDrive(context: FakeRouteContext) {
  const { tree, query } = context;
  const requestId = query.get('requestId');
  if (!requestId) throw bad('required', 'Required parameter: requestId');
  const drives = drivesOf(tree);
  if ([...drives.values()].some((d) => d.requestId === requestId))
    throw new SandboxApiError(409, 'duplicate', 'A shared drive with this requestId exists already.');
  const upload = await context.upload();
  const metadata = metadataOf(Buffer.concat(upload.chunks).toString('utf8'));
  if (typeof metadata.name !== 'string' || !metadata.name) throw bad('required', 'Required: name');
  const folder = tree.addFolder(tree.root, `shared-drive:${requestId}`);
  const drive = {
    id: folder.id,
    name: metadata.name,
    requestId,
    createdTime: new Date(context.now).toISOString(),
  };
  drives.set(folder.id, drive);
  answer(context, driveResource(drive), 'kind,id,name');
}

/** drives.list: the shared drives in id order, a page at a time (pageSize 1..100, default 10). */
function listDrives(context: FakeRouteContext) {
  const { tree, query } = context;
  if (query.get('q') !== null) throw bad('invalid', 'The sandbox does not search shared drives (q).');
  const limit = pageSize(query, 100, 10);
  const after = decodePage(query.get('pageToken'), 'drives');
  const all = [...drivesOf(tree).values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  const rest = all.filter((d) => d.id > after);
  const page = rest.slice(0, limit);
  answer(
    context,
    {
      kind: 'drive#driveList',
      drives: page.map(driveResource),
      ...(rest.length > limit ? { nextPageToken: encodePage({ after: page.at(-1)!.id, q: 'drives' }) } : {}),
    },
    'kind,nextPageToken,drives(id,name,kind)',
  );
}

export function driveV3Routes(): FakeRoute[] {
  return [
    {
      method: 'GET',
      path: '/drive/v3/about',
      scopes: READ,
      handle: (context) => {
        if (!context.query.get('fields'))
          throw bad('required', "The 'fields' parameter is required for this method.");
        const { grant } = context;
        answer(
          context,
          {
            kind: 'drive#about',
            user: {
              kind: 'drive#user',
              displayName: grant.name,
              emailAddress: grant.email,
              permissionId: grant.accountId,
              me: true,
            },
          },
          '',
        );
      },
    },
    { method: 'POST', path: '/drive/v3/drives', scopes: WRITE, handle: createDrive },
    { method: 'GET', path: '/drive/v3/drives', scopes: READ, handle: listDrives },
    { method: 'GET', path: '/drive/v3/files', scopes: READ, handle: listFiles },
    { method: 'GET', path: '/drive/v3/files/{fileId}', scopes: READ, handle: getFile },
    { method: 'GET', path: '/drive/v3/files/{fileId}/export', scopes: READ, handle: exportFile },
    {
      method: 'GET',
      path: '/drive/v3/changes/startPageToken',
      scopes: READ,
      handle: (context) =>
        answer(
          context,
          { kind: 'drive#startPageToken', startPageToken: String(context.tree.changeSequence + 1) },
          'kind,startPageToken',
        ),
    },
    { method: 'GET', path: '/drive/v3/changes', scopes: READ, handle: changesPage },
    { method: 'POST', path: '/upload/drive/v3/files', scopes: WRITE, handle: (c) => startUpload(c) },
    {
      method: 'PATCH',
      path: '/upload/drive/v3/files/{fileId}',
      scopes: WRITE,
      handle: (c) => startUpload(c, c.params.fileId),
    },
    // The session URI is the upload's credential (no bearer token), as at Google.
    { method: 'PUT', path: '/upload/drive/v3/files', scopes: WRITE, anonymous: true, handle: putChunk },
    {
      method: 'PUT',
      path: '/upload/drive/v3/files/{fileId}',
      scopes: WRITE,
      anonymous: true,
      handle: putChunk,
    },
  ];
}
