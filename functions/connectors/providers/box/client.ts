// Box API 2.0 (https://developer.box.com/reference/): JSON under API_URL (https://api.box.com/2.0),
// uploads under UPLOAD_URL (https://upload.box.com/api/2.0). Both are the API's origins: our bearer goes
// to them and to nowhere else.
//
// Ids. Files and folders have numeric ids of their own (`0` is the account's root, "All Files"), kept as
// Box gives them; an id that is not digits never reaches a URL (a 404, as a missing one would be).
// - browse: the top is the root (a container a link may take whole), below it a folder's items with
//   marker paging (`usemarker=true`) and only the `fields` we read; web links are not files here.
// - changes: a first pass takes the events stream's position first (`stream_position=now`), then walks
//   the folder and its subfolders with marker paging, so whatever changed during the walk comes again
//   from the stream. Later passes read the user's events (`stream_type=changes`) from the kept position:
//   a file's create, upload, rename, move, copy or restore is the file as the event's `source` shows it
//   (inside the link's folder when its `path_collection` holds the folder: a file moved out is a
//   deletion for the link), a trash or delete is a deletion. A folder trashed, moved or restored says
//   nothing of the files it held, so it ends the feed (FeedRestartError: a full pass and the reconcile
//   find them). The stream is user-wide and at-least-once: a page holds each file once, the last word
//   on it. A pass ends at an empty chunk (Box may answer fewer than `limit` events with more to come).
//   A kept position Box refuses (400, 410) is FeedRestartError.
// - download: the file's metadata (etag, not trashed) unless the changes listed it, then `/content`,
//   which answers 302 to the download host: followed without our Authorization header, vetted as any
//   URL a provider hands back. 202 (not ready yet) is a transient failure with its Retry-After.
// - upload: multipart (`attributes` then the file) to `/files/content` (a new file) or
//   `/files/{id}/content` under If-Match its etag (a new version of our own export: 412 is a file
//   changed since, refused); above UPLOAD_SINGLE_MAX_BYTES a chunked upload session (create, PUT each
//   part with Content-Range and `Digest: sha=<base64 SHA-1>`, commit with the whole file's digest and
//   the parts). The part and commit URLs are built from the session id under UPLOAD_URL, never taken
//   from `session_endpoints`. A name taken is `409 item_name_in_use` with the conflicting file: when its
//   SHA-1 is the upload's, it is this upload retried after a lost answer and taken as ours; otherwise
//   UploadRefusedError('name_taken'). Throttling is 429 with Retry-After (the transport reads it).
import { createHash, randomBytes } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import type {
  ChangedFile,
  ChangesPage,
  ChangesPosition,
  ContainerApi,
  ContentApi,
  Download,
  NameRules,
  ProviderFile,
  SourceEntry,
  Upload,
} from '../../infra/content/api';
import { FeedRestartError, UploadRefusedError, nameProblem } from '../../infra/content/api';
import type { ApiRequest, ClientSettings, ErrorReading, Transport } from '../../infra/content/http';
import {
  ProviderApiError,
  apiUrl,
  chunksOf,
  discard,
  readJson,
  transportFor,
} from '../../infra/content/http';
import { downloadOf } from '../../infra/content/responses';
import type { ProviderClient } from '../module';

/** The account's root folder ("All Files"). */
export const BOX_ROOT = '0';
/** The upload host's default (UPLOAD_URL overrides it). */
export const BOX_UPLOAD_URL = 'https://upload.box.com/api/2.0';
/** A single multipart upload up to this; above it an upload session (Box takes sessions from 20 MB). */
export const UPLOAD_SINGLE_MAX_BYTES = 50 * 1024 * 1024;
/** Box's largest page of folder items, and of events. */
const ITEMS_PAGE_MAX = 1000;
const EVENTS_PAGE_MAX = 500;
/** Tries of one session part (the first and its repeats after a lost answer or a 5xx). */
const PART_ATTEMPTS = 3;
/** Commits answered 202 (parts still being processed) are asked again this often, Retry-After apart. */
const COMMIT_ATTEMPTS = 5;
const COMMIT_WAIT_MAX_MS = 5_000;
/** What the listings ask for beyond the base fields (type, id, etag), which Box always sends. */
const ITEM_FIELDS = 'name,size,modified_at';
/**
 * A page or cursor longer than this is none we made. A first pass's token carries the folders still to
 * list (a few thousand Box ids fit); a walk wider than that fails with a reason rather than hand out a
 * token it would refuse, and the job's state stays well under a store item's size.
 */
const TOKEN_MAX_CHARS = 200_000;

/** Box's refusals beyond the shared name policy. */
const BOX_NAMES: NameRules = {
  reserved: /^\s|\s$/,
  reservedText: 'Box refuses names that begin or end with a space',
};

/** File events whose source is the file as it is now. */
const FILE_LIVE = new Set([
  'ITEM_CREATE',
  'ITEM_UPLOAD',
  'ITEM_RENAME',
  'ITEM_MOVE',
  'ITEM_COPY',
  'ITEM_UNDELETE_VIA_TRASH',
]);
/** File events that take the file away. */
const FILE_GONE = new Set(['ITEM_TRASH', 'ITEM_DELETE']);
/** Folder events after which the folder's files cannot be told from the stream. */
const FOLDER_RESTART = new Set([
  'ITEM_TRASH',
  'ITEM_DELETE',
  'ITEM_MOVE',
  'ITEM_UNDELETE_VIA_TRASH',
  'ITEM_COPY',
]);

interface BoxItem {
  type: 'file' | 'folder' | 'web_link';
  id: string;
  etag?: string | null;
  name?: string;
  size?: number;
  sha1?: string;
  modified_at?: string;
  item_status?: string;
  path_collection?: { entries?: { id: string }[] };
}

interface Items {
  entries: BoxItem[];
  next_marker?: string | null;
}

interface BoxEvent {
  event_type?: string;
  source?: BoxItem | null;
}

interface Events {
  chunk_size: number;
  next_stream_position: string | number;
  entries: BoxEvent[];
}

interface UploadSession {
  id: string;
  part_size: number;
  total_parts?: number;
}

interface UploadPart {
  part_id: string;
  offset: number;
  size: number;
  sha1?: string;
}

interface Conflict {
  type?: string;
  id?: string;
  etag?: string | null;
  name?: string;
  sha1?: string;
}

/** Where a pass is: walking folders (the queue's first being listed from marker `m`) or reading events. */
type Position = { k: 'walk'; q: string[]; m?: string; s: string } | { k: 'events'; p: string };

const DIGITS = /^\d{1,24}$/;
/** Box's markers are opaque, but they travel in a query: URL-safe text only. */
const MARKER = /^[\w.~=+/-]{1,1024}$/;

/** Page tokens and cursors: base64url JSON, checked field by field when they come back. */
export const boxPositions = {
  encode(position: Position): string {
    const token = Buffer.from(JSON.stringify(position)).toString('base64url');
    if (token.length > TOKEN_MAX_CHARS)
      throw new ProviderApiError('folder changes', 200, undefined, undefined, 'walk_too_wide');
    return token;
  },
  decode(raw: string): Position | undefined {
    if (raw.length > TOKEN_MAX_CHARS) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    const v = value as Record<string, unknown> | null;
    if (!v || typeof v !== 'object') return undefined;
    if (v.k === 'events' && typeof v.p === 'string' && DIGITS.test(v.p) && Object.keys(v).length === 2)
      return { k: 'events', p: v.p };
    const queue = v.q;
    if (
      v.k === 'walk' &&
      Array.isArray(queue) &&
      queue.length > 0 &&
      queue.every((id) => typeof id === 'string' && DIGITS.test(id)) &&
      typeof v.s === 'string' &&
      DIGITS.test(v.s) &&
      (v.m === undefined || (typeof v.m === 'string' && MARKER.test(v.m)))
    )
      return { k: 'walk', q: queue as string[], s: v.s, ...(v.m !== undefined ? { m: v.m as string } : {}) };
    return undefined;
  },
};

/** A browse page token: the folder it lists and Box's marker. */
function browseMarker(token: string | undefined, folder: string): string | undefined {
  if (token === undefined) return undefined;
  const at = token.indexOf(':');
  const marker = token.slice(at + 1);
  if (at < 0 || token.slice(0, at) !== folder || !MARKER.test(marker))
    throw new ProviderApiError('list folder', 400, undefined, undefined, 'invalid_page_token');
  return marker;
}

/** A marker Box answered, checked before it becomes part of a token we hand out. */
function checkedMarker(operation: string, marker: string): string {
  if (!MARKER.test(marker))
    throw new ProviderApiError(operation, 200, undefined, undefined, 'invalid_marker');
  return marker;
}

/** A Box id as a path segment: digits only, else a 404 (no other value chooses a URL). */
export function boxId(id: string, operation: string): string {
  if (!DIGITS.test(id)) throw new ProviderApiError(operation, 404, undefined, undefined, 'invalid_id');
  return id;
}

/** Box's error body: `{type: "error", status, code, message, context_info, ...}`. */
export function readBoxError(status: number, body: unknown): ErrorReading {
  const code = (body as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? { providerError: code } : {};
}

const entryOf = (item: BoxItem): SourceEntry | undefined => {
  if (item.type === 'folder') return { id: item.id, name: item.name ?? '', kind: 'container' };
  if (item.type !== 'file') return undefined;
  return {
    id: item.id,
    name: item.name ?? '',
    kind: 'file',
    ...(item.size !== undefined ? { size: item.size } : {}),
    ...(item.etag ? { version: item.etag } : {}),
    ...(item.modified_at ? { updatedAt: item.modified_at } : {}),
  };
};

const liveFile = (item: BoxItem): ChangedFile => ({
  id: item.id,
  name: item.name ?? '',
  version: item.etag ?? '',
  ...(item.size !== undefined ? { size: item.size } : {}),
  deleted: false,
});

export interface BoxOptions extends ClientSettings {
  /** The upload host's API root; else the UPLOAD_URL setting. */
  uploadUrl?: string;
  singleUploadMax?: number;
  /** Waits between commit attempts (tests pass their own). */
  sleep?: (ms: number) => Promise<void>;
}

/** What a route calls (ContainerApi): the part of the client a route's bundle holds. */
export class BoxContainers implements ContainerApi {
  readonly replaces = true;
  protected readonly base: string;
  protected readonly uploadBase: string;
  protected readonly http: Transport;

  constructor(options: BoxOptions) {
    this.base = options.apiUrl.replace(/\/$/, '');
    this.uploadBase = (options.uploadUrl ?? options.setting?.('UPLOAD_URL') ?? BOX_UPLOAD_URL).replace(
      /\/$/,
      '',
    );
    this.http = transportFor(options, this.uploadBase);
  }

  protected request(
    operation: string,
    token: string,
    path: string,
    query: Record<string, string | number | undefined> = {},
    extra: Partial<ApiRequest> = {},
  ): ApiRequest {
    return { operation, token, url: apiUrl(this.base, path, query), readError: readBoxError, ...extra };
  }

  protected items(
    token: string,
    operation: string,
    folder: string,
    limit: number,
    marker?: string,
    fields = ITEM_FIELDS,
  ) {
    return this.http.json<Items>(
      this.request(operation, token, `/folders/${boxId(folder, operation)}/items`, {
        usemarker: 'true',
        limit: Math.min(Math.max(limit, 1), ITEMS_PAGE_MAX),
        fields,
        marker,
      }),
    );
  }

  async browse(token: string, parent: string | undefined, page: { token?: string; limit: number }) {
    if (parent === undefined) {
      await this.checkContainer(token, BOX_ROOT); // the token is good and sees the root
      return { entries: [{ id: BOX_ROOT, name: 'All Files', kind: 'container' as const }] };
    }
    const out = await this.items(token, 'list folder', parent, page.limit, browseMarker(page.token, parent));
    return {
      entries: out.entries.map(entryOf).filter((e): e is SourceEntry => e !== undefined),
      next: out.next_marker ? `${parent}:${checkedMarker('list folder', out.next_marker)}` : undefined,
    };
  }

  async checkContainer(token: string, id: string): Promise<void> {
    const folder = await this.http.json<BoxItem>(
      this.request('get folder', token, `/folders/${boxId(id, 'get folder')}`, { fields: 'item_status' }),
    );
    if (folder.type !== 'folder' || (folder.item_status && folder.item_status !== 'active'))
      throw new ProviderApiError('get folder', 404, undefined, undefined, 'not_a_folder');
  }
}

export class BoxApi extends BoxContainers implements ContentApi {
  private readonly singleUploadMax: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(options: BoxOptions) {
    super(options);
    this.singleUploadMax = options.singleUploadMax ?? UPLOAD_SINGLE_MAX_BYTES;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  async changes(
    token: string,
    container: string,
    position: ChangesPosition,
    limit: number,
  ): Promise<ChangesPage> {
    boxId(container, 'folder changes');
    let at: Position;
    if ('page' in position) {
      const decoded = boxPositions.decode(position.page);
      if (!decoded)
        throw new ProviderApiError('folder changes', 400, undefined, undefined, 'invalid_page_token');
      at = decoded;
    } else if (position.cursor) {
      const decoded = boxPositions.decode(position.cursor);
      if (decoded?.k !== 'events') throw new FeedRestartError('folder changes', 'not_a_stream_position');
      at = decoded;
    } else at = { k: 'walk', q: [container], s: await this.streamNow(token) };
    return at.k === 'walk'
      ? this.walk(token, container, at, limit)
      : this.events(token, container, at.p, limit);
  }

  /** The stream's position now: where the events after a first pass begin. */
  private async streamNow(token: string): Promise<string> {
    const out = await this.http.json<Events>(
      this.request('events position', token, '/events', { stream_type: 'changes', stream_position: 'now' }),
    );
    const position = String(out.next_stream_position);
    if (!DIGITS.test(position))
      throw new ProviderApiError('events position', 200, undefined, undefined, 'invalid_stream_position');
    return position;
  }

  /** One page of a first pass: the queue's first folder from its marker; its subfolders join the queue. */
  private async walk(
    token: string,
    container: string,
    at: Position & { k: 'walk' },
    limit: number,
  ): Promise<ChangesPage> {
    const [folder, ...rest] = at.q;
    let out: Items;
    try {
      out = await this.items(token, 'folder changes', folder!, limit, at.m, `${ITEM_FIELDS},etag`);
    } catch (error) {
      // A subfolder gone since it was queued: its files are gone too (the reconcile marks them).
      if (folder !== container && error instanceof ProviderApiError && error.status === 404)
        return this.after(at.s, rest, []);
      throw error;
    }
    const files: ChangedFile[] = [];
    const queue = [...rest];
    for (const item of out.entries) {
      if (item.type === 'file') files.push(liveFile(item));
      else if (item.type === 'folder') queue.push(item.id);
    }
    if (out.next_marker) {
      // The subfolders of this page wait behind the rest of its folder.
      return {
        files,
        next: {
          page: boxPositions.encode({
            k: 'walk',
            q: [folder!, ...queue],
            m: checkedMarker('folder changes', out.next_marker),
            s: at.s,
          }),
        },
      };
    }
    return this.after(at.s, queue, files);
  }

  private after(stream: string, queue: string[], files: ChangedFile[]): ChangesPage {
    if (queue.length)
      return { files, next: { page: boxPositions.encode({ k: 'walk', q: queue, s: stream }) } };
    return { files, next: { cursor: boxPositions.encode({ k: 'events', p: stream }) } };
  }

  /** One chunk of the user's events from `position`, as the link's folder sees them. */
  private async events(
    token: string,
    container: string,
    position: string,
    limit: number,
  ): Promise<ChangesPage> {
    let out: Events;
    try {
      out = await this.http.json<Events>(
        this.request('list events', token, '/events', {
          stream_type: 'changes',
          stream_position: position,
          limit: Math.min(Math.max(limit, 1), EVENTS_PAGE_MAX),
        }),
      );
    } catch (error) {
      if (error instanceof ProviderApiError && (error.status === 400 || error.status === 410))
        throw new FeedRestartError('list events', error.providerError ?? 'invalid_stream_position');
      throw error;
    }
    const next = String(out.next_stream_position);
    if (!DIGITS.test(next))
      throw new ProviderApiError('list events', 200, undefined, undefined, 'invalid_stream_position');
    const byId = new Map<string, ChangedFile>();
    for (const event of out.entries) {
      const source = event.source;
      const type = event.event_type ?? '';
      if (!source || !DIGITS.test(source.id ?? '')) continue;
      if (source.type === 'folder') {
        if (FOLDER_RESTART.has(type))
          throw new FeedRestartError('list events', `folder_${type.toLowerCase()}`);
        continue;
      }
      if (source.type !== 'file') continue;
      if (FILE_GONE.has(type)) {
        byId.delete(source.id);
        byId.set(source.id, { id: source.id, name: source.name ?? '', version: '', deleted: true });
      } else if (FILE_LIVE.has(type)) {
        const inside =
          container === BOX_ROOT ||
          (source.path_collection?.entries ?? []).some((folder) => folder.id === container);
        const trashed = source.item_status !== undefined && source.item_status !== 'active';
        byId.delete(source.id);
        byId.set(
          source.id,
          inside && !trashed
            ? liveFile(source)
            : { id: source.id, name: source.name ?? '', version: '', deleted: true },
        );
      }
    }
    const files = [...byId.values()];
    const cursor = boxPositions.encode({ k: 'events', p: next });
    return { files, next: out.chunk_size > 0 && out.entries.length > 0 ? { page: cursor } : { cursor } };
  }

  async download(token: string, fileId: string, listed?: ChangedFile): Promise<Download> {
    const operation = 'download file';
    const id = boxId(fileId, operation);
    let version = listed?.version;
    if (!listed) {
      const meta = await this.http.json<BoxItem>(
        this.request(operation, token, `/files/${id}`, { fields: 'item_status' }),
      );
      if (meta.type !== 'file' || (meta.item_status && meta.item_status !== 'active'))
        throw new ProviderApiError(operation, 404, undefined, undefined, 'not_a_file');
      version = meta.etag ?? undefined;
    }
    // 302 to the download host: followed as a GET without our Authorization header.
    const response = await this.http.send(
      this.request(
        operation,
        token,
        `/files/${id}/content`,
        {},
        { followRedirects: true, headers: { Accept: '*/*' } },
      ),
    );
    if (response.status === 202) {
      await discard(response);
      const seconds = Number(response.headers.get('retry-after'));
      throw new ProviderApiError(
        operation,
        503,
        Number.isFinite(seconds) && seconds > 0 ? seconds : 5,
        undefined,
        'not_ready',
      );
    }
    const download = downloadOf(operation, response);
    const { version: _hostEtag, ...rest } = download; // the download host's ETag is not Box's etag
    return { ...rest, ...(version ? { version } : {}) };
  }

  /** The item named `name` in the folder, compared case-insensitively as Box compares names. */
  async findFile(token: string, container: string, name: string): Promise<ProviderFile | undefined> {
    if (nameProblem(name, BOX_NAMES)) return undefined; // none can exist
    const wanted = name.toLowerCase();
    let marker: string | undefined;
    do {
      const out = await this.items(token, 'find file', container, ITEMS_PAGE_MAX, marker, 'name,etag');
      const found = out.entries.find((item) => item.name?.toLowerCase() === wanted);
      if (found)
        return {
          id: found.id,
          name: found.name ?? name,
          version: found.type === 'file' ? (found.etag ?? '') : found.type,
        };
      marker = out.next_marker ?? undefined;
    } while (marker);
    return undefined;
  }

  async upload(token: string, container: string, file: Upload): Promise<ProviderFile> {
    const problem = nameProblem(file.name, BOX_NAMES);
    if (problem) throw new UploadRefusedError('invalid_name', problem);
    const parent = boxId(container, 'upload file');
    const target = file.replace ? boxId(file.replace.id, 'upload file') : undefined;
    const ifMatch: Record<string, string> = file.replace ? { 'If-Match': file.replace.version } : {};
    const sha1 = createHash('sha1');
    const body = file.body.pipe(
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          sha1.update(chunk);
          done(null, chunk);
        },
      }),
    );
    file.body.once('error', (error) => body.destroy(error));
    let conflict: Conflict | undefined;
    const readError = (status: number, json: unknown): ErrorReading => {
      const found = (json as { context_info?: { conflicts?: Conflict[] | Conflict } } | null)?.context_info
        ?.conflicts;
      conflict = Array.isArray(found) ? found[0] : found;
      return readBoxError(status, json);
    };
    let files: { entries: BoxItem[] };
    try {
      files =
        file.size <= this.singleUploadMax
          ? await this.single(token, parent, target, file, body, ifMatch, readError)
          : await this.session(token, parent, target, file, body, sha1, ifMatch, readError);
    } catch (error) {
      if (!(error instanceof ProviderApiError)) throw error;
      if (file.replace && (error.status === 412 || error.status === 404))
        throw new UploadRefusedError('changed', 'the file changed at Box since it was checked');
      if (error.status === 409 && error.providerError === 'item_name_in_use') {
        // The same bytes under the name: this upload, whose first answer was lost, is the file there. A
        // session refused at its start has read none of the bytes: they are read (not sent) to tell.
        if (conflict?.type === 'file' && conflict.sha1 && !body.readableEnded && !body.destroyed)
          await hashRest(body);
        const digest = body.readableEnded ? sha1.digest('hex') : undefined;
        if (conflict?.type === 'file' && conflict.id && conflict.sha1?.toLowerCase() === digest)
          return { id: conflict.id, name: conflict.name ?? file.name, version: conflict.etag ?? '' };
        throw new UploadRefusedError('name_taken', 'another item took the name since it was checked');
      }
      throw error;
    }
    const made = files.entries[0];
    if (!made?.id) throw new ProviderApiError('upload file', 200, undefined, undefined, 'no_file');
    return { id: made.id, name: made.name ?? file.name, version: made.etag ?? '' };
  }

  /** One multipart request: `attributes` (name, parent) first, as Box asks, then the bytes. */
  private single(
    token: string,
    parent: string,
    target: string | undefined,
    file: Upload,
    bytes: Readable,
    ifMatch: Record<string, string>,
    readError: ApiRequest['readError'],
  ) {
    const boundary = `box-${randomBytes(16).toString('hex')}`;
    const attributes = JSON.stringify(
      target ? { name: file.name } : { name: file.name, parent: { id: parent } },
    );
    // The name travels in the JSON only: the part's filename is fixed, so no name shapes a header.
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="attributes"\r\nContent-Type: application/json\r\n\r\n${attributes}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="upload"\r\nContent-Type: ${file.contentType.replace(/[\r\n]/g, '')}\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    async function* parts() {
      yield head;
      for await (const chunk of bytes as AsyncIterable<Buffer>) yield chunk;
      yield tail;
    }
    return this.http.json<{ entries: BoxItem[] }>({
      operation: 'upload file',
      token,
      method: 'POST',
      url: `${this.uploadBase}/files/${target ? `${target}/content` : 'content'}`,
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, ...ifMatch },
      body: Readable.from(parts(), { objectMode: false }),
      length: head.length + file.size + tail.length,
      readError,
    });
  }

  /** A chunked upload session: create, the parts with their digests, the commit with the file's. */
  private async session(
    token: string,
    parent: string,
    target: string | undefined,
    file: Upload,
    bytes: Readable,
    sha1: ReturnType<typeof createHash>,
    ifMatch: Record<string, string>,
    readError: ApiRequest['readError'],
  ): Promise<{ entries: BoxItem[] }> {
    const create = Buffer.from(
      JSON.stringify(
        target
          ? { file_size: file.size, file_name: file.name }
          : { folder_id: parent, file_size: file.size, file_name: file.name },
      ),
    );
    const session = await this.http.json<UploadSession>({
      operation: 'start upload',
      token,
      method: 'POST',
      url: `${this.uploadBase}/files/${target ? `${target}/` : ''}upload_sessions`,
      headers: { 'Content-Type': 'application/json' },
      body: create,
      length: create.length,
      readError,
    });
    if (
      !/^[\w-]{1,128}$/.test(session.id ?? '') ||
      !Number.isSafeInteger(session.part_size) ||
      session.part_size < 1
    )
      throw new ProviderApiError('start upload', 201, undefined, undefined, 'invalid_session');
    const url = `${this.uploadBase}/files/upload_sessions/${session.id}`;
    try {
      const parts: UploadPart[] = [];
      let offset = 0;
      for await (const chunk of chunksOf(bytes, session.part_size)) {
        parts.push(await this.part(token, url, offset, chunk, file.size));
        offset += chunk.length;
      }
      if (offset !== file.size)
        throw new ProviderApiError('upload part', undefined, undefined, undefined, 'size_mismatch');
      const commit = Buffer.from(JSON.stringify({ parts }));
      const digest = `sha=${sha1.copy().digest('base64')}`;
      for (let attempt = 1; ; attempt++) {
        const response = await this.http.send({
          operation: 'commit upload',
          token,
          method: 'POST',
          url: `${url}/commit`,
          headers: { 'Content-Type': 'application/json', Digest: digest, ...ifMatch },
          body: commit,
          length: commit.length,
          readError,
        });
        if (response.status !== 202) return await readJson<{ entries: BoxItem[] }>('commit upload', response);
        await discard(response);
        const seconds = Number(response.headers.get('retry-after'));
        const wait = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000;
        if (attempt >= COMMIT_ATTEMPTS || wait > COMMIT_WAIT_MAX_MS)
          throw new ProviderApiError('commit upload', 503, Math.ceil(wait / 1000), undefined, 'not_ready');
        await this.sleep(wait);
      }
    } catch (error) {
      // Best effort: an abandoned session is dropped rather than left to expire.
      if (!(error instanceof ProviderApiError && error.status === 409))
        await this.http
          .send({ operation: 'abort upload', token, method: 'DELETE', url })
          .then(discard, () => undefined);
      throw error;
    }
  }

  /** One part, sent again after a lost answer or a 5xx (the same range and bytes: Box keeps one). */
  private async part(
    token: string,
    url: string,
    offset: number,
    chunk: Buffer,
    total: number,
  ): Promise<UploadPart> {
    const digest = `sha=${createHash('sha1').update(chunk).digest('base64')}`;
    for (let attempt = 1; ; attempt++) {
      try {
        const out = await this.http.json<{ part?: UploadPart }>({
          operation: 'upload part',
          token,
          method: 'PUT',
          url,
          headers: {
            'Content-Type': 'application/octet-stream',
            'Content-Range': `bytes ${offset}-${offset + chunk.length - 1}/${total}`,
            Digest: digest,
          },
          body: chunk,
          length: chunk.length,
          readError: readBoxError,
        });
        if (!out.part?.part_id)
          throw new ProviderApiError('upload part', 200, undefined, undefined, 'no_part');
        return out.part;
      } catch (error) {
        const transient =
          error instanceof ProviderApiError && (error.status === undefined || error.status >= 500);
        if (!transient || attempt >= PART_ATTEMPTS) throw error;
      }
    }
  }
}

/** Reads what is left of a stream (its Transform hashes as it passes); a failure leaves it unended. */
async function hashRest(body: Readable): Promise<void> {
  try {
    for await (const _chunk of body as AsyncIterable<Buffer>) {
      // each chunk is hashed on its way through
    }
  } catch {
    // not ended: no digest, so not taken as ours
  }
}

export const client: ProviderClient = { Content: BoxApi, Containers: BoxContainers };
