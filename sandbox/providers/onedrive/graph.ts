// The Microsoft Graph routes of the OneDrive fake (under /microsoft), written from Graph's v1.0 reference
// (https://learn.microsoft.com/graph/api/resources/driveitem), over the sandbox's account trees:
//   GET  /v1.0/me                                   the account (User.Read)
//   GET  /v1.0/me/drive | /v1.0/drives/{driveId}    the drive ({id, driveType, name, owner})
//   GET  /v1.0/me/drive/root | /v1.0/drives/{driveId}/root                 the root item (`root` facet)
//   GET  /v1.0/drives/{driveId}/items/{itemId}      an item (`root` is an alias of the root's id)
//   GET  /v1.0/drives/{driveId}/items/{itemId}/children?$top&$select      -> {value, @odata.nextLink?}
//   GET  /v1.0/drives/{driveId}/items/{parentId}:/{name}                  an item by path
//   GET  /v1.0/drives/{driveId}/items/{itemId}/content  -> 302 to a pre-authenticated URL (/download/...)
//   GET  /v1.0/drives/{driveId}/root/delta?token&$top&$select  no token: the whole drive from scratch;
//        token=latest: nothing, only the delta link; pages end in @odata.nextLink, the last one in
//        @odata.deltaLink; a changed item comes with its parent folders (deltaExcludeParent not sent);
//        a deletion is `{id, deleted: {state}, parentReference}` without a name (as OneDrive for
//        Business sends it); a token from another drive is 410 resyncChangesApplyDifferences
//   PUT  /v1.0/drives/{driveId}/items/{itemId}/content                     new content (<= 4 MB)
//   PUT  /v1.0/drives/{driveId}/items/{parentId}:/{name}:/content?@microsoft.graph.conflictBehavior
//        a new file (<= 4 MB; larger: 413, use an upload session); conflictBehavior fail | replace
//        (the default) | rename ("name 1.ext")
//   POST .../items/{itemId}/createUploadSession | .../items/{parentId}:/{name}:/createUploadSession
//        body {item: {"@microsoft.graph.conflictBehavior"}} -> {uploadUrl, expirationDateTime,
//        nextExpectedRanges}
//   PUT  <uploadUrl> (/upload/{id}, no Authorization: the URL is the credential, a bearer token sent
//        is refused with 401) Content-Range bytes a-b/total, fragments multiples of 320 KiB (but the
//        last) of at most 60 MiB -> 202 {nextExpectedRanges} | 201 (created) or 200 (replaced) with the
//        item; a range that does not continue the upload -> 416 invalidRange; DELETE cancels it; GET
//        answers {expirationDateTime, nextExpectedRanges} (how an interrupted upload is resumed)
//   GET  /v1.0/sites?search=*  one SharePoint site per account, whose document library is a drive of
//        its own; GET /v1.0/sites/{siteId}/drives  its drives
// Ids: a drive's id is `b!` + base64url (as SharePoint's), items the tree's ids, the root's its own.
// eTag `"{GUID},<version>"` changes with every change of the item. $select keeps the fields named.
// createdBy / lastModifiedBy name the user, and the application (its client id) when an app wrote it
// through the API; a later change by the user (a hook) makes lastModifiedBy the user alone.
import { createHash, randomBytes } from 'node:crypto';
import { isoTime } from '../../clock';
import { SandboxApiError, sendContent, sendJson } from '../../content/http';
import type { AccountTree, FileNode, FolderNode, TreeNode } from '../../content/tree';
import { NameTakenError, beginWalk, pathOf, walkChanges } from '../../content/tree';
import type { WalkState } from '../../content/tree';
import type { ProviderIds } from '../../content/types';
import type { FakeRoute, FakeRouteContext } from '../fake';

const READ = ['Files.Read', 'Files.Read.All', 'Files.ReadWrite', 'Files.ReadWrite.All', 'Sites.Read.All'];
const WRITE = ['Files.ReadWrite', 'Files.ReadWrite.All'];
const SITES = ['Sites.Read.All'];
export const SIMPLE_UPLOAD_LIMIT = 4 * 1024 * 1024;
export const FRAGMENT_UNIT = 320 * 1024;
export const FRAGMENT_MAX = 60 * 1024 * 1024;
const LINK_SECONDS = 3600;

const notFoundItem = () => new SandboxApiError(404, 'itemNotFound', 'The resource could not be found.');
const invalid = (message: string) => new SandboxApiError(400, 'invalidRequest', message);

const digest = (text: string) => createHash('sha256').update(text).digest();
export const driveIdOf = (tree: AccountTree) =>
  `b!${digest(`drive\u0000${tree.accountId}`).toString('base64url').slice(0, 40)}`;
const rootItemId = (tree: AccountTree) =>
  `01${digest(`root\u0000${tree.accountId}`).toString('hex').slice(0, 24).toUpperCase()}`;
const guidOf = (id: string) => {
  const h = digest(id).toString('hex').toUpperCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
};
/** The SharePoint site of an account, and the account of its document library's tree. */
const siteIdOf = (accountId: string) =>
  `contoso.sharepoint.com,${guidOf(`site\u0000${accountId}`)},${guidOf(`web\u0000${accountId}`)}`;
const teamAccount = (accountId: string) => `${accountId}~team`;

/** Which app last wrote a file through the API, and at which version (a later version is the user's). */
const written = new WeakMap<FileNode, { createdBy?: string; modifiedBy: string; version: number }>();

function nodeOf(tree: AccountTree, id: string): TreeNode | undefined {
  if (id === 'root' || id === rootItemId(tree)) return tree.root;
  return tree.folder(id) ?? tree.file(id);
}

const graphId = (tree: AccountTree, node: TreeNode) => (node === tree.root ? rootItemId(tree) : node.id);

/** The hooks take and answer `<driveId>:<itemId>`, as the production client names items. */
export const onedriveIds: ProviderIds = {
  treeId(tree, id) {
    if (id === 'root') return tree.root.id;
    const at = id.indexOf(':');
    if (at < 0 || id.slice(0, at) !== driveIdOf(tree)) return undefined;
    const item = id.slice(at + 1);
    return item === 'root' || item === rootItemId(tree) ? tree.root.id : item;
  },
  providerId: (tree, node) => `${driveIdOf(tree)}:${graphId(tree, node)}`,
};

function resource(tree: AccountTree, node: TreeNode): Record<string, unknown> {
  const drive = driveIdOf(tree);
  const user = { user: { id: tree.accountId, displayName: `User ${tree.accountId}` } };
  const common: Record<string, unknown> = {
    id: graphId(tree, node),
    name: node === tree.root ? 'root' : node.name,
    eTag: `"{${guidOf(node.id)}},${node.type === 'file' ? node.version : 1}"`,
    createdDateTime: isoTime(node.updatedAt),
    lastModifiedDateTime: isoTime(node.updatedAt),
    webUrl: `https://contoso-my.sharepoint.com/personal/${encodeURIComponent(tree.accountId)}/Documents${encodeURI(pathOf(node))}`,
    createdBy: user,
    lastModifiedBy: user,
    ...(node.parent
      ? {
          parentReference: {
            driveId: drive,
            driveType: 'business',
            id: graphId(tree, node.parent),
            path: `/drive/root:${node.parent === tree.root ? '' : pathOf(node.parent)}`,
          },
        }
      : { parentReference: { driveId: drive, driveType: 'business' } }),
  };
  if (node.type === 'folder')
    return {
      ...common,
      folder: { childCount: node.byName.size },
      size: 0,
      ...(node === tree.root ? { root: {} } : {}),
    };
  const by = written.get(node);
  const app = (id: string | undefined) =>
    id ? { application: { id, displayName: 'Connector service' }, ...user } : user;
  return {
    ...common,
    cTag: `"c:{${guidOf(node.id)}},${node.version}"`,
    size: node.content.size,
    file: { mimeType: node.contentType },
    createdBy: app(by?.createdBy),
    lastModifiedBy: app(by && by.version === node.version ? by.modifiedBy : undefined),
  };
}

/** `$select=id,name`: the fields named (Graph answers id always). */
function select(context: FakeRouteContext, item: Record<string, unknown>): Record<string, unknown> {
  const raw = context.query.get('$select');
  if (!raw) return item;
  const fields = new Set(['id', ...raw.split(',').map((f) => f.trim())]);
  return Object.fromEntries(Object.entries(item).filter(([key]) => fields.has(key)));
}

function top(query: URLSearchParams, fallback: number): number {
  const raw = query.get('$top');
  if (raw === null) return fallback;
  const n = /^\d{1,4}$/.test(raw) ? Number(raw) : 0;
  if (n < 1 || n > 1000) throw invalid(`Invalid page size specified: '${raw}'.`);
  return n;
}

/** The tree behind a drive id: the caller's OneDrive or its team site's library. */
function driveTree(context: FakeRouteContext, driveId: string): AccountTree {
  if (driveId === driveIdOf(context.tree)) return context.tree;
  const team = context.treeOf(teamAccount(context.grant.accountId));
  if (driveId === driveIdOf(team)) return team;
  throw notFoundItem();
}

const link = (context: FakeRouteContext, path: string) => `${context.origin}/microsoft/v1.0${path}`;

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
function decode<T>(raw: string, check: (value: unknown) => value is T): T {
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown;
    if (check(value)) return value;
  } catch {
    // below
  }
  throw invalid('The skip token or delta token is not valid.');
}

function drive(context: FakeRouteContext, tree: AccountTree) {
  sendJson(context.response, 200, {
    '@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#drives/$entity',
    id: driveIdOf(tree),
    driveType: 'business',
    name: tree === context.tree ? 'OneDrive' : 'Documents',
    owner: { user: { id: context.grant.accountId, displayName: context.grant.name } },
  });
}

function item(context: FakeRouteContext, tree: AccountTree, node: TreeNode | undefined) {
  if (!node) throw notFoundItem();
  sendJson(context.response, 200, select(context, resource(tree, node)));
}

interface ChildrenPage {
  d: string;
  f: string;
  after: string;
  top: number;
}
const isChildrenPage = (v: unknown): v is ChildrenPage =>
  !!v &&
  typeof v === 'object' &&
  typeof (v as ChildrenPage).after === 'string' &&
  typeof (v as ChildrenPage).f === 'string';

function children(context: FakeRouteContext, tree: AccountTree, folderId: string) {
  const skip = context.query.get('$skiptoken');
  const page = skip ? decode(skip, isChildrenPage) : undefined;
  const folder = nodeOf(tree, folderId);
  if (folder?.type !== 'folder' || (page && page.f !== folder.id)) throw notFoundItem();
  const limit = page?.top ?? top(context.query, 200);
  const { items, more } = tree.children(folder, page?.after ?? '', limit);
  const select$ = context.query.get('$select');
  const next = more
    ? link(
        context,
        `/drives/${driveIdOf(tree)}/items/${graphId(tree, folder)}/children?$skiptoken=${encode({ d: driveIdOf(tree), f: folder.id, after: items.at(-1)!.id, top: limit })}${select$ ? `&$select=${encodeURIComponent(select$)}` : ''}`,
      )
    : undefined;
  sendJson(context.response, 200, {
    '@odata.context': `https://graph.microsoft.com/v1.0/$metadata#drives('${driveIdOf(tree)}')/items('${graphId(tree, folder)}')/children`,
    value: items.map((node) => select(context, resource(tree, node))),
    ...(next ? { '@odata.nextLink': next } : {}),
  });
}

/** Pre-authenticated download URLs: a random token naming the file, valid an hour. */
const downloads = new Map<string, { accountId: string; fileId: string; expires: number }>();

function contentRedirect(context: FakeRouteContext, tree: AccountTree, id: string) {
  const node = nodeOf(tree, id);
  if (node?.type !== 'file') throw notFoundItem();
  const token = randomBytes(24).toString('base64url');
  downloads.set(token, {
    accountId: tree.accountId,
    fileId: node.id,
    expires: context.now + LINK_SECONDS * 1000,
  });
  context.response.writeHead(302, {
    Location: `${context.origin}/microsoft/download/${token}`,
    'Content-Length': '0',
  });
  context.response.end();
}

async function download(context: FakeRouteContext) {
  if (context.request.headers.authorization)
    throw new SandboxApiError(
      401,
      'unauthenticated',
      'A pre-authenticated URL takes no Authorization header.',
    );
  const entry = downloads.get(context.params.token!);
  if (!entry || entry.expires < context.now) throw notFoundItem();
  const file = context.treeOf(entry.accountId).file(entry.fileId);
  if (!file) throw notFoundItem();
  await sendContent(context.request, context.response, file);
}

function isWalk(v: unknown): v is WalkState & { d: string; top: number } {
  const w = v as Record<string, unknown> | null;
  return (
    !!w &&
    typeof w.d === 'string' &&
    typeof w.after === 'number' &&
    typeof w.start === 'number' &&
    typeof w.top === 'number' &&
    (w.since === null || typeof w.since === 'number')
  );
}

function delta(context: FakeRouteContext, tree: AccountTree) {
  const driveId = driveIdOf(tree);
  const raw = context.query.get('token');
  const select$ = context.query.get('$select');
  const linkOf = (state: WalkState & { top: number }) =>
    link(
      context,
      `/drives/${driveId}/root/delta?token=${encode({ ...state, d: driveId })}${select$ ? `&$select=${encodeURIComponent(select$)}` : ''}`,
    );
  let state: WalkState & { top: number };
  if (raw === null) state = { ...beginWalk(tree, null), top: top(context.query, 200) };
  else if (raw === 'latest') {
    const now = tree.changeSequence;
    return sendJson(context.response, 200, {
      value: [],
      '@odata.deltaLink': linkOf({ since: now, after: now, start: now, top: top(context.query, 200) }),
    });
  } else {
    const walk = decode(raw, isWalk);
    // Another drive's token, or one from before the feed's reset (a test hook): Graph asks for a resync.
    if (walk.d !== driveId || walk.start < tree.feedResetAt) {
      const fresh = link(context, `/drives/${driveId}/root/delta`);
      throw new SandboxApiError(
        410,
        'resyncRequired',
        "Resync required. Replace any local items with the server's version (including deletes).",
        {
          Location: fresh,
        },
      );
    }
    state = { since: walk.since, after: walk.after, start: walk.start, top: walk.top };
  }
  const { files, next, syncedTo } = walkChanges(tree, () => true, state, state.top);
  const value: Record<string, unknown>[] = [];
  const sent = new Set<string>();
  for (const file of files) {
    if (file.deleted) {
      value.push({
        id: file.id,
        deleted: { state: 'deleted' },
        parentReference: { driveId, driveType: 'business', id: graphId(tree, file.parent) },
      });
      continue;
    }
    // The parents of a changed item come first, each once a page (deltaExcludeParent not asked for).
    const parents: FolderNode[] = [];
    for (let at: FolderNode | undefined = file.parent; at && !sent.has(at.id); at = at.parent)
      parents.unshift(at);
    for (const folder of parents) {
      sent.add(folder.id);
      value.push(select(context, resource(tree, folder)));
    }
    value.push(select(context, resource(tree, file)));
  }
  sendJson(context.response, 200, {
    '@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#Collection(driveItem)',
    value,
    ...(next
      ? { '@odata.nextLink': linkOf({ ...next, top: state.top }) }
      : {
          '@odata.deltaLink': linkOf({
            since: syncedTo!,
            after: syncedTo!,
            start: syncedTo!,
            top: state.top,
          }),
        }),
  });
}

type Conflict = 'fail' | 'replace' | 'rename';
const conflictOf = (raw: unknown, fallback: Conflict): Conflict => {
  if (raw === undefined || raw === null) return fallback;
  if (raw === 'fail' || raw === 'replace' || raw === 'rename') return raw;
  throw invalid(`Invalid value for @microsoft.graph.conflictBehavior: ${String(raw)}`);
};

/** A folder's child by name, case-insensitively (OneDrive and SharePoint names are). */
function childNamed(folder: FolderNode, name: string): TreeNode | undefined {
  const exact = folder.byName.get(name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  for (const node of folder.byName.values()) if (node.name.toLowerCase() === lower) return node;
  return undefined;
}

const etagOf = (tree: AccountTree, node: TreeNode) => resource(tree, node).eTag as string;

/** If-Match: the item's current eTag, or 412 (the caller's copy is stale). */
function checkIfMatch(context: FakeRouteContext, tree: AccountTree, target: Target): string | undefined {
  const wanted = context.request.headers['if-match'];
  if (wanted === undefined || !('file' in target)) return undefined;
  if (wanted !== '*' && wanted !== etagOf(tree, target.file))
    throw new SandboxApiError(
      412,
      'preconditionFailed',
      'The resource has changed since the caller last read it.',
    );
  return wanted;
}

/** Where an upload goes: an existing file (by id) or a name in a folder. */
type Target = { file: FileNode } | { folder: FolderNode; name: string };

function targetOf(tree: AccountTree, first: string, second?: string): Target {
  if (second === undefined) {
    const node = nodeOf(tree, first);
    if (node?.type !== 'file') throw notFoundItem();
    return { file: node };
  }
  if (!first.endsWith(':') || !second.endsWith(':')) throw notFoundItem();
  const folder = nodeOf(tree, first.slice(0, -1));
  const name = second.slice(0, -1);
  if (folder?.type !== 'folder') throw notFoundItem();
  // eslint-disable-next-line no-control-regex
  if (!name || name === '.' || name === '..' || name.length > 255 || /["*:<>?/\\|\u0000-\u001f]/.test(name))
    throw new SandboxApiError(400, 'invalidRequest', 'The provided name contains invalid characters.');
  return { folder, name };
}

/** Writes an upload; `created` is whether a new file was made. */
function store(
  tree: AccountTree,
  target: Target,
  conflict: Conflict,
  body: { chunks: Buffer[]; size: number; sha256?: string },
  contentType: string,
  clientId: string | undefined,
): { file: FileNode; created: boolean } {
  const content = {
    contentType,
    content: { kind: 'bytes' as const, chunks: body.chunks, size: body.size },
    ...(body.sha256 ? { sha256: body.sha256 } : {}),
  };
  let folder: FolderNode;
  let name: string;
  if ('file' in target) {
    folder = target.file.parent;
    name = target.file.name;
  } else {
    folder = target.folder;
    name = target.name;
    const taken = childNamed(folder, name);
    if (taken?.type === 'folder' || (taken && conflict === 'fail'))
      throw new SandboxApiError(409, 'nameAlreadyExists', 'The specified item name already exists.');
    if (taken && conflict === 'replace') name = taken.name;
    if (taken && conflict === 'rename') {
      const dot = name.lastIndexOf('.');
      for (let n = 1; childNamed(folder, name); n++)
        name = dot > 0 ? `${target.name.slice(0, dot)} ${n}${target.name.slice(dot)}` : `${target.name} ${n}`;
    }
  }
  let out;
  try {
    out = tree.putFile(folder, name, content);
  } catch (error) {
    if (error instanceof NameTakenError)
      throw new SandboxApiError(409, 'nameAlreadyExists', 'The specified item name already exists.');
    throw error;
  }
  const created = out.outcome === 'created';
  const before = written.get(out.file);
  if (clientId)
    written.set(out.file, {
      createdBy: created ? clientId : before?.createdBy,
      modifiedBy: clientId,
      version: out.file.version,
    });
  else written.delete(out.file);
  return { file: out.file, created };
}

async function putContent(context: FakeRouteContext, tree: AccountTree, target: Target) {
  const upload = await context.upload();
  if (upload.size > SIMPLE_UPLOAD_LIMIT)
    throw new SandboxApiError(
      413,
      'requestTooLarge',
      'Simple upload is for files up to 4 MB: use an upload session.',
    );
  checkIfMatch(context, tree, target);
  const conflict = conflictOf(context.query.get('@microsoft.graph.conflictBehavior'), 'replace');
  const type = String(context.request.headers['content-type'] ?? 'application/octet-stream');
  const { file, created } = store(tree, target, conflict, upload, type, context.grant.clientId);
  sendJson(context.response, created ? 201 : 200, resource(tree, file));
}

interface Session {
  accountId: string;
  target: Target;
  conflict: Conflict;
  clientId?: string;
  /** The If-Match the session was created with: checked again when the last fragment lands. */
  ifMatch?: string;
  chunks: Buffer[];
  received: number;
  total?: number;
  expires: number;
}
const sessions = new Map<string, Session>();

async function createSession(context: FakeRouteContext, tree: AccountTree, target: Target) {
  const upload = await context.upload();
  let body: { item?: Record<string, unknown> } = {};
  try {
    const text = Buffer.concat(upload.chunks).toString('utf8');
    body = text ? (JSON.parse(text) as typeof body) : {};
  } catch {
    throw invalid('Unable to read JSON request payload.');
  }
  const conflict = conflictOf(
    body.item?.['@microsoft.graph.conflictBehavior'] ??
      context.query.get('@microsoft.graph.conflictBehavior'),
    'replace',
  );
  const ifMatch = checkIfMatch(context, tree, target);
  if (!('file' in target) && conflict === 'fail' && childNamed(target.folder, target.name))
    throw new SandboxApiError(409, 'nameAlreadyExists', 'The specified item name already exists.');
  const id = randomBytes(24).toString('base64url');
  const expires = context.now + 15 * 60_000;
  sessions.set(id, {
    accountId: tree.accountId,
    target,
    conflict,
    clientId: context.grant.clientId,
    ...(ifMatch ? { ifMatch } : {}),
    chunks: [],
    received: 0,
    expires,
  });
  sendJson(context.response, 200, {
    '@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#microsoft.graph.uploadSession',
    uploadUrl: `${context.origin}/microsoft/upload/${id}`,
    expirationDateTime: isoTime(expires),
    nextExpectedRanges: ['0-'],
  });
}

/** The session an upload URL names: pre-authenticated (a bearer token sent is refused), not expired. */
function openSession(context: FakeRouteContext) {
  if (context.request.headers.authorization)
    throw new SandboxApiError(
      401,
      'unauthenticated',
      'The upload URL is pre-authenticated: send no Authorization header.',
    );
  const session = sessions.get(context.params.session!);
  if (!session || session.expires < context.now)
    throw new SandboxApiError(404, 'itemNotFound', 'The upload session was not found.');
  return session;
}

async function putFragment(context: FakeRouteContext) {
  const { request, response, params } = context;
  const session = openSession(context);
  const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(request.headers['content-range'] ?? ''));
  if (!range) throw invalid('The Content-Range header is missing or malformed.');
  const [first, last, total] = [Number(range[1]), Number(range[2]), Number(range[3])];
  const length = last - first + 1;
  if (length > FRAGMENT_MAX)
    throw new SandboxApiError(413, 'requestTooLarge', 'A fragment is at most 60 MiB.');
  const upload = await context.upload();
  const ranges = () => [`${session.received}-${session.total === undefined ? '' : session.total - 1}`];
  if (
    first !== session.received ||
    upload.size !== length ||
    (session.total !== undefined && total !== session.total) ||
    last >= total
  )
    throw new SandboxApiError(
      416,
      'invalidRange',
      `The uploaded fragment does not continue the upload; next expected: ${ranges()[0]}`,
    );
  const final = last + 1 === total;
  if (!final && length % FRAGMENT_UNIT !== 0)
    throw invalid('Fragments must be a multiple of 320 KiB, but for the last.');
  session.total = total;
  session.chunks.push(...upload.chunks);
  session.received += upload.size;
  session.expires = context.now + 15 * 60_000;
  if (!final)
    return sendJson(response, 202, {
      expirationDateTime: isoTime(session.expires),
      nextExpectedRanges: ranges(),
    });
  sessions.delete(params.session!);
  const tree = context.treeOf(session.accountId);
  const type = 'application/octet-stream';
  let target = session.target;
  if ('file' in target) {
    const now = tree.file(target.file.id);
    if (!now) throw notFoundItem();
    if (session.ifMatch && session.ifMatch !== '*' && session.ifMatch !== etagOf(tree, now))
      throw new SandboxApiError(
        412,
        'preconditionFailed',
        'The resource has changed since the caller last read it.',
      );
    target = { file: now };
  }
  const { file, created } = store(
    tree,
    target,
    session.conflict,
    { chunks: session.chunks, size: session.received },
    type,
    session.clientId,
  );
  sendJson(response, created ? 201 : 200, resource(tree, file));
}

/** GET <uploadUrl>: where an upload session is (Graph's way to resume an interrupted upload). */
function sessionStatus(context: FakeRouteContext) {
  const session = openSession(context);
  sendJson(context.response, 200, {
    expirationDateTime: isoTime(session.expires),
    nextExpectedRanges: [`${session.received}-${session.total === undefined ? '' : session.total - 1}`],
  });
}

export function graphRoutes(): FakeRoute[] {
  const items = '/v1.0/drives/{driveId}/items';
  return [
    {
      method: 'GET',
      path: '/v1.0/me',
      scopes: ['User.Read'],
      handle: ({ grant, response }) =>
        sendJson(response, 200, {
          '@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#users/$entity',
          id: grant.accountId,
          displayName: grant.name,
          mail: grant.email || null,
          userPrincipalName: grant.email || `${grant.accountId}@example.onmicrosoft.com`,
        }),
    },
    { method: 'GET', path: '/v1.0/me/drive', scopes: READ, handle: (c) => drive(c, c.tree) },
    { method: 'GET', path: '/v1.0/me/drive/root', scopes: READ, handle: (c) => item(c, c.tree, c.tree.root) },
    {
      method: 'GET',
      path: '/v1.0/drives/{driveId}',
      scopes: READ,
      handle: (c) => drive(c, driveTree(c, c.params.driveId!)),
    },
    {
      method: 'GET',
      path: '/v1.0/drives/{driveId}/root',
      scopes: READ,
      handle: (c) => {
        const tree = driveTree(c, c.params.driveId!);
        item(c, tree, tree.root);
      },
    },
    {
      method: 'GET',
      path: '/v1.0/drives/{driveId}/root/delta',
      scopes: READ,
      handle: (c) => delta(c, driveTree(c, c.params.driveId!)),
    },
    {
      method: 'GET',
      path: `${items}/{itemId}`,
      scopes: READ,
      handle: (c) => {
        const tree = driveTree(c, c.params.driveId!);
        item(c, tree, nodeOf(tree, c.params.itemId!));
      },
    },
    {
      // {itemId}/children, {itemId}/content, or {parentId}:/{name} (an item by path)
      method: 'GET',
      path: `${items}/{first}/{second}`,
      scopes: READ,
      handle: (c) => {
        const tree = driveTree(c, c.params.driveId!);
        const { first, second } = c.params as { first: string; second: string };
        if (first.endsWith(':')) {
          const folder = nodeOf(tree, first.slice(0, -1));
          if (folder?.type !== 'folder') throw notFoundItem();
          return item(c, tree, childNamed(folder, second));
        }
        if (second === 'children') return children(c, tree, first);
        if (second === 'content') return contentRedirect(c, tree, first);
        throw new SandboxApiError(400, 'BadRequest', `Resource not found for the segment '${second}'.`);
      },
    },
    {
      method: 'PUT',
      path: `${items}/{first}/{second}`,
      scopes: WRITE,
      handle: (c) => {
        if (c.params.second !== 'content') throw notFoundItem();
        const tree = driveTree(c, c.params.driveId!);
        return putContent(c, tree, targetOf(tree, c.params.first!));
      },
    },
    {
      method: 'PUT',
      path: `${items}/{first}/{second}/{action}`,
      scopes: WRITE,
      handle: (c) => {
        if (c.params.action !== 'content') throw notFoundItem();
        const tree = driveTree(c, c.params.driveId!);
        return putContent(c, tree, targetOf(tree, c.params.first!, c.params.second));
      },
    },
    {
      method: 'POST',
      path: `${items}/{first}/{second}`,
      scopes: WRITE,
      handle: (c) => {
        if (c.params.second !== 'createUploadSession') throw notFoundItem();
        const tree = driveTree(c, c.params.driveId!);
        return createSession(c, tree, targetOf(tree, c.params.first!));
      },
    },
    {
      method: 'POST',
      path: `${items}/{first}/{second}/{action}`,
      scopes: WRITE,
      handle: (c) => {
        if (c.params.action !== 'createUploadSession') throw notFoundItem();
        const tree = driveTree(c, c.params.driveId!);
        return createSession(c, tree, targetOf(tree, c.params.first!, c.params.second));
      },
    },
    {
      method: 'GET',
      path: '/v1.0/sites',
      scopes: SITES,
      handle: (c) => {
        if (c.query.get('search') === null)
          throw invalid('Sites can be listed with a search query: ?search=*');
        const id = siteIdOf(c.grant.accountId);
        sendJson(c.response, 200, {
          '@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#sites',
          value: [
            select(c, {
              id,
              name: 'team',
              displayName: 'Team Site',
              webUrl: 'https://contoso.sharepoint.com/sites/team',
            }),
          ],
        });
      },
    },
    {
      method: 'GET',
      path: '/v1.0/sites/{siteId}/drives',
      scopes: SITES,
      handle: (c) => {
        if (c.params.siteId !== siteIdOf(c.grant.accountId)) throw notFoundItem();
        const team = c.treeOf(teamAccount(c.grant.accountId));
        sendJson(c.response, 200, {
          '@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#drives',
          value: [select(c, { id: driveIdOf(team), name: 'Documents', driveType: 'documentLibrary' })],
        });
      },
    },
    // Pre-authenticated URLs: no bearer token (one sent is refused), no injected failure.
    { method: 'GET', path: '/download/{token}', scopes: [], anonymous: true, handle: download },
    { method: 'PUT', path: '/upload/{session}', scopes: [], anonymous: true, handle: putFragment },
    { method: 'GET', path: '/upload/{session}', scopes: [], anonymous: true, handle: sessionStatus },
    {
      method: 'DELETE',
      path: '/upload/{session}',
      scopes: [],
      anonymous: true,
      handle: (c) => {
        sessions.delete(c.params.session!);
        c.response.writeHead(204);
        c.response.end();
      },
    },
  ];
}
