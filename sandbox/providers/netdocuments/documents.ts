// NetDocuments' REST API (v1, v2) as the certified Power Platform connector describes its operations,
// over the sandbox's account trees (../../content/tree.ts, drive-shaped): the tree's root is the user's
// one cabinet, a folder directly in it a workspace (`ndws`), any deeper folder a folder (`ndfld`), a
// file a document (its name and extension apart). Paths under the fake's prefix and region segment
// (`<origin>/netdocuments/<region>` stands for https://api.<region's host>):
//   GET    /v1/User/info                      -> {id, displayName, email, organization, primaryCabinet, ...}
//   GET    /v1/User/cabinets                  -> [{id: NG-xxxxxxxx, name, repositoryId, repositoryName, ...}]
//   GET    /v2/container/{id}                 ?select=standardAttributes&top(1-500, default 50)&skiptoken
//          -> {Results: [standard attributes], TotalFound, SkipToken?}
//   GET    /v2/Search                         ?cabinets (comma-separated)&q&select=standardAttributes&orderby=lastMod|asc&top&skiptoken
//          q: space-separated clauses, all of which hold: `=10(<container id>)` under that container,
//          `=7(^<yyyyMMddHHmmssfff>-[<yyyyMMddHHmmssfff>])` modified at or after (and at or before),
//          `=deleted(*)` deleted documents too
//   GET    /v1/Document/{id}/info             -> {standardAttributes}
//   GET    /v1/Document/{id}[/{version}]      the content of the latest (or that) version
//   POST   /v1/Document/upload                multipart: destination, file (filename = name.extension)
//          -> {id, name, extension}
//   PUT    /v1/Document/{id}/new              ?extension; the body a new version -> {latestVersionNumber, ...}
//   DELETE /v1/Document/{id}                  ?permanent: to Deleted Items (listed by =deleted(*))
// Documents, folders and workspaces have 12-digit ids `dddd-dddd-dddd`. A document's version number
// counts its content changes (every content the fake has seen is a version it can answer). The
// search's skiptoken is a position in its (modified, id) order, so a document modified during a pass
// moves past it and is listed again, never skipped. Errors are `{"error": "<message>"}`.
import { createHash } from 'node:crypto';
import { isoTime } from '../../clock';
import { SandboxApiError, checkName, formParts, sendContent, sendJson } from '../../content/http';
import type { AccountTree, FileContent, FileNode, FolderNode, TreeNode } from '../../content/tree';
import { NameTakenError, contentChunks, isWithin } from '../../content/tree';
import type { ProviderIds } from '../../content/types';
import type { FakeRoute, FakeRouteContext } from '../fake';

export const ND_READ = 'read';
export const ND_WRITE = 'edit';
const PAGE_DEFAULT = 50;
const PAGE_MAX = 500;

export const badRequest = (message: string) => new SandboxApiError(400, 'bad_request', message);
const notFound = (what: string) => new SandboxApiError(404, 'not_found', `${what} not found`);

/** The user's cabinet id, fixed per account: `NG-` and eight letters and digits. */
export const cabinetId = (accountId: string) =>
  `NG-${createHash('sha256').update(`cabinet\u0000${accountId}`).digest('hex').slice(0, 8).toUpperCase()}`;

interface Ids {
  byNode: Map<string, string>;
  byId: Map<string, string>;
}
const idMaps = new WeakMap<AccountTree, Ids>();

function idsOf(tree: AccountTree): Ids {
  let ids = idMaps.get(tree);
  if (!ids) idMaps.set(tree, (ids = { byNode: new Map(), byId: new Map() }));
  return ids;
}

/** A node's 12-digit id, drawn from its tree id (the same in every run), given on first sight. */
function itemId(tree: AccountTree, nodeId: string): string {
  const ids = idsOf(tree);
  let id = ids.byNode.get(nodeId);
  if (id) return id;
  for (let salt = 0; !id || ids.byId.has(id); salt++) {
    const digits = (
      BigInt(`0x${createHash('sha256').update(`${nodeId}\u0000${salt}`).digest('hex').slice(0, 15)}`) %
      10n ** 12n
    )
      .toString()
      .padStart(12, '0');
    id = `${digits.slice(0, 4)}-${digits.slice(4, 8)}-${digits.slice(8)}`;
  }
  ids.byNode.set(nodeId, id);
  ids.byId.set(id, nodeId);
  return id;
}

export const ndIds: ProviderIds = {
  providerId: (tree, node) => (node === tree.root ? cabinetId(tree.accountId) : itemId(tree, node.id)),
  treeId: (tree, id) => (id === cabinetId(tree.accountId) ? tree.root.id : idsOf(tree).byId.get(id)),
};

/** A document's versions: each content the fake has seen, numbered from 1. */
const versions = new WeakMap<FileNode, FileContent[]>();
function versionNumber(file: FileNode): number {
  let list = versions.get(file);
  if (!list) versions.set(file, (list = []));
  if (list.at(-1) !== file.content) list.push(file.content);
  return list.length;
}

const split = (full: string) => {
  const dot = full.lastIndexOf('.');
  return dot <= 0 || dot === full.length - 1
    ? { name: full, extension: '' }
    : { name: full.slice(0, dot), extension: full.slice(dot + 1) };
};

const folderExtension = (tree: AccountTree, folder: FolderNode) =>
  folder.parent === tree.root ? 'ndws' : 'ndfld';

function folderAttributes(tree: AccountTree, folder: FolderNode) {
  return {
    id: itemId(tree, folder.id),
    envId: `:Q1:${itemId(tree, folder.id).replace(/-/g, ':')}.nev`,
    name: folder.name,
    extension: folderExtension(tree, folder),
    created: isoTime(folder.updatedAt),
    modified: isoTime(folder.updatedAt),
    deleted: false,
  };
}

function documentAttributes(tree: AccountTree, file: FileNode) {
  const { name, extension } = split(file.name);
  const number = versionNumber(file);
  return {
    id: itemId(tree, file.id),
    envId: `:Q1:${itemId(tree, file.id).replace(/-/g, ':')}.nev`,
    name,
    extension,
    size: file.content.size,
    created: isoTime(versions.get(file)?.length === 1 ? file.updatedAt : file.updatedAt),
    modified: isoTime(file.updatedAt),
    latestVersionNumber: number,
    officialVer: number,
    deleted: file.deleted,
  };
}

const attributesOf = (tree: AccountTree, node: TreeNode) =>
  node.type === 'folder' ? folderAttributes(tree, node) : documentAttributes(tree, node);

/** A container (the cabinet, a workspace, a folder) by its id; 404 otherwise. */
function containerOf(tree: AccountTree, id: string | undefined): FolderNode {
  const treeId = id ? ndIds.treeId(tree, id) : undefined;
  const folder = treeId ? tree.folder(treeId) : undefined;
  if (!folder) throw notFound('Container');
  return folder;
}

/** A document by its id, deleted ones too (in Deleted Items); 404 otherwise. */
function documentOf(tree: AccountTree, id: string | undefined): FileNode {
  const treeId = id ? idsOf(tree).byId.get(id) : undefined;
  const file = treeId ? (tree.file(treeId) ?? tree.deletedFile(treeId)) : undefined;
  if (!file) throw notFound('Document');
  return file;
}

function top(query: URLSearchParams): number {
  const raw = query.get('top') ?? query.get('$top');
  if (raw === null) return PAGE_DEFAULT;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > PAGE_MAX) throw badRequest(`top must be 1 to ${PAGE_MAX}`);
  return n;
}

function requireStandardAttributes(query: URLSearchParams) {
  if (query.get('select') !== 'standardAttributes') throw badRequest('select must be standardAttributes');
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
function decode(raw: string): unknown {
  try {
    return JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('Invalid skiptoken');
  }
}

function listContainer(context: FakeRouteContext) {
  const { tree, query, params } = context;
  requireStandardAttributes(query);
  const folder = containerOf(tree, params.id);
  const limit = top(query);
  const raw = query.get('skiptoken');
  const after = raw === null ? '' : decode(raw);
  if (typeof after !== 'string') throw badRequest('Invalid skiptoken');
  const { items, more } = tree.children(folder, after, limit);
  sendJson(context.response, 200, {
    Results: items.map((node) => attributesOf(tree, node)),
    TotalFound: folder.byName.size,
    ...(more ? { SkipToken: encode(items.at(-1)!.id) } : {}),
  });
}

/** The search's clauses, each of which a document must satisfy. */
/** `yyyyMMddHHmmssfff` (UTC) as epoch milliseconds. */
const instantOf = (d: string) =>
  Date.UTC(
    +d.slice(0, 4),
    +d.slice(4, 6) - 1,
    +d.slice(6, 8),
    +d.slice(8, 10),
    +d.slice(10, 12),
    +d.slice(12, 14),
    +d.slice(14),
  );

/** The search's clauses, each of which a document must satisfy. */
function parseQuery(tree: AccountTree, q: string | null) {
  if (!q?.trim()) throw badRequest('q is required');
  let scope: FolderNode | undefined;
  let from = -Infinity;
  let to = Infinity;
  let deleted = false;
  for (const clause of q.trim().split(/\s+/)) {
    let m: RegExpExecArray | null;
    if ((m = /^=10\(([^)]+)\)$/.exec(clause))) scope = containerOf(tree, m[1]);
    else if ((m = /^=7\(\^(\d{17})-(\d{17})?\)$/.exec(clause))) {
      from = instantOf(m[1]!);
      if (m[2]) to = instantOf(m[2]);
    } else if (clause === '=deleted(*)') deleted = true;
    else throw badRequest(`Unsupported search criteria: ${clause}`);
  }
  return { scope, from, to, deleted };
}

function search(context: FakeRouteContext) {
  const { tree, query } = context;
  requireStandardAttributes(query);
  const named = (query.get('cabinets') ?? '').split(',');
  if (named.some((id) => id !== cabinetId(tree.accountId))) throw notFound('Cabinet');
  const orderby = query.get('orderby');
  if (orderby !== null && orderby !== 'lastMod|asc') throw badRequest('orderby must be lastMod|asc');
  const { scope, from, to, deleted } = parseQuery(tree, query.get('q'));
  const limit = top(query);
  const raw = query.get('skiptoken');
  const position = raw === null ? undefined : (decode(raw) as { m?: unknown; i?: unknown });
  if (position && (typeof position.m !== 'number' || typeof position.i !== 'string'))
    throw badRequest('Invalid skiptoken');
  const matched = [...tree.liveFiles(), ...(deleted ? deletedFiles(tree) : [])]
    .filter((file) => file.updatedAt >= from && file.updatedAt <= to && (!scope || isWithin(file, scope)))
    .sort((a, b) => a.updatedAt - b.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const start = position
    ? matched.findIndex(
        (file) =>
          file.updatedAt > (position.m as number) ||
          (file.updatedAt === position.m && file.id > (position.i as string)),
      )
    : 0;
  const page = start < 0 ? [] : matched.slice(start, start + limit);
  const more = start >= 0 && start + limit < matched.length;
  const last = page.at(-1);
  sendJson(context.response, 200, {
    Results: page.map((file) => documentAttributes(tree, file)),
    TotalFound: matched.length,
    ...(more && last ? { SkipToken: encode({ m: last.updatedAt, i: last.id }) } : {}),
  });
}

/** Documents in Deleted Items: the tree's tombstones. */
function deletedFiles(tree: AccountTree): FileNode[] {
  return tree.changesAfter(0, (file) => file.deleted, Number.MAX_SAFE_INTEGER).files;
}

async function download(context: FakeRouteContext) {
  const file = documentOf(context.tree, context.params.id);
  if (file.deleted) throw notFound('Document');
  const current = versionNumber(file);
  const asked = context.params.version === undefined ? current : Number(context.params.version);
  const content = versions.get(file)?.[asked - 1];
  if (!Number.isInteger(asked) || !content) throw notFound('Version');
  if (asked === current) return sendContent(context.request, context.response, file);
  // An earlier version: its bytes as the fake saw them (generated content is produced from the file).
  const chunks = content.kind === 'bytes' ? content.chunks : [...contentChunks({ ...file, content })];
  context.response.writeHead(200, {
    'Content-Type': file.contentType,
    'Content-Length': String(content.size),
  });
  for (const chunk of chunks) context.response.write(chunk);
  context.response.end();
}

async function createDocument(context: FakeRouteContext) {
  const { tree } = context;
  const upload = await context.upload();
  const parts = formParts(context.request, Buffer.concat(upload.chunks), badRequest);
  const destination = parts.find((p) => p.name === 'destination')?.data.toString('utf8');
  const file = parts.find((p) => p.name === 'file');
  if (!destination || !file) throw badRequest('destination and file are required');
  let name: string;
  try {
    name = checkName(file.filename ?? null);
  } catch {
    throw badRequest('Invalid file name');
  }
  const folder = containerOf(tree, destination);
  try {
    const made = tree.putFile(folder, name, {
      contentType: file.type ?? 'application/octet-stream',
      content: { kind: 'bytes', chunks: [file.data], size: file.data.length },
      sha256: createHash('sha256').update(file.data).digest('hex'),
    });
    if (made.outcome !== 'created') throw new NameTakenError(name);
    const attributes = documentAttributes(tree, made.file);
    sendJson(context.response, 200, {
      id: attributes.id,
      name: attributes.name,
      extension: attributes.extension,
    });
  } catch (error) {
    // The tree holds one file per name in a folder; NetDocuments would make a second document.
    if (error instanceof NameTakenError)
      throw new SandboxApiError(409, 'conflict', 'A document of that name is there');
    throw error;
  }
}

async function newVersion(context: FakeRouteContext) {
  const { tree } = context;
  const file = documentOf(tree, context.params.id);
  if (file.deleted) throw notFound('Document');
  const upload = await context.upload();
  const extension = context.query.get('extension');
  if (extension !== null && extension !== split(file.name).extension) {
    const renamed = `${split(file.name).name}${extension ? `.${extension}` : ''}`;
    if (file.parent.byName.has(renamed))
      throw new SandboxApiError(409, 'conflict', 'A document of that name is there');
    tree.moveFile(file, file.parent, renamed);
  }
  const type = context.request.headers['content-type'];
  tree.putFile(file.parent, file.name, {
    contentType: type && type !== 'application/octet-stream' ? type : file.contentType,
    content: { kind: 'bytes', chunks: upload.chunks, size: upload.size },
    sha256: upload.sha256,
  });
  const number = versionNumber(file);
  sendJson(context.response, 200, {
    latestVersionNumber: number,
    newVer: number,
    newVersionLabel: String(number),
    officialVer: number,
    officialVerName: String(number),
    versions: String(number),
  });
}

function user(context: FakeRouteContext) {
  const { grant, tree } = context;
  sendJson(context.response, 200, {
    id: grant.accountId,
    displayName: grant.name,
    email: grant.email,
    organization: 'Sandbox',
    isRepositoryMember: true,
    primaryCabinet: cabinetId(tree.accountId),
    sortLookupBy: 'key',
    external: false,
  });
}

function cabinets(context: FakeRouteContext) {
  sendJson(context.response, 200, [
    {
      id: cabinetId(context.tree.accountId),
      isCollaborationSpacesEnabled: 'false',
      name: 'Documents',
      repositoryId: `CA-${cabinetId(context.tree.accountId).slice(3)}`,
      repositoryName: 'Sandbox repository',
      wsAttrNum: 1,
      wsOrgAttrNum: 0,
    },
  ]);
}

export function ndRoutes(): FakeRoute[] {
  const read = [ND_READ];
  return [
    { method: 'GET', path: '/v1/User/info', scopes: read, handle: user },
    { method: 'GET', path: '/v1/User/cabinets', scopes: read, handle: cabinets },
    { method: 'GET', path: '/v2/container/{id}', scopes: read, handle: listContainer },
    { method: 'GET', path: '/v2/Search', scopes: read, handle: search },
    {
      method: 'GET',
      path: '/v1/Document/{id}/info',
      scopes: read,
      handle: (context) =>
        sendJson(context.response, 200, {
          standardAttributes: documentAttributes(context.tree, documentOf(context.tree, context.params.id)),
        }),
    },
    { method: 'GET', path: '/v1/Document/{id}', scopes: read, handle: download },
    { method: 'GET', path: '/v1/Document/{id}/{version}', scopes: read, handle: download },
    { method: 'POST', path: '/v1/Document/upload', scopes: [ND_WRITE], handle: createDocument },
    { method: 'PUT', path: '/v1/Document/{id}/new', scopes: [ND_WRITE], handle: newVersion },
    {
      method: 'DELETE',
      path: '/v1/Document/{id}',
      scopes: ['delete_doc'],
      handle: (context) => {
        const file = documentOf(context.tree, context.params.id);
        context.tree.deleteFile(file);
        context.response.writeHead(204).end();
      },
    },
  ];
}
