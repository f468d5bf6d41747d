// Clio Manage API v4's users, matters and documents, written from its reference
// (https://docs.developers.clio.com/api-docs/clio-manage), over the sandbox's account trees
// (../../content/tree.ts: matters are the root's folders, documents their files). Paths under the fake's
// prefix (API_URL `<origin>/clio` stands for https://app.clio.com), each also with `.json`:
//   GET   /api/v4/users/who_am_i            -> {data: {id, name, email, ...}} (the `fields` asked for)
//   GET   /api/v4/matters                   ?fields&limit(1-200)&order=id(asc)&page_token
//   GET   /api/v4/matters/{id}              ?fields
//   GET   /api/v4/documents                 ?matter_id&query(name contains, any case)&updated_since&include_deleted&external_property_name
//                                            &external_property_value&fields&limit&order&page_token
//         -> {data: [...], meta: {paging: {next?: <URL with page_token>}, records}}
//   GET   /api/v4/documents/{id}            ?fields
//   GET   /api/v4/documents/{id}/download   -> 303 See Other to a pre-signed storage URL
//   POST  /api/v4/documents                 {data: {name, parent: {id, type: "Matter"}, external_properties?}}
//         -> 201 {data}: latest_document_version {uuid, put_url, put_headers} (not yet uploaded)
//   PATCH /api/v4/documents/{id}            {data: {uuid, fully_uploaded: true}} -> {data}
//   DELETE /api/v4/documents/{id}           -> 204 (to the trash: `deleted_at`, listed with include_deleted)
//   PUT|GET /clio-storage/{account}/{key}?X-Amz-...   the pre-signed upload and download (no token).
//         Refuses an Authorization header (as S3 refuses a second credential on a pre-signed request)
//         and an upload without the header its signature covers.
// Ids are Clio's integers. Only the `fields` asked for are returned (default id and etag; nested as
// `latest_document_version{id}`); an unknown field is 400 InvalidFields. Errors are
// `{"error": {"type", "message"}}`. Every answer carries X-RateLimit-Limit/-Remaining/-Reset (a 60 s
// window per account) and `Date` from the sandbox clock; past the limit, 429 with Retry-After.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { epochSeconds, isoTime } from '../../clock';
import { readUpload } from '../../content/http';
import type { AccountTree, FileNode, FolderNode, TreeNode } from '../../content/tree';
import { contentChunks, sha256Of } from '../../content/tree';
import type { ProviderIds } from '../../content/types';
import type { FakeRoute, FakeRouteContext } from '../fake';

const MiB = 1024 * 1024;
/** Clio's default: 50 requests a minute per token in peak hours (the sandbox is generous by default). */
export const CLIO_REQUESTS_PER_MINUTE = 100_000;

export class ClioError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const badRequest = (message: string) => new ClioError(400, 'BadRequest', message);
const notFound = () => new ClioError(404, 'RecordNotFound', 'The requested record could not be found');
const unprocessable = (message: string) => new ClioError(422, 'UnprocessableEntity', message);

/** `a,b{c,d},e` -> {a: true, b: {c: true, d: true}, e: true} */
type FieldTree = { [name: string]: true | FieldTree };

export function parseFields(raw: string | null): FieldTree {
  if (!raw) return { id: true, etag: true };
  let at = 0;
  const list = (): FieldTree => {
    const out: FieldTree = {};
    while (at < raw.length) {
      const start = at;
      while (at < raw.length && /[a-z_]/.test(raw[at]!)) at++;
      const name = raw.slice(start, at);
      if (!name) throw new ClioError(400, 'InvalidFields', `fields is malformed at ${start}`);
      if (raw[at] === '{') {
        at++;
        out[name] = list();
        if (raw[at] !== '}') throw new ClioError(400, 'InvalidFields', 'fields has an unclosed {');
        at++;
      } else out[name] = true;
      if (raw[at] === ',') at++;
      else break;
    }
    return out;
  };
  const fields = list();
  if (at !== raw.length) throw new ClioError(400, 'InvalidFields', `fields is malformed at ${at}`);
  return fields;
}

/** Only the fields asked for, each of which must be one the record has. */
function pick(record: Record<string, unknown>, fields: FieldTree): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(fields)) {
    if (!Object.hasOwn(record, name))
      throw new ClioError(400, 'InvalidFields', `${name} is not a valid field`);
    const value = record[name];
    if (sub === true) out[name] = value;
    else if (Array.isArray(value)) out[name] = value.map((v) => pick(v as Record<string, unknown>, sub));
    else out[name] = value === null ? null : pick(value as Record<string, unknown>, sub);
  }
  return out;
}

interface Extra {
  createdAt: number;
  /** Clio allows two documents of one name in a matter; the tree does not, so the key may differ. */
  displayName: string;
  properties: { name: string; value: string }[];
  trashedAt?: number;
  /** The tree's name when displayName was taken: a rename at the tree (a test hook's move) renames it. */
  treeName?: string;
}

/** One account's Clio-side state: integer ids, document extras, its rate-limit window. */
interface AccountState {
  intOf: Map<string, number>;
  nodeOf: Map<number, string>;
  extras: Map<string, Extra>;
  window: { start: number; count: number };
}

const accounts = new WeakMap<AccountTree, AccountState>();
/** Integer ids are unique across accounts, as Clio's are. */
let nextInt = 1000;

function stateOf(tree: AccountTree): AccountState {
  let state = accounts.get(tree);
  if (!state)
    accounts.set(
      tree,
      (state = { intOf: new Map(), nodeOf: new Map(), extras: new Map(), window: { start: 0, count: 0 } }),
    );
  return state;
}

/** A user's id as Clio's are (User.id is an int64), fixed per sandbox account. */
export const clioUserId = (accountId: string) =>
  1_000_000 +
  (createHash('sha256').update(`user\u0000${accountId}`).digest().readUInt32BE(0) % 1_000_000_000);

/** Clio's integer id of a tree node (given on first sight). */
export function clioId(tree: AccountTree, nodeId: string): number {
  const state = stateOf(tree);
  let id = state.intOf.get(nodeId);
  if (id === undefined) {
    id = nextInt++;
    state.intOf.set(nodeId, id);
    state.nodeOf.set(id, nodeId);
  }
  return id;
}

export const clioIds: ProviderIds = {
  treeId: (tree, id) => (/^\d{1,15}$/.test(id) ? stateOf(tree).nodeOf.get(Number(id)) : undefined),
  providerId: (tree, node) => String(clioId(tree, node.id)),
};

function extraOf(tree: AccountTree, file: FileNode): Extra {
  const { extras } = stateOf(tree);
  let extra = extras.get(file.id);
  if (!extra)
    extras.set(
      file.id,
      (extra = { createdAt: file.updatedAt, displayName: file.name, properties: [], treeName: file.name }),
    );
  else if (extra.treeName !== undefined && extra.treeName !== file.name) {
    extra.displayName = file.name;
    extra.treeName = file.name;
  }
  return extra;
}

function matterRecord(tree: AccountTree, matter: FolderNode) {
  const id = clioId(tree, matter.id);
  return {
    id,
    etag: `"${createHash('sha1').update(`${matter.id}:${matter.name}`).digest('hex').slice(0, 12)}"`,
    display_number: String(id).padStart(5, '0'),
    description: matter.name,
    status: 'Open',
    created_at: isoTime(matter.updatedAt),
    updated_at: isoTime(matter.updatedAt),
  };
}

/**
 * A document's DocumentVersion: Clio makes one per upload of content, and a rename or a move to another
 * matter edits the Document, keeping its latest version (its id and number). The tree's version counts
 * every change (a rename too, so the change log lists it); the DocumentVersion follows the content alone,
 * its id the tree version at which that content was first seen (unique, as the tree's are).
 */
const documentVersions = new WeakMap<
  FileNode,
  { content: FileNode['content']; id: number; number: number }
>();

function documentVersionOf(file: FileNode): { id: number; number: number } {
  const known = documentVersions.get(file);
  if (known?.content === file.content) return known;
  const current = { content: file.content, id: file.version, number: (known?.number ?? 0) + 1 };
  documentVersions.set(file, current);
  return current;
}

function documentRecord(tree: AccountTree, file: FileNode) {
  const extra = extraOf(tree, file);
  const version = documentVersionOf(file);
  const matter = clioId(tree, file.parent.id);
  return {
    id: clioId(tree, file.id),
    etag: `"${file.version}"`,
    name: extra.displayName,
    filename: extra.displayName,
    content_type: file.contentType,
    size: file.content.size,
    created_at: isoTime(extra.createdAt),
    updated_at: isoTime(file.updatedAt),
    deleted_at: file.deleted ? isoTime(extra.trashedAt ?? file.updatedAt) : null,
    type: 'Document',
    matter: { id: matter, display_number: String(matter).padStart(5, '0') },
    parent: { id: matter, type: 'Matter' },
    external_properties: extra.properties.map((p, i) => ({ id: i + 1, ...p })),
    latest_document_version: {
      id: version.id,
      uuid: createHash('sha256').update(`${file.id}:${version.id}`).digest('hex').slice(0, 32),
      etag: `"${version.id}"`,
      filename: extra.displayName,
      size: file.content.size,
      content_type: file.contentType,
      version_number: version.number,
      received_at: isoTime(file.updatedAt),
      fully_uploaded: true,
      put_url: null,
      put_headers: [],
    },
  };
}

function matterById(tree: AccountTree, raw: string | null | undefined): FolderNode {
  const nodeId = clioIds.treeId(tree, String(raw ?? '').replace(/\.json$/, ''));
  const matter = nodeId ? tree.folder(nodeId) : undefined;
  if (!matter || matter.parent !== tree.root) throw notFound();
  return matter;
}

function documentById(tree: AccountTree, raw: string): FileNode {
  const nodeId = clioIds.treeId(tree, raw.replace(/\.json$/, ''));
  const file = nodeId ? tree.file(nodeId) : undefined;
  if (!file) throw notFound();
  return file;
}

function pageSize(query: URLSearchParams): number {
  const raw = query.get('limit');
  if (raw === null) return 200;
  const n = /^\d{1,4}$/.test(raw) ? Number(raw) : 0;
  if (n < 1 || n > 200) throw badRequest('limit must be between 1 and 200');
  return n;
}

/** One page in id order after the page token, `next` the same query with a new token. */
function paginate<T extends { id: number }>(context: FakeRouteContext, records: T[]) {
  const { query, request } = context;
  const order = query.get('order');
  if (order !== null && order !== 'id(asc)')
    throw badRequest('cursor pagination supports only order=id(asc)');
  const size = pageSize(query);
  const raw = query.get('page_token');
  let after = 0;
  if (raw !== null) {
    const decoded = /^[A-Za-z0-9_-]{1,64}$/.test(raw) ? Buffer.from(raw, 'base64url').toString('utf8') : '';
    if (!/^after:\d+$/.test(decoded)) throw badRequest('page_token is invalid');
    after = Number(decoded.slice(6));
  }
  const sorted = records.filter((r) => r.id > after).sort((a, b) => a.id - b.id);
  const data = sorted.slice(0, size);
  const paging: { next?: string } = {};
  if (sorted.length > size) {
    const next = new URL(`${context.origin}${(request.url ?? '/').split('?')[0]}`);
    for (const [k, v] of query) if (k !== 'page_token') next.searchParams.append(k, v);
    next.searchParams.set('page_token', Buffer.from(`after:${data.at(-1)!.id}`).toString('base64url'));
    paging.next = next.toString();
  }
  return { data, meta: { paging, records: records.length } };
}

async function jsonBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  if (!/^application\/json\b/.test(request.headers['content-type'] ?? ''))
    throw new ClioError(415, 'UnsupportedMediaType', 'Content-Type must be application/json');
  const { chunks } = await readUpload(request, MiB);
  try {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    if (typeof body === 'object' && body !== null && 'data' in body)
      return (body as { data: Record<string, unknown> }).data;
  } catch {
    // fall through
  }
  throw badRequest('the body must be JSON {"data": {...}}');
}

/** Every document ever made in a matter, trashed ones too (a tombstone keeps its parent). */
const everyDocument = (tree: AccountTree, matter: FolderNode) =>
  tree.changesAfter(0, (f) => f.parent === matter, Number.MAX_SAFE_INTEGER).files;

function documents(tree: AccountTree, query: URLSearchParams): FileNode[] {
  const matter = query.get('matter_id');
  const since = query.get('updated_since');
  const sinceMs = since === null ? undefined : Date.parse(since);
  if (since !== null && !Number.isFinite(sinceMs))
    throw badRequest('updated_since must be an ISO-8601 timestamp');
  const withDeleted = query.get('include_deleted') === 'true';
  const propName = query.get('external_property_name');
  const propValue = query.get('external_property_value');
  const words = query.get('query')?.toLowerCase();
  if (propValue !== null && propName === null)
    throw badRequest('external_property_value needs external_property_name');
  const matters =
    matter === null
      ? [...tree.root.byName.values()].filter((n): n is FolderNode => n.type === 'folder')
      : [matterById(tree, matter)];
  const files: FileNode[] = [];
  for (const m of matters) {
    for (const file of withDeleted ? everyDocument(tree, m) : tree.liveFiles(m)) {
      if (sinceMs !== undefined && file.updatedAt < sinceMs) continue;
      if (words && !extraOf(tree, file).displayName.toLowerCase().includes(words)) continue;
      if (propName !== null) {
        const props = extraOf(tree, file).properties;
        if (!props.some((p) => p.name === propName && (propValue === null || p.value === propValue)))
          continue;
      }
      files.push(file);
    }
  }
  return files;
}

interface PendingUpload {
  tree: AccountTree;
  documentId: number;
  matter: FolderNode;
  name: string;
  properties: { name: string; value: string }[];
  content?: { chunks: Buffer[]; size: number; sha256: string };
  contentType?: string;
}

/** Uploads created and not yet finished, by version uuid. */
const pending = new Map<string, PendingUpload>();
/** Pre-signed storage keys: what each serves (a file version) or takes (an upload). */
const storage = new Map<
  string,
  { tree: AccountTree; expires: number; download?: { nodeId: string; version: number }; upload?: string }
>();

function storageUrl(context: FakeRouteContext, key: string, expires: number): string {
  const signature = createHash('sha256').update(`${key}:${expires}`).digest('hex');
  const account = encodeURIComponent(context.tree.accountId);
  return `${context.origin}/clio/clio-storage/${account}/${key}?X-Amz-Expires=600&X-Amz-Date=${expires}&X-Amz-Signature=${signature}`;
}

/** Counts a request in the account's minute; its rate-limit headers, or a 429 past the limit. */
function rateLimit(tree: AccountTree, now: number, limit: number): Record<string, string> {
  const state = stateOf(tree);
  const start = now - (now % 60_000);
  if (state.window.start !== start) state.window = { start, count: 0 };
  state.window.count++;
  const headers = {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(Math.max(0, limit - state.window.count)),
    'X-RateLimit-Reset': String(epochSeconds(start + 60_000)),
  };
  if (state.window.count > limit)
    throw new ClioError(429, 'RateLimited', 'Too many requests', {
      ...headers,
      'Retry-After': String(Math.max(1, Math.ceil((start + 60_000 - now) / 1000))),
    });
  return headers;
}

function sendClioFailure(response: ServerResponse, failure: ClioError): void {
  const text = JSON.stringify({ error: { type: failure.type, message: failure.message } });
  response.writeHead(failure.status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    ...failure.headers,
  });
  response.end(text);
}

type Handler = (context: FakeRouteContext, fields: () => FieldTree) => Promise<unknown> | unknown;

export interface ClioRoutesOptions {
  requestsPerMinute?: () => number;
}

export function clioRoutes(options: ClioRoutesOptions = {}): FakeRoute[] {
  const limit = () => options.requestsPerMinute?.() ?? CLIO_REQUESTS_PER_MINUTE;

  /** A route and its `.json` twin; JSON answers, Clio's errors, its Date and rate-limit headers. */
  const route = (method: FakeRoute['method'], path: string, handle: Handler): FakeRoute[] => {
    const wrapped: FakeRoute['handle'] = async (context) => {
      const { response } = context;
      try {
        response.setHeader('Date', new Date(context.now).toUTCString());
        for (const [name, value] of Object.entries(rateLimit(context.tree, context.now, limit())))
          response.setHeader(name, value);
        const result = await handle(context, () => parseFields(context.query.get('fields')));
        if (response.headersSent || response.writableEnded) return;
        const text = JSON.stringify(result);
        response.writeHead(response.statusCode === 201 ? 201 : 200, {
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': String(Buffer.byteLength(text)),
        });
        response.end(text);
      } catch (error) {
        if (!(error instanceof ClioError) || response.headersSent) throw error;
        sendClioFailure(response, error);
      }
    };
    const routes: FakeRoute[] = [{ method, path, scopes: ['clio'], handle: wrapped }];
    // A path ending in a parameter takes `.json` into the parameter (stripped by the handler).
    if (!path.endsWith('}')) routes.push({ method, path: `${path}.json`, scopes: ['clio'], handle: wrapped });
    return routes;
  };

  return [
    ...route('GET', '/api/v4/users/who_am_i', ({ grant }, fields) => ({
      data: pick(
        {
          id: clioUserId(grant.accountId),
          etag: '"1"',
          name: grant.name,
          first_name: grant.name.split(' ')[0] ?? '',
          last_name: grant.name.split(' ').slice(1).join(' '),
          email: grant.email,
          enabled: true,
        },
        fields(),
      ),
    })),
    ...route('GET', '/api/v4/matters', (context, fields) => {
      const { tree } = context;
      const matters = [...tree.root.byName.values()].filter((n): n is FolderNode => n.type === 'folder');
      const page = paginate(
        context,
        matters.map((m) => matterRecord(tree, m)),
      );
      return { ...page, data: page.data.map((m) => pick(m, fields())) };
    }),
    ...route('GET', '/api/v4/matters/{id}', ({ tree, params }, fields) => ({
      data: pick(matterRecord(tree, matterById(tree, params.id)), fields()),
    })),
    ...route('GET', '/api/v4/documents', (context, fields) => {
      const records = documents(context.tree, context.query).map((f) => documentRecord(context.tree, f));
      const page = paginate(context, records);
      return { ...page, data: page.data.map((d) => pick(d, fields())) };
    }),
    ...route('GET', '/api/v4/documents/{id}', ({ tree, params }, fields) => ({
      data: pick(documentRecord(tree, documentById(tree, params.id!)), fields()),
    })),
    ...route('GET', '/api/v4/documents/{id}/download', (context) => {
      const file = documentById(context.tree, context.params.id!);
      const key = randomUUID();
      const expires = context.now + 10 * 60_000;
      storage.set(key, {
        tree: context.tree,
        expires,
        download: { nodeId: file.id, version: documentVersionOf(file).id },
      });
      context.response.writeHead(303, { Location: storageUrl(context, key, expires), 'Content-Length': '0' });
      context.response.end();
      return undefined;
    }),
    ...route('POST', '/api/v4/documents', async (context, fields) => {
      const { tree, request, response } = context;
      const data = await jsonBody(request);
      const name = typeof data.name === 'string' ? data.name : '';
      // eslint-disable-next-line no-control-regex
      if (!name || name.length > 255 || /[\u0000-\u001f/\\]/.test(name))
        throw unprocessable('name is invalid');
      const parent = data.parent as { id?: unknown; type?: unknown } | undefined;
      if (!parent || parent.type !== 'Matter') throw unprocessable('parent must be a Matter');
      const matter = matterById(tree, String(parent.id));
      const properties = Array.isArray(data.external_properties)
        ? (data.external_properties as { name?: unknown; value?: unknown }[]).map((p) => {
            if (typeof p.name !== 'string' || typeof p.value !== 'string')
              throw unprocessable('external_properties need a name and a value');
            return { name: p.name, value: p.value };
          })
        : [];
      const uuid = randomUUID();
      const key = randomUUID();
      const expires = context.now + 10 * 60_000;
      const documentId = nextInt++;
      pending.set(uuid, { tree, documentId, matter, name, properties });
      storage.set(key, { tree, expires, upload: uuid });
      response.statusCode = 201;
      const record = {
        id: documentId,
        etag: '"0"',
        name,
        latest_document_version: {
          uuid,
          fully_uploaded: false,
          put_url: storageUrl(context, key, expires),
          put_headers: [
            { name: 'x-amz-server-side-encryption', value: 'AES256' },
            { name: 'Content-Type', value: 'application/octet-stream' },
          ],
        },
      };
      return { data: pick(record, fields()) };
    }),
    ...route('PATCH', '/api/v4/documents/{id}', async ({ tree, params, request }, fields) => {
      const data = await jsonBody(request);
      const upload = typeof data.uuid === 'string' ? pending.get(data.uuid) : undefined;
      if (!upload || upload.tree !== tree || upload.documentId !== Number(params.id!.replace(/\.json$/, '')))
        throw notFound();
      if (data.fully_uploaded !== true) throw unprocessable('fully_uploaded must be true');
      if (!upload.content) throw unprocessable('the document version has no content yet');
      // A document of that name already in the matter is kept: this one is another document.
      let key = upload.name;
      for (let n = 2; upload.matter.byName.has(key); n++) key = `${upload.name}\u0000${n}`;
      const { file } = tree.putFile(upload.matter, key, {
        contentType: upload.contentType ?? 'application/octet-stream',
        content: { kind: 'bytes', chunks: upload.content.chunks, size: upload.content.size },
        sha256: upload.content.sha256,
      });
      const state = stateOf(tree);
      state.extras.set(file.id, {
        createdAt: file.updatedAt,
        displayName: upload.name,
        properties: upload.properties,
      });
      state.intOf.set(file.id, upload.documentId);
      state.nodeOf.set(upload.documentId, file.id);
      pending.delete(data.uuid as string);
      return { data: pick(documentRecord(tree, file), fields()) };
    }),
    ...route('DELETE', '/api/v4/documents/{id}', ({ tree, params, response, now }) => {
      trash(tree, documentById(tree, params.id!), now);
      response.writeHead(204).end();
      return undefined;
    }),
    {
      method: 'GET',
      path: '/clio-storage/{account}/{key}',
      scopes: [],
      anonymous: true,
      handle: (context) => storageRequest(context),
    },
    {
      method: 'PUT',
      path: '/clio-storage/{account}/{key}',
      scopes: [],
      anonymous: true,
      handle: (context) => storageRequest(context),
    },
  ];
}

/** Moves a document to Clio's trash, as a user deleting it in Clio does. */
export function trash(tree: AccountTree, file: FileNode, now: number): void {
  extraOf(tree, file).trashedAt = now;
  tree.deleteFile(file, now);
}

function s3Error(response: ServerResponse, status: number, code: string, message = code): void {
  response
    .writeHead(status, { 'Content-Type': 'application/xml' })
    .end(
      `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`,
    );
}

async function storageRequest(context: FakeRouteContext): Promise<void> {
  const { request, response, query, params } = context;
  const tree = context.treeOf(params.account ?? '');
  const entry = storage.get(params.key ?? '');
  if (
    !entry ||
    entry.tree !== tree ||
    Number(query.get('X-Amz-Date')) !== entry.expires ||
    context.now > entry.expires
  )
    return s3Error(response, 403, 'AccessDenied', 'Request has expired or is not signed');
  if (request.headers.authorization)
    return s3Error(response, 400, 'InvalidArgument', 'Only one auth mechanism allowed');
  if (request.method === 'GET' && entry.download) {
    const file: TreeNode | undefined = tree.file(entry.download.nodeId);
    if (!file || file.type !== 'file' || documentVersionOf(file).id !== entry.download.version)
      return s3Error(response, 404, 'NoSuchKey');
    response.writeHead(200, {
      'Content-Type': file.contentType,
      'Content-Length': String(file.content.size),
      ETag: `"${sha256Of(file).slice(0, 32)}"`,
    });
    for (const chunk of contentChunks(file)) {
      if (response.destroyed) return;
      if (!response.write(chunk)) await new Promise((resolve) => response.once('drain', resolve));
    }
    response.end();
    return;
  }
  if (request.method === 'PUT' && entry.upload) {
    const upload = pending.get(entry.upload);
    if (!upload) return s3Error(response, 403, 'AccessDenied');
    if (request.headers['x-amz-server-side-encryption'] !== 'AES256')
      return s3Error(response, 403, 'SignatureDoesNotMatch', 'a signed header is missing');
    upload.content = await context.upload();
    upload.contentType = request.headers['content-type'] ?? 'application/octet-stream';
    response.writeHead(200, { ETag: `"${upload.content.sha256.slice(0, 32)}"`, 'Content-Length': '0' }).end();
    return;
  }
  s3Error(response, 405, 'MethodNotAllowed');
}
