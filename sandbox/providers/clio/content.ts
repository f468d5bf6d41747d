// A fake of Clio Manage API v4's matters and documents, written from its reference
// (https://docs.developers.clio.com/api-docs/clio-manage), over the sandbox's account trees
// (../../content/tree.ts: matters are the root's folders, documents their files). Paths (`.json` optional):
//   GET   /api/v4/users/who_am_i            -> {data: {id, name, email, ...fields}}
//   GET   /api/v4/matters                   ?fields&limit(1-200)&order=id(asc)&page_token
//   GET   /api/v4/matters/{id}              ?fields
//   GET   /api/v4/documents                 ?matter_id&updated_since&include_deleted&external_property_name
//                                            &external_property_value&fields&limit&order&page_token
//         -> {data: [...], meta: {paging: {next?: <URL with page_token>}, records}}
//   GET   /api/v4/documents/{id}            ?fields
//   GET   /api/v4/documents/{id}/download   -> 303 See Other to a pre-signed storage URL
//   POST  /api/v4/documents                 {data: {name, parent: {id, type: "Matter"}, external_properties?}}
//         -> 201 {data}: latest_document_version {uuid, put_url, put_headers} (not yet uploaded)
//   PATCH /api/v4/documents/{id}            {data: {uuid, fully_uploaded: true}} -> {data}
//   DELETE /api/v4/documents/{id}           -> 204 (to the trash: deleted_at, listed with include_deleted)
//   PUT   /clio-storage/{key}?X-Amz-...     the pre-signed upload; GET the same for downloads. Refuses an
//         Authorization header (as S3 does a pre-signed request carrying a second credential).
// Only the `fields` asked for are returned (default id and etag; nested as `latest_document_version{id}`);
// an unknown field is 400 InvalidFields. Errors are `{"error": {"type", "message"}}`. Every answer to a
// token carries X-RateLimit-Limit/-Remaining/-Reset (a 60 s window per token) and Date from the
// sandbox clock; past the limit, or injected, 429 with Retry-After.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../../clock';
import { epochSeconds, isoTime } from '../../clock';
import { readUpload } from '../../content/http';
import type { AccountTree, FileNode, FolderNode } from '../../content/tree';
import { contentChunks, sha256Of } from '../../content/tree';
import type { BearerGrant } from '../../content/types';

const MiB = 1024 * 1024;

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

export interface ClioFault {
  status: 401 | 429 | 500 | 503;
  retryAfter?: number;
  remaining: number;
}

export interface ClioFakeOptions {
  clock: Clock;
  tree(accountId: string): AccountTree;
  bearer(token: string): BearerGrant | undefined;
  /** The fake's own origin and mount, to build absolute `next` and storage URLs (e.g. http://127.0.0.1:3001/clio). */
  baseUrl(): string;
  requestsPerMinute?: number;
  maxUploadBytes?: number;
}

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
  displayName: string;
  properties: { name: string; value: string }[];
  deletedAt?: number;
}

interface PendingUpload {
  account: string;
  documentId: number;
  matter: FolderNode;
  name: string;
  properties: { name: string; value: string }[];
  storageKey: string;
  content?: { chunks: Buffer[]; size: number; sha256: string };
  contentType?: string;
}

export function createClioFake(options: ClioFakeOptions) {
  const limit = options.requestsPerMinute ?? 100_000;
  const maxUpload = options.maxUploadBytes ?? 100 * MiB;
  let nextInt = 1000;
  const intOf = new Map<string, number>();
  const nodeOf = new Map<number, { account: string; nodeId: string }>();
  const extras = new Map<string, Extra>();
  const pending = new Map<string, PendingUpload>();
  /** storage key -> what it serves (download of a file version) or takes (an upload). */
  const storage = new Map<
    string,
    { download?: { account: string; nodeId: string; version: number }; upload?: string; expires: number }
  >();
  const windows = new Map<string, { start: number; count: number }>();
  let fault: ClioFault | undefined;

  const idOf = (account: string, nodeId: string) => {
    let id = intOf.get(`${account}\u0000${nodeId}`);
    if (id === undefined) {
      id = nextInt++;
      intOf.set(`${account}\u0000${nodeId}`, id);
      nodeOf.set(id, { account, nodeId });
    }
    return id;
  };

  const extraOf = (file: FileNode): Extra => {
    let extra = extras.get(file.id);
    if (!extra)
      extras.set(file.id, (extra = { createdAt: file.updatedAt, displayName: file.name, properties: [] }));
    return extra;
  };

  const matterRecord = (account: string, matter: FolderNode) => {
    const id = idOf(account, matter.id);
    return {
      id,
      etag: `"${createHash('sha1').update(`${matter.id}:${matter.name}`).digest('hex').slice(0, 12)}"`,
      display_number: String(id).padStart(5, '0'),
      description: matter.name,
      status: 'Open',
      updated_at: isoTime(matter.updatedAt),
      created_at: isoTime(matter.updatedAt),
    };
  };

  const documentRecord = (account: string, file: FileNode) => {
    const extra = extraOf(file);
    const id = idOf(account, file.id);
    return {
      id,
      etag: `"${file.version}"`,
      name: extra.displayName,
      filename: extra.displayName,
      content_type: file.contentType,
      size: file.content.size,
      created_at: isoTime(extra.createdAt),
      updated_at: isoTime(file.updatedAt),
      deleted_at: file.deleted ? isoTime(extra.deletedAt ?? file.updatedAt) : null,
      type: 'Document',
      matter: {
        id: idOf(account, file.parent.id),
        display_number: matterRecord(account, file.parent).display_number,
      },
      parent: { id: idOf(account, file.parent.id), type: 'Matter' },
      external_properties: extra.properties.map((p, i) => ({ id: i + 1, ...p })),
      latest_document_version: {
        id: file.version,
        uuid: createHash('sha256').update(`${file.id}:${file.version}`).digest('hex').slice(0, 32),
        etag: `"${file.version}"`,
        filename: extra.displayName,
        size: file.content.size,
        content_type: file.contentType,
        version_number: file.version,
        received_at: isoTime(file.updatedAt),
        fully_uploaded: true,
        put_url: null,
        put_headers: [],
      },
    };
  };

  function matterById(account: string, tree: AccountTree, raw: string | null | undefined): FolderNode {
    const id = Number(raw);
    const node = Number.isInteger(id) ? nodeOf.get(id) : undefined;
    const matter = node && node.account === account ? tree.folder(node.nodeId) : undefined;
    if (!matter || matter.parent !== tree.root) throw notFound();
    return matter;
  }

  function documentById(account: string, tree: AccountTree, raw: string): FileNode {
    const node = nodeOf.get(Number(raw));
    const file = node && node.account === account ? tree.file(node.nodeId) : undefined;
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

  function checkOrder(query: URLSearchParams) {
    const order = query.get('order');
    if (order !== null && order !== 'id(asc)')
      throw badRequest('cursor pagination supports only order=id(asc)');
  }

  /** One page of records in id order after the page token, and `next` (the same query, a new token). */
  function paginate<T extends { id: number }>(
    request: IncomingMessage,
    records: T[],
    query: URLSearchParams,
  ): { data: T[]; meta: { paging: { next?: string }; records: number } } {
    checkOrder(query);
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
      const next = new URL(`${options.baseUrl()}${(request.url ?? '/').split('?')[0]}`);
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

  function documents(account: string, tree: AccountTree, query: URLSearchParams): FileNode[] {
    const matter = query.get('matter_id');
    const since = query.get('updated_since');
    const sinceMs = since === null ? undefined : Date.parse(since);
    if (since !== null && !Number.isFinite(sinceMs))
      throw badRequest('updated_since must be an ISO-8601 timestamp');
    const withDeleted = query.get('include_deleted') === 'true';
    const propName = query.get('external_property_name');
    const propValue = query.get('external_property_value');
    if (propValue !== null && propName === null)
      throw badRequest('external_property_value needs external_property_name');
    const folder = matter === null ? undefined : matterById(account, tree, matter);
    const files: FileNode[] = [];
    for (const m of folder ? [folder] : [...tree.root.byName.values()]) {
      if (m.type !== 'folder') continue;
      // Live files, and trashed ones when asked (a tombstone keeps its parent).
      const candidates = withDeleted ? tombstonesAndLive(tree, m) : tree.liveFiles(m);
      for (const file of candidates) {
        if (sinceMs !== undefined && file.updatedAt < sinceMs) continue;
        if (propName !== null) {
          const props = extraOf(file).properties;
          if (!props.some((p) => p.name === propName && (propValue === null || p.value === propValue)))
            continue;
        }
        files.push(file);
      }
    }
    return files;
  }

  function tombstonesAndLive(tree: AccountTree, matter: FolderNode): FileNode[] {
    // changesAfter(0) walks every file ever made, deleted ones included.
    return tree.changesAfter(0, (f) => f.parent === matter, Number.MAX_SAFE_INTEGER).files;
  }

  function storageUrl(key: string): string {
    const expires = options.clock.now() + 10 * 60_000;
    storage.set(key, { ...(storage.get(key) ?? {}), expires });
    const signature = createHash('sha256').update(`${key}:${expires}`).digest('hex');
    return `${options.baseUrl()}/clio-storage/${key}?X-Amz-Expires=600&X-Amz-Date=${expires}&X-Amz-Signature=${signature}`;
  }

  type Context = {
    account: string;
    tree: AccountTree;
    query: URLSearchParams;
    request: IncomingMessage;
    response: ServerResponse;
  };
  type Route = {
    method: string;
    pattern: RegExp;
    handle(context: Context, ...params: string[]): Promise<unknown> | unknown;
  };

  const routes: Route[] = [
    {
      method: 'GET',
      pattern: /^\/api\/v4\/users\/who_am_i$/,
      handle: ({ account, query }) => ({
        data: pick(
          {
            id: idOf(account, 'user'),
            etag: '"1"',
            name: `Sandbox ${account}`,
            email: `${account}@clio.sandbox.example`,
            first_name: 'Sandbox',
            last_name: account,
            enabled: true,
          },
          parseFields(query.get('fields')),
        ),
      }),
    },
    {
      method: 'GET',
      pattern: /^\/api\/v4\/matters$/,
      handle: ({ account, tree, query, request }) => {
        const fields = parseFields(query.get('fields'));
        const matters = [...tree.root.byName.values()].filter((n): n is FolderNode => n.type === 'folder');
        const page = paginate(
          request,
          matters.map((m) => matterRecord(account, m)),
          query,
        );
        return { ...page, data: page.data.map((m) => pick(m, fields)) };
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/v4\/matters\/([^/]+)$/,
      handle: ({ account, tree, query }, id) => ({
        data: pick(matterRecord(account, matterById(account, tree, id)), parseFields(query.get('fields'))),
      }),
    },
    {
      method: 'GET',
      pattern: /^\/api\/v4\/documents$/,
      handle: ({ account, tree, query, request }) => {
        const fields = parseFields(query.get('fields'));
        const records = documents(account, tree, query).map((f) => documentRecord(account, f));
        const page = paginate(request, records, query);
        return { ...page, data: page.data.map((d) => pick(d, fields)) };
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/v4\/documents\/(\d+)$/,
      handle: ({ account, tree, query }, id) => ({
        data: pick(
          documentRecord(account, documentById(account, tree, id!)),
          parseFields(query.get('fields')),
        ),
      }),
    },
    {
      method: 'GET',
      pattern: /^\/api\/v4\/documents\/(\d+)\/download$/,
      handle: ({ account, tree, response }, id) => {
        const file = documentById(account, tree, id!);
        const key = randomUUID();
        storage.set(key, { download: { account, nodeId: file.id, version: file.version }, expires: 0 });
        response.writeHead(303, { Location: storageUrl(key), 'Content-Length': '0' });
        response.end();
        return undefined;
      },
    },
    {
      method: 'POST',
      pattern: /^\/api\/v4\/documents$/,
      handle: async ({ account, tree, query, request, response }) => {
        const data = await jsonBody(request);
        const name = typeof data.name === 'string' ? data.name : '';
        // eslint-disable-next-line no-control-regex
        if (!name || name.length > 255 || /[\u0000-\u001f/\\]/.test(name))
          throw new ClioError(422, 'UnprocessableEntity', 'name is invalid');
        const parent = data.parent as { id?: unknown; type?: unknown } | undefined;
        if (!parent || parent.type !== 'Matter')
          throw new ClioError(422, 'UnprocessableEntity', 'parent must be a Matter');
        const matter = matterById(account, tree, String(parent.id));
        const properties = Array.isArray(data.external_properties)
          ? (data.external_properties as { name?: unknown; value?: unknown }[]).map((p) => {
              if (typeof p.name !== 'string' || typeof p.value !== 'string')
                throw new ClioError(422, 'UnprocessableEntity', 'external_properties need name and value');
              return { name: p.name, value: p.value };
            })
          : [];
        const uuid = randomUUID();
        const storageKey = randomUUID();
        const documentId = nextInt++;
        pending.set(uuid, { account, documentId, matter, name, properties, storageKey });
        storage.set(storageKey, { upload: uuid, expires: 0 });
        const record = {
          id: documentId,
          etag: '"0"',
          name,
          latest_document_version: {
            uuid,
            fully_uploaded: false,
            put_url: storageUrl(storageKey),
            put_headers: [
              { name: 'x-amz-server-side-encryption', value: 'AES256' },
              { name: 'Content-Type', value: 'application/octet-stream' },
            ],
          },
        };
        response.statusCode = 201;
        return { data: pick(record, parseFields(query.get('fields'))) };
      },
    },
    {
      method: 'PATCH',
      pattern: /^\/api\/v4\/documents\/(\d+)$/,
      handle: async ({ account, tree, query, request }, id) => {
        const data = await jsonBody(request);
        const upload = typeof data.uuid === 'string' ? pending.get(data.uuid) : undefined;
        if (!upload || upload.account !== account || upload.documentId !== Number(id)) throw notFound();
        if (data.fully_uploaded !== true)
          throw new ClioError(422, 'UnprocessableEntity', 'fully_uploaded must be true');
        if (!upload.content)
          throw new ClioError(422, 'UnprocessableEntity', 'the document version has no content yet');
        // A document of the same name already in the matter is kept: this is another document.
        let key = upload.name;
        for (let n = 2; upload.matter.byName.has(key); n++) key = `${upload.name}\u0000${n}`;
        const { file } = tree.putFile(upload.matter, key, {
          contentType: upload.contentType ?? 'application/octet-stream',
          content: { kind: 'bytes', chunks: upload.content.chunks, size: upload.content.size },
          sha256: upload.content.sha256,
        });
        extras.set(file.id, {
          createdAt: file.updatedAt,
          displayName: upload.name,
          properties: upload.properties,
        });
        intOf.set(`${account}\u0000${file.id}`, upload.documentId);
        nodeOf.set(upload.documentId, { account, nodeId: file.id });
        pending.delete(data.uuid as string);
        return { data: pick(documentRecord(account, file), parseFields(query.get('fields'))) };
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/api\/v4\/documents\/(\d+)$/,
      handle: ({ account, tree, response }, id) => {
        const file = documentById(account, tree, id!);
        extraOf(file).deletedAt = options.clock.now();
        tree.deleteFile(file);
        response.writeHead(204).end();
        return undefined;
      },
    },
  ];

  async function storageRequest(key: string, request: IncomingMessage, response: ServerResponse) {
    const entry = storage.get(key);
    const query = new URL(request.url ?? '/', 'http://x').searchParams;
    if (!entry || Number(query.get('X-Amz-Date')) !== entry.expires || options.clock.now() > entry.expires) {
      response
        .writeHead(403, { 'Content-Type': 'application/xml' })
        .end('<Error><Code>AccessDenied</Code></Error>');
      return;
    }
    if (request.headers.authorization) {
      response
        .writeHead(400, { 'Content-Type': 'application/xml' })
        .end('<Error><Code>InvalidArgument</Code><Message>Only one auth mechanism allowed</Message></Error>');
      return;
    }
    if (request.method === 'GET' && entry.download) {
      const { account, nodeId, version } = entry.download;
      const file = options.tree(account).file(nodeId);
      if (!file || file.version !== version) {
        response
          .writeHead(404, { 'Content-Type': 'application/xml' })
          .end('<Error><Code>NoSuchKey</Code></Error>');
        return;
      }
      response.writeHead(200, {
        'Content-Type': file.contentType,
        'Content-Length': String(file.content.size),
        ETag: `"${sha256Of(file).slice(0, 32)}"`,
      });
      for (const chunk of contentChunks(file)) {
        if (!response.write(chunk)) await new Promise((resolve) => response.once('drain', resolve));
        if (response.destroyed) return;
      }
      response.end();
      return;
    }
    if (request.method === 'PUT' && entry.upload) {
      const upload = pending.get(entry.upload);
      if (!upload) {
        response
          .writeHead(403, { 'Content-Type': 'application/xml' })
          .end('<Error><Code>AccessDenied</Code></Error>');
        return;
      }
      if (request.headers['x-amz-server-side-encryption'] !== 'AES256') {
        response
          .writeHead(403, { 'Content-Type': 'application/xml' })
          .end('<Error><Code>SignatureDoesNotMatch</Code><Message>signed header missing</Message></Error>');
        return;
      }
      upload.content = await readUpload(request, maxUpload);
      upload.contentType = request.headers['content-type'] ?? 'application/octet-stream';
      response
        .writeHead(200, { ETag: `"${upload.content.sha256.slice(0, 32)}"`, 'Content-Length': '0' })
        .end();
      return;
    }
    response.writeHead(405).end();
  }

  function rateHeaders(token: string): Record<string, string> {
    const now = options.clock.now();
    const start = now - (now % 60_000);
    let window = windows.get(token);
    if (!window || window.start !== start) windows.set(token, (window = { start, count: 0 }));
    window.count++;
    const headers = {
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(Math.max(0, limit - window.count)),
      'X-RateLimit-Reset': String(epochSeconds(start + 60_000)),
    };
    if (window.count > limit)
      throw new ClioError(429, 'RateLimited', 'Too many requests', {
        ...headers,
        'Retry-After': String(Math.max(1, Math.ceil((start + 60_000 - now) / 1000))),
      });
    return headers;
  }

  async function api(path: string, request: IncomingMessage, response: ServerResponse) {
    response.setHeader('Date', new Date(options.clock.now()).toUTCString());
    if (fault) {
      const injected = fault;
      if (--injected.remaining <= 0) fault = undefined;
      if (injected.status === 401) throw new ClioError(401, 'Unauthorized', 'The access token is invalid');
      if (injected.status === 429)
        throw new ClioError(429, 'RateLimited', 'Too many requests', {
          'Retry-After': String(injected.retryAfter ?? 1),
        });
      throw new ClioError(
        injected.status,
        'ServerError',
        'Something went wrong',
        injected.retryAfter !== undefined ? { 'Retry-After': String(injected.retryAfter) } : {},
      );
    }
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const grant = token ? options.bearer(token) : undefined;
    if (!token || !grant)
      throw new ClioError(401, 'Unauthorized', 'The access token is invalid, expired or revoked');
    for (const [name, value] of Object.entries(rateHeaders(token))) response.setHeader(name, value);
    const target = new URL(request.url ?? '/', 'http://x');
    const clean = path.replace(/\.json$/, '');
    for (const route of routes) {
      const match = route.pattern.exec(clean);
      if (!match) continue;
      if (route.method !== request.method) continue;
      const result = await route.handle(
        {
          account: grant.accountId,
          tree: options.tree(grant.accountId),
          query: target.searchParams,
          request,
          response,
        },
        ...match.slice(1),
      );
      if (response.headersSent || response.writableEnded) return;
      const text = JSON.stringify(result);
      response.writeHead(response.statusCode === 201 ? 201 : 200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': String(Buffer.byteLength(text)),
      });
      response.end(text);
      return;
    }
    throw new ClioError(404, 'NotFound', 'No route matches');
  }

  function answer(response: ServerResponse, work: Promise<void>) {
    work.catch((error: unknown) => {
      if (response.headersSent) return void response.destroy();
      const failure =
        error instanceof ClioError ? error : new ClioError(500, 'ServerError', 'Something went wrong');
      const text = JSON.stringify({ error: { type: failure.type, message: failure.message } });
      response.writeHead(failure.status, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': String(Buffer.byteLength(text)),
        ...failure.headers,
      });
      response.end(text);
    });
  }

  return {
    /** Serves `path` (below the mount, e.g. /api/v4/matters.json) when it is Clio's; false otherwise. */
    serve(path: string, request: IncomingMessage, response: ServerResponse): boolean {
      if (path.startsWith('/api/v4/')) {
        answer(response, api(path, request, response));
        return true;
      }
      const storageKey = /^\/clio-storage\/([0-9a-f-]{36})$/.exec(path)?.[1];
      if (storageKey) {
        answer(response, storageRequest(storageKey, request, response));
        return true;
      }
      return false;
    },
    hooks: {
      fail(injected: Omit<ClioFault, 'remaining'> & { count?: number }) {
        fault = { ...injected, remaining: injected.count ?? 1 };
      },
      /** The integer id Clio shows for a tree node (a matter or document) of the account. */
      idOf,
      /** Moves a document to the trash, as a user deleting it in Clio does. */
      trash(account: string, nodeId: string) {
        const file = options.tree(account).file(nodeId);
        if (!file) throw new Error(`no document ${nodeId}`);
        extraOf(file).deletedAt = options.clock.now();
        options.tree(account).deleteFile(file);
      },
    },
  };
}

export type ClioFake = ReturnType<typeof createClioFake>;
