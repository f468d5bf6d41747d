// Dropbox API v2 (https://www.dropbox.com/developers/documentation/http/documentation): RPC endpoints
// on the API host (JSON in, JSON out), content endpoints on the content host (arguments as JSON in the
// Dropbox-API-Arg header, bytes in the body, the result in the Dropbox-API-Result header).
//
// Ids. A container is a folder, named by its Dropbox id (`id:...`, stable across moves) or `/` for the
// app's root. A file is named by its `path_lower`: the changes feed reports a deletion by path only (a
// DeletedMetadata entry has no id), so only a path-keyed file can be told deleted. A move or rename
// therefore shows as the old path deleted and the new path added (the vault keeps the old document
// marked deleted at source and imports the new one). A folder deleted (or moved) at Dropbox is reported
// as that folder's path alone, not file by file, and a deleted entry does not say whether it was a file
// or a folder: every deletion is `subtree`, and the run marks each file the link holds under that path.
//
// Errors. Endpoint errors are 409 with `{"error_summary": "path/not_found/..", "error": {...}}`: a
// missing path reads as 404; `reset` (a cursor Dropbox no longer honours) is FeedRestartError. A
// missing scope is a 401 `missing_scope`, read as 403 insufficient_scope so that it is not taken for a
// refused token. 429 (`too_many_requests`, `too_many_write_operations`) carries Retry-After.
import type { Readable } from 'node:stream';
import type {
  ChangedFile,
  ChangesPage,
  ChangesPosition,
  ContainerApi,
  ContentApi,
  Download,
  ProviderFile,
  SourceEntry,
  Upload,
} from '../../infra/content/api';
import { FeedRestartError, UploadRefusedError, nameProblem } from '../../infra/content/api';
import type { ErrorReading, Transport } from '../../infra/content/http';
import type { ClientSettings } from '../../infra/content/http';
import { ProviderApiError, transportFor, readJson, streamBody } from '../../infra/content/http';
import { uploadResumable } from '../../infra/content/resumable';
import type { ProviderClient } from '../module';

/** The root folder's id here; Dropbox names it with the empty path. */
export const DROPBOX_ROOT = '/';

/** The upload endpoint takes at most 150 MiB; larger files go through an upload session. */
export const DROPBOX_SINGLE_UPLOAD_MAX = 150 * 1024 * 1024;
/** Session chunks: a multiple of 4 MiB (what Dropbox asks of session chunks), read one at a time. */
export const DROPBOX_CHUNK_BYTES = 16 * 1024 * 1024;

interface FileMetadata {
  '.tag'?: 'file';
  id: string;
  name: string;
  path_lower?: string;
  path_display?: string;
  rev: string;
  size: number;
  server_modified?: string;
  content_hash?: string;
}

interface FolderMetadata {
  '.tag': 'folder';
  id: string;
  name: string;
  path_lower?: string;
}

interface DeletedMetadata {
  '.tag': 'deleted';
  name: string;
  path_lower?: string;
}

type Metadata = (FileMetadata & { '.tag': 'file' }) | FolderMetadata | DeletedMetadata;

interface ListFolderResult {
  entries: Metadata[];
  cursor: string;
  has_more: boolean;
}

/**
 * JSON safe in an HTTP header, as Dropbox asks of Dropbox-API-Arg: every character outside printable
 * ASCII escaped as \uXXXX (JSON.stringify leaves non-ASCII as is, which a header cannot carry).
 */
export function headerSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A Dropbox error body reduced to a status and a short code (the error_summary's leading tags). */
export function readDropboxError(status: number, body: unknown): ErrorReading {
  const error = (body ?? {}) as {
    error_summary?: unknown;
    error?: { '.tag'?: unknown; retry_after?: unknown };
  };
  const summary = typeof error.error_summary === 'string' ? error.error_summary : '';
  // "path/not_found/.." -> ["path", "not_found"]: the part after the last slash is a filler Dropbox
  // varies (dots, or random characters), never a tag.
  const tags = summary
    .split('/')
    .slice(0, -1)
    .filter((tag) => /^[a-z_]+$/.test(tag));
  const code = tags.join('.') || undefined;
  const retryAfter = typeof error.error?.retry_after === 'number' ? error.error.retry_after : undefined;
  if (status === 401 && tags[0] === 'missing_scope')
    return { status: 403, providerError: 'insufficient_scope' };
  if (status === 409 && tags.includes('not_found')) return { status: 404, providerError: code };
  if (status === 409 && tags.includes('not_folder')) return { status: 404, providerError: code };
  return { providerError: code, ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}) };
}

const entry = (m: Metadata): SourceEntry | undefined => {
  if (m['.tag'] === 'folder') return { id: m.id, name: m.name, kind: 'container' };
  if (m['.tag'] !== 'file' || !m.path_lower) return undefined;
  return {
    id: m.path_lower,
    name: m.name,
    kind: 'file',
    size: m.size,
    version: m.rev,
    ...(m.server_modified ? { updatedAt: m.server_modified } : {}),
  };
};

/** A file name Dropbox can hold under its parent without naming another path (at most 255 characters). */
function checkedName(name: string): string {
  const problem = nameProblem(name);
  if (problem) throw new UploadRefusedError('invalid_name', problem);
  return name;
}

export interface DropboxOptions extends ClientSettings {
  /** The content host (https://content.dropboxapi.com): downloads and uploads; else CONTENT_URL. */
  contentUrl?: string;
  singleUploadMax?: number;
  chunkBytes?: number;
}

/** What a route calls (ContainerApi): the part of the client a route's bundle holds. */
export class DropboxContainers implements ContainerApi {
  protected readonly contentUrl: string;
  protected readonly singleUploadMax: number;
  protected readonly chunkBytes: number;

  private readonly apiUrl: string;
  protected readonly http: Transport;

  /** `apiUrl`: the API host (https://api.dropboxapi.com), its paths /2/... */
  constructor(options: DropboxOptions) {
    this.apiUrl = options.apiUrl;
    this.contentUrl = (options.contentUrl ?? options.setting?.('CONTENT_URL') ?? '').replace(/\/$/, '');
    // Both hosts are the API's: downloads and uploads carry our bearer to the content host.
    this.http = transportFor(options, this.contentUrl);
    this.singleUploadMax = options.singleUploadMax ?? DROPBOX_SINGLE_UPLOAD_MAX;
    this.chunkBytes = options.chunkBytes ?? DROPBOX_CHUNK_BYTES;
  }

  protected rpc<T>(operation: string, token: string, path: string, argument: unknown): Promise<T> {
    return this.http.json<T>({
      operation,
      token,
      method: 'POST',
      url: `${this.apiUrl.replace(/\/$/, '')}/2/${path}`,
      headers: { 'Content-Type': 'application/json' },
      body: Buffer.from(JSON.stringify(argument)),
      readError: readDropboxError,
    });
  }

  protected static folderPath(id: string): string {
    return id === DROPBOX_ROOT ? '' : id;
  }

  /** The top level is the Dropbox itself (`/`, a container a link may take whole); below, folders. */
  async browse(token: string, parent: string | undefined, page: { token?: string; limit: number }) {
    if (parent === undefined) {
      await this.checkContainer(token, DROPBOX_ROOT); // the token is good, and can see the root
      return { entries: [{ id: DROPBOX_ROOT, name: 'Dropbox', kind: 'container' as const }] };
    }
    const out = page.token
      ? await this.rpc<ListFolderResult>('list folder', token, 'files/list_folder/continue', {
          cursor: page.token,
        })
      : await this.rpc<ListFolderResult>('list folder', token, 'files/list_folder', {
          path: DropboxContainers.folderPath(parent),
          recursive: false,
          include_deleted: false,
          limit: page.limit,
        });
    return {
      entries: out.entries.map(entry).filter((e): e is SourceEntry => e !== undefined),
      next: out.has_more ? out.cursor : undefined,
    };
  }

  async checkContainer(token: string, id: string): Promise<void> {
    await this.rpc('list folder', token, 'files/list_folder', {
      path: DropboxContainers.folderPath(id),
      recursive: false,
      limit: 1,
    });
  }
}

export class DropboxApi extends DropboxContainers implements ContentApi {
  private content(
    operation: string,
    token: string,
    path: string,
    argument: unknown,
    body?: { data: Readable | Buffer; length: number },
    readError: (status: number, body: unknown) => ErrorReading = readDropboxError,
  ): Promise<Response> {
    return this.http.send({
      operation,
      token,
      method: 'POST',
      url: `${this.contentUrl}/2/${path}`,
      headers: {
        'Dropbox-API-Arg': headerSafeJson(argument),
        ...(body ? { 'Content-Type': 'application/octet-stream' } : {}),
        Accept: '*/*',
      },
      ...(body ? { body: body.data, length: body.length } : {}),
      readError,
    });
  }

  /**
   * The folder's whole subtree: a first pass lists every file (list_folder recursive), later passes
   * what changed since the kept cursor (list_folder/continue), deletions as path-only entries. A cursor
   * Dropbox answers `reset` to is FeedRestartError (the run starts over from no cursor and reconciles).
   */
  async changes(
    token: string,
    container: string,
    position: ChangesPosition,
    limit: number,
  ): Promise<ChangesPage> {
    const cursor = 'page' in position ? position.page : position.cursor;
    const first = () =>
      this.rpc<ListFolderResult>('folder changes', token, 'files/list_folder', {
        path: DropboxApi.folderPath(container),
        recursive: true,
        include_deleted: false,
        limit,
      });
    let out: ListFolderResult;
    if (!cursor) out = await first();
    else {
      try {
        out = await this.rpc<ListFolderResult>('folder changes', token, 'files/list_folder/continue', {
          cursor,
        });
      } catch (error) {
        if (error instanceof ProviderApiError && error.providerError === 'reset')
          throw new FeedRestartError('folder changes', 'reset');
        throw error;
      }
    }
    const files: ChangedFile[] = [];
    for (const m of out.entries) {
      if (!m.path_lower) continue;
      if (m['.tag'] === 'file')
        files.push({ id: m.path_lower, name: m.name, version: m.rev, size: m.size, deleted: false });
      else if (m['.tag'] === 'deleted')
        files.push({ id: m.path_lower, name: m.name, version: '', deleted: true, subtree: true });
    }
    return { files, next: out.has_more ? { page: out.cursor } : { cursor: out.cursor } };
  }

  async download(token: string, fileId: string): Promise<Download> {
    const operation = 'download file';
    const response = await this.content(operation, token, 'files/download', { path: fileId });
    let result: Partial<FileMetadata> = {};
    try {
      result = JSON.parse(response.headers.get('dropbox-api-result') ?? '{}') as Partial<FileMetadata>;
    } catch {
      // the bytes are what matter; size and version then come from the listing
    }
    const length = Number(response.headers.get('content-length'));
    const size = typeof result.size === 'number' ? result.size : Number.isFinite(length) ? length : undefined;
    return {
      body: streamBody(operation, response),
      contentType: 'application/octet-stream',
      ...(size !== undefined && response.headers.has('content-length') ? { size } : {}),
      ...(typeof result.rev === 'string' ? { version: result.rev } : {}),
    };
  }

  /** get_metadata on the path in the folder (Dropbox's names are case-insensitive). */
  async findFile(token: string, container: string, name: string): Promise<ProviderFile | undefined> {
    const path = `${DropboxApi.folderPath(container)}/${checkedName(name)}`;
    try {
      const m = await this.rpc<Metadata>('find file', token, 'files/get_metadata', { path });
      if (m['.tag'] === 'folder') return { id: m.id, name: m.name, version: 'folder' };
      if (m['.tag'] !== 'file') return undefined;
      return { id: m.path_lower ?? m.id, name: m.name, version: m.rev };
    } catch (error) {
      if (error instanceof ProviderApiError && error.status === 404) return undefined;
      throw error;
    }
  }

  /**
   * `add` mode without autorename: a name held by other bytes is a conflict (never replaced), the same
   * bytes at the same path are no conflict, so a retried upload makes no second file. `replace` is
   * `update` mode with the rev findFile saw: Dropbox replaces only that revision. Up to 150 MiB in one
   * call, above in an upload session.
   */
  async upload(token: string, container: string, file: Upload): Promise<ProviderFile> {
    const path = `${DropboxApi.folderPath(container)}/${checkedName(file.name)}`;
    const mode = file.replace ? { '.tag': 'update', update: file.replace.version } : 'add';
    const commit = { path, mode, autorename: false, mute: true, strict_conflict: false };
    let response: Response;
    try {
      if (file.size <= this.singleUploadMax) {
        response = await this.content('upload file', token, 'files/upload', commit, {
          data: file.body,
          length: file.size,
        });
      } else response = await this.session(token, file, commit);
    } catch (error) {
      if (
        error instanceof ProviderApiError &&
        error.status === 409 &&
        /conflict/.test(error.providerError ?? '')
      )
        throw file.replace
          ? new UploadRefusedError('changed', 'the file changed at Dropbox since it was checked')
          : new UploadRefusedError('name_taken', 'another file took the name since it was checked');
      throw error;
    }
    const out = await readJson<FileMetadata>('upload file', response);
    return { id: out.path_lower ?? out.id, name: out.name, version: out.rev };
  }

  /**
   * start (no bytes), append_v2 per chunk, finish with the last chunk and the commit. A chunk that got
   * no answer or a 5xx is sent again; Dropbox has no offset query, but its `incorrect_offset` answer
   * (`correct_offset`: what the session holds) says how much of it arrived, so only the rest goes (none
   * when only the answer was lost).
   */
  private session(token: string, file: Upload, commit: Record<string, unknown>): Promise<Response> {
    return uploadResumable<{ id: string; correct?: number }, Response>(
      {
        operation: 'upload session append',
        partBytes: this.chunkBytes,
        start: async () => {
          const started = await readJson<{ session_id: string }>(
            'upload session start',
            await this.content(
              'upload session start',
              token,
              'files/upload_session/start',
              { close: false },
              { data: Buffer.alloc(0), length: 0 },
            ),
          );
          return { id: started.session_id };
        },
        put: async (session, offset, bytes) => {
          session.correct = undefined;
          await this.content(
            'upload session append',
            token,
            'files/upload_session/append_v2',
            { cursor: { session_id: session.id, offset }, close: false },
            { data: bytes, length: bytes.length },
            (status, body) => {
              const at = (body as { error?: { correct_offset?: unknown } } | null)?.error?.correct_offset;
              if (typeof at === 'number') session.correct = at;
              return readDropboxError(status, body);
            },
          );
          return undefined;
        },
        resumable: (error) =>
          error.status === undefined || error.status >= 500 || error.providerError === 'incorrect_offset',
        offset: (session, error) => {
          if (error.providerError !== 'incorrect_offset') return Promise.resolve(undefined);
          if (session.correct === undefined) return Promise.reject(error);
          return Promise.resolve({ received: session.correct });
        },
        finish: (session, offset, last) =>
          this.content(
            'upload session finish',
            token,
            'files/upload_session/finish',
            { cursor: { session_id: session.id, offset }, commit },
            { data: last, length: last.length },
          ),
      },
      file.body,
      file.size,
    );
  }
}

/** The client its module loads on first use. */
export const client: ProviderClient = { Content: DropboxApi, Containers: DropboxContainers };
