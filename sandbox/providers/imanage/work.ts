// iManage Work REST API v2's document endpoints, over the sandbox's account trees, served per server:
// the first path segment under /imanage is the customer's server (`cloudimanage.com`,
// `work.firm.example`), so API_URL `<origin>/imanage/{server}` stands for https://{server}.
//   GET  /api                                                discovery: the user, customer id, libraries
//   W = /work/api/v2/customers/{customerId}/libraries/{libraryId}
//   GET  W/workspaces?offset&limit                           the library's workspaces (matters)
//   GET  W/folders/{folderId}                                a folder's profile (a workspace's too)
//   GET  W/folders/{folderId}/children?offset&limit          its subfolders
//   GET  W/folders/{folderId}/documents?offset&limit         its documents (latest versions)
//   GET  W/documents?container_id&edit_date_from&offset&limit   documents in the container and below,
//                                                            edited since, by document number
//   GET  W/documents/{documentId}                            a document's profile
//   GET  W/documents/{documentId}/download                   its bytes
//   POST W/folders/{folderId}/documents                      multipart `profile` {doc_profile}, `file`:
//                                                            201, the new document's short profile
//   POST W/documents/{documentId}/versions                   the same: a new version of the document
// The tree maps onto a library (`ACTIVE`) whose top folders are workspaces; a document's id is
// `ACTIVE!<number>.<version>` (`ACTIVE!<number>` names its latest version). Its version number grows
// when its content does (a move or rename edits the profile only: same version, new edit_date). Lists
// answer `{data: [...], total_count}`; errors `{error: {code, message}}`; 429 TOO_MANY_REQUESTS with
// Retry-After. Documents deleted leave every listing (iManage keeps them for a restore out of reach of
// this API), and a restore answers the document as it was, edit_date included. The tree holds a name
// once per folder where iManage does not: a name taken is 409 DUPLICATE_NAME here.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isoTime } from '../../clock';
import { SandboxApiError, jsonAndFileParts, sendContent } from '../../content/http';
import type { AccountTree, FileNode, FolderNode, TreeNode } from '../../content/tree';
import { NameTakenError, isWithin, sha256Of } from '../../content/tree';
import type { ProviderIds } from '../../content/types';
import type { FakeRoute, FakeRouteContext } from '../fake';

export const IMANAGE_SCOPE = 'user';
export const IMANAGE_LIBRARY = 'ACTIVE';
const SCOPES = [IMANAGE_SCOPE];
const PAGE_DEFAULT = 100;
const PAGE_MAX = 500;

/** An iManage answer other than success: `{error: {code, message}}`. */
export const workError = (
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
) => new SandboxApiError(status, code, message, headers);
const notFound = (what: string) => workError(404, 'NOT_FOUND', `${what} was not found`);
const badParameter = (message: string) => workError(400, 'INVALID_PARAMETER', message);

export function sendWorkError(response: ServerResponse, error: SandboxApiError): void {
  const text = JSON.stringify({ error: { code: error.code, message: error.description ?? error.code } });
  response.writeHead(error.status, {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(text)),
    ...error.headers,
  });
  response.end(text);
}

// Ids: a node's number is the first 48 bits of its tree id (a JSON number stays exact), remembered per
// tree so that a number the fake handed out names its node again.
const numbers = new WeakMap<AccountTree, Map<number, string>>();
function numberOf(tree: AccountTree, node: TreeNode): number {
  const n = Number.parseInt(node.id.slice(4, 16), 16);
  let known = numbers.get(tree);
  if (!known) numbers.set(tree, (known = new Map()));
  known.set(n, node.id);
  return n;
}

const ID = /^([A-Za-z0-9_]{1,32})!(\d{1,15})(?:\.(\d{1,9}))?$/;

export const imanageIds: ProviderIds = {
  providerId: (tree, node) =>
    node === tree.root ? IMANAGE_LIBRARY : `${IMANAGE_LIBRARY}!${numberOf(tree, node)}`,
  treeId(tree, id) {
    if (id === IMANAGE_LIBRARY) return tree.root.id;
    const found = ID.exec(id);
    if (!found || found[1]!.toUpperCase() !== IMANAGE_LIBRARY) return undefined;
    return numbers.get(tree)?.get(Number(found[2]));
  },
};

/** The customer id iManage gives an account: a number of its own, the same in every run. */
export const customerIdOf = (account: string) =>
  1000 + (createHash('sha256').update(`imanage-customer\u0000${account}`).digest().readUInt32BE(0) % 9000);

/** The user id iManage reports for a sandbox account (iManage user ids are upper-case logins). */
export const imanageUserId = (account: string) => account.toUpperCase().replace(/[^A-Z0-9_.@-]/g, '_');

// Version numbers: the first content a document is seen with is version 1; a new content, the next.
const versions = new WeakMap<FileNode, { at: number; sha: string; version: number }>();
function versionOf(file: FileNode): number {
  const seen = versions.get(file);
  if (seen?.at === file.version) return seen.version;
  const sha = sha256Of(file);
  const version = !seen ? 1 : seen.sha === sha ? seen.version : seen.version + 1;
  versions.set(file, { at: file.version, sha, version });
  return version;
}

/** What the profile's comment holds (an upload's own note: its idempotency key, for one). */
const comments = new WeakMap<FileNode, string>();

/** `Report.final.pdf` -> name `Report.final`, extension `pdf`; no extension when there is no inner dot. */
export function splitName(full: string): { name: string; extension: string } {
  const dot = full.lastIndexOf('.');
  return dot > 0 && dot < full.length - 1
    ? { name: full.slice(0, dot), extension: full.slice(dot + 1) }
    : { name: full, extension: '' };
}

const TYPES: Record<string, string> = {
  txt: 'ANSI',
  pdf: 'ACROBAT',
  docx: 'WORDX',
  doc: 'WORD',
  xlsx: 'EXCELX',
};

const stamp = (ms: number) => isoTime(ms);

function owner(tree: AccountTree) {
  return imanageUserId(tree.accountId);
}

function workspaceOf(tree: AccountTree, node: TreeNode): FolderNode | undefined {
  let at: FolderNode | undefined = node.type === 'folder' ? node : node.parent;
  while (at?.parent && at.parent !== tree.root) at = at.parent;
  return at && at !== tree.root ? at : undefined;
}

function documentProfile(context: FakeRouteContext, tree: AccountTree, file: FileNode) {
  const number = numberOf(tree, file);
  const version = versionOf(file);
  const { name, extension } = splitName(file.name);
  const workspace = workspaceOf(tree, file);
  const user = owner(tree);
  return {
    id: `${IMANAGE_LIBRARY}!${number}.${version}`,
    database: IMANAGE_LIBRARY,
    document_number: number,
    version,
    name,
    extension,
    full_file_name: file.name,
    size: file.content.size,
    type: TYPES[extension.toLowerCase()] ?? 'MIME',
    content_type: file.contentType,
    author: user,
    operator: user,
    last_user: user,
    create_date: stamp(file.updatedAt),
    edit_date: stamp(file.updatedAt),
    edit_profile_date: stamp(file.updatedAt),
    file_create_date: stamp(file.updatedAt),
    file_edit_date: stamp(file.updatedAt),
    comment: comments.get(file) ?? '',
    default_security: 'inherit',
    is_hipaa: false,
    is_checked_out: false,
    is_declared: false,
    is_external: false,
    is_in_use: false,
    indexable: true,
    iwl: `iwl:dms=${context.tenant}&&lib=${IMANAGE_LIBRARY}&&num=${number}&&ver=${version}`,
    document_url: `https://${context.tenant}/work/link/d/${IMANAGE_LIBRARY}!${number}.${version}`,
    wstype: 'document',
    ...(workspace
      ? { workspace_id: imanageIds.providerId(tree, workspace), workspace_name: workspace.name }
      : {}),
  };
}

function folderProfile(context: FakeRouteContext, tree: AccountTree, folder: FolderNode) {
  const id = imanageIds.providerId(tree, folder);
  const workspace = workspaceOf(tree, folder)!;
  const isWorkspace = folder === workspace;
  const children = [...folder.byName.values()];
  return {
    id,
    name: folder.name,
    database: IMANAGE_LIBRARY,
    wstype: isWorkspace ? 'workspace' : 'folder',
    folder_type: isWorkspace ? 'workspace' : 'regular',
    ...(isWorkspace ? {} : { parent_id: imanageIds.providerId(tree, folder.parent!) }),
    workspace_id: imanageIds.providerId(tree, workspace),
    workspace_name: workspace.name,
    has_documents: children.some((c) => c.type === 'file'),
    has_subfolders: children.some((c) => c.type === 'folder'),
    owner: owner(tree),
    default_security: 'inherit',
    edit_date: stamp(folder.updatedAt),
    is_external: false,
    is_external_as_normal: false,
    is_container_saved_search: false,
    is_content_saved_search: false,
    view_type: 'document',
    folder_url: `https://${context.tenant}/work/link/f/${id}`,
  };
}

function workspaceProfile(context: FakeRouteContext, tree: AccountTree, folder: FolderNode) {
  const id = imanageIds.providerId(tree, folder);
  return {
    id,
    name: folder.name,
    database: IMANAGE_LIBRARY,
    wstype: 'workspace',
    owner: owner(tree),
    create_date: stamp(folder.updatedAt),
    edit_date: stamp(folder.updatedAt),
    default_security: 'inherit',
    has_subfolders: [...folder.byName.values()].some((c) => c.type === 'folder'),
    is_external_as_normal: false,
    iwl: `iwl:dms=${context.tenant}&&lib=${IMANAGE_LIBRARY}&&num=${numberOf(tree, folder)}`,
    basic_properties: '',
    workspace_url: `https://${context.tenant}/work/link/w/${id}`,
  };
}

/** `offset` and `limit` (1 to 500, 100 when absent). */
function paging(query: URLSearchParams): { offset: number; limit: number } {
  const read = (name: string, fallback: number, min: number, max: number) => {
    const raw = query.get(name);
    if (raw === null) return fallback;
    if (!/^\d{1,9}$/.test(raw) || Number(raw) < min || Number(raw) > max)
      throw badParameter(`${name} must be a whole number from ${min} to ${max}`);
    return Number(raw);
  };
  return { offset: read('offset', 0, 0, 999_999_999), limit: read('limit', PAGE_DEFAULT, 1, PAGE_MAX) };
}

function page<T, U>(items: T[], query: URLSearchParams, view: (item: T) => U) {
  const { offset, limit } = paging(query);
  return { data: items.slice(offset, offset + limit).map(view), total_count: items.length };
}

/** A folder's live children in number order (the tree's id order: numbers are the ids' prefixes). */
function childrenOf(tree: AccountTree, folder: FolderNode): TreeNode[] {
  return tree.children(folder, '', Number.MAX_SAFE_INTEGER).items;
}

function folderOf(tree: AccountTree, id: string): FolderNode {
  const folder = tree.folder(imanageIds.treeId(tree, id) ?? '');
  if (!folder || folder === tree.root) throw notFound(`Folder ${id}`);
  return folder;
}

function documentOf(tree: AccountTree, id: string): FileNode {
  const found = ID.exec(id);
  const file = tree.file(imanageIds.treeId(tree, id) ?? '');
  // Only the latest version's content is kept: an older version's id is not found here.
  if (!file || (found?.[3] !== undefined && Number(found[3]) !== versionOf(file)))
    throw notFound(`Document ${id}`);
  return file;
}

/** The path's customer and library must be the caller's. */
function checkLibrary(context: FakeRouteContext): void {
  if (context.params.customerId !== String(customerIdOf(context.grant.accountId)))
    throw workError(403, 'FORBIDDEN', 'The customer is not the user’s');
  if (context.params.libraryId?.toUpperCase() !== IMANAGE_LIBRARY)
    throw notFound(`Library ${context.params.libraryId}`);
}

/** The two parts of an upload: `profile` (JSON with doc_profile) first, then `file`. */
function multipart(request: IncomingMessage, body: Buffer) {
  const { json, bytes, type } = jsonAndFileParts(
    request,
    body,
    { json: 'profile', file: 'file' },
    badParameter,
  );
  const doc = (json as { doc_profile?: unknown }).doc_profile;
  if (!doc || typeof doc !== 'object') throw badParameter('profile.doc_profile is required');
  return { doc: doc as Record<string, unknown>, bytes, type };
}

/** The file name an upload's profile gives: `name` and `extension`, checked as iManage checks them. */
function fileNameOf(doc: Record<string, unknown>, fallback?: string): string {
  if (doc.name === undefined && fallback !== undefined) return fallback;
  const name = doc.name;
  const extension = doc.extension ?? '';
  if (typeof name !== 'string' || typeof extension !== 'string')
    throw badParameter('name and extension are text');
  const full = extension ? `${name}.${extension}` : name;
  // eslint-disable-next-line no-control-regex
  if (!name.trim() || full.length > 255 || /[\\/\u0000-\u001f]/.test(full) || /[.\\/]/.test(extension))
    throw badParameter('The document name is not valid');
  return full;
}

type Handler = (context: FakeRouteContext) => unknown;

function route(method: FakeRoute['method'], path: string, handle: Handler, status = 200): FakeRoute {
  return {
    method,
    path,
    scopes: SCOPES,
    async handle(context) {
      const result = await handle(context);
      if (context.response.headersSent) return;
      const text = JSON.stringify(result);
      context.response.writeHead(status, {
        'Content-Type': 'application/json',
        'Content-Length': String(Buffer.byteLength(text)),
        // The server's clock, which a client takes a pass's start from.
        Date: new Date(context.now).toUTCString(),
      });
      context.response.end(text);
    },
  };
}

const W = '/work/api/v2/customers/{customerId}/libraries/{libraryId}';

async function write(context: FakeRouteContext, folder: FolderNode, replacing?: FileNode) {
  const upload = await context.upload();
  const { doc, bytes, type } = multipart(context.request, Buffer.concat(upload.chunks, upload.size));
  const full = fileNameOf(doc, replacing?.name);
  let file: FileNode;
  try {
    if (replacing && full !== replacing.name) context.tree.moveFile(replacing, folder, full);
    const taken = !replacing && folder.byName.get(full);
    if (taken) throw new NameTakenError(full);
    file = context.tree.putFile(folder, full, {
      contentType: type,
      content: { kind: 'bytes', chunks: [bytes], size: bytes.length },
      sha256: createHash('sha256').update(bytes).digest('hex'),
    }).file;
  } catch (error) {
    if (error instanceof NameTakenError)
      throw workError(409, 'DUPLICATE_NAME', 'A document or folder of that name is in the folder');
    throw error;
  }
  if (typeof doc.comment === 'string') comments.set(file, doc.comment.slice(0, 254));
  // An upload answers the document's short profile: without its workspace.
  const {
    workspace_id: _workspace,
    workspace_name: _name,
    ...short
  } = documentProfile(context, context.tree, file);
  return { data: short };
}

export function workRoutes(): FakeRoute[] {
  return [
    route('GET', '/api', (context) => ({
      data: {
        auth_status: 'authenticated',
        dms_version: '10.4.2',
        user: {
          id: imanageUserId(context.grant.accountId),
          name: context.grant.name,
          email: context.grant.email,
          customer_id: customerIdOf(context.grant.accountId),
          user_type: 'user',
        },
        versions: [{ name: 'v2', url: `https://${context.tenant}/work/api/v2`, version: '2.1.1015' }],
        work: {
          libraries: [{ alias: IMANAGE_LIBRARY, type: 'worksite' }],
          preferred_library: IMANAGE_LIBRARY,
        },
      },
    })),
    route('GET', `${W}/workspaces`, (context) => {
      checkLibrary(context);
      const { tree } = context;
      const workspaces = childrenOf(tree, tree.root).filter((n): n is FolderNode => n.type === 'folder');
      return page(workspaces, context.query, (w) => workspaceProfile(context, tree, w));
    }),
    route('GET', `${W}/folders/{folderId}`, (context) => {
      checkLibrary(context);
      return { data: folderProfile(context, context.tree, folderOf(context.tree, context.params.folderId!)) };
    }),
    route('GET', `${W}/folders/{folderId}/children`, (context) => {
      checkLibrary(context);
      const { tree } = context;
      const folder = folderOf(tree, context.params.folderId!);
      const subfolders = childrenOf(tree, folder).filter((n): n is FolderNode => n.type === 'folder');
      return page(subfolders, context.query, (f) => folderProfile(context, tree, f));
    }),
    route('GET', `${W}/folders/{folderId}/documents`, (context) => {
      checkLibrary(context);
      const { tree } = context;
      const folder = folderOf(tree, context.params.folderId!);
      const documents = childrenOf(tree, folder).filter((n): n is FileNode => n.type === 'file');
      return page(documents, context.query, (d) => documentProfile(context, tree, d));
    }),
    route('GET', `${W}/documents`, (context) => {
      checkLibrary(context);
      const { tree, query } = context;
      const container = query.get('container_id');
      if (!container) throw badParameter('container_id is required');
      const folder = folderOf(tree, container);
      const fromText = query.get('edit_date_from');
      const from = fromText === null ? undefined : Date.parse(fromText);
      if (from !== undefined && !Number.isFinite(from)) throw badParameter('edit_date_from is not a date');
      const found = tree
        .liveFiles()
        .filter((f) => isWithin(f, folder) && (from === undefined || f.updatedAt >= from))
        .sort((a, b) => numberOf(tree, a) - numberOf(tree, b));
      return page(found, query, (d) => documentProfile(context, tree, d));
    }),
    route('GET', `${W}/documents/{documentId}`, (context) => {
      checkLibrary(context);
      return {
        data: documentProfile(context, context.tree, documentOf(context.tree, context.params.documentId!)),
      };
    }),
    {
      method: 'GET',
      path: `${W}/documents/{documentId}/download`,
      scopes: SCOPES,
      async handle(context) {
        checkLibrary(context);
        const file = documentOf(context.tree, context.params.documentId!);
        context.response.setHeader(
          'Content-Disposition',
          `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`,
        );
        await sendContent(context.request, context.response, file);
      },
    },
    route(
      'POST',
      `${W}/folders/{folderId}/documents`,
      (context) => {
        checkLibrary(context);
        return write(context, folderOf(context.tree, context.params.folderId!));
      },
      201,
    ),
    route(
      'POST',
      `${W}/documents/{documentId}/versions`,
      (context) => {
        checkLibrary(context);
        const file = documentOf(context.tree, context.params.documentId!);
        return write(context, file.parent, file);
      },
      201,
    ),
  ];
}
