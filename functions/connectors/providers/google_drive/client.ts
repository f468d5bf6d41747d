// Google Drive API v3 (API_URL is the origin its documented paths hang from, https://www.googleapis.com):
// - browse: the top is My Drive (`root`) and the shared drives (drives.list); a folder's children are
//   files.list with q `'<id>' in parents and trashed = false`, pageToken/nextPageToken, fields, and
//   supportsAllDrives/includeItemsFromAllDrives so shared drives' folders work the same;
// - changes: a first pass takes changes.getStartPageToken, then walks the folder's subtree with
//   files.list (the pass's position is the queue of folders still to list); the cursor kept is that
//   start token, so anything changed during the walk comes again in the next pass. Later passes read
//   changes.list from the cursor to newStartPageToken: a removed or trashed file is a deletion, a file
//   no longer under the link's folder (moved out) is a deletion for this link, folders are skipped; a
//   page token Drive refuses (400, 404 or 410 on changes.list) is FeedRestartError;
// - download: alt=media, or, for a Google-native document, files.export to the Office format (PDF for
//   drawings), which Google caps at 10 MB (403 exportSizeLimitExceeded);
// - upload: a multipart upload up to 5 MB, a resumable session above (8 MiB chunks, multiples of
//   256 KiB as required). Our exports carry appProperties (ces_export, ces_upload_key): a retry with
//   the same key finds the file it made. Drive lets two files share a name, so "never replace a user's
//   file" is this client's check: a name held by a file without our key is UploadRefusedError
//   ('name_taken'); `replace` (our own earlier export, as findFile saw it) updates that file only while
//   its version is the one seen (Drive has no conditional update: the version is read just before).
import * as z from 'zod/mini';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
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
import type { ApiRequest, Transport } from '../../infra/content/http';
import type { ClientSettings } from '../../infra/content/http';
import {
  ProviderApiError,
  transportFor,
  apiUrl,
  discard,
  pathSegment,
  readJson,
} from '../../infra/content/http';
import type { SessionState } from '../../infra/content/resumable';
import { uploadResumable } from '../../infra/content/resumable';
import { downloadOf } from '../../infra/content/responses';
import type { ProviderClient } from '../module';
import { pageTokenCodec } from '../../infra/content/page-token';
import { parentWalk } from '../../infra/content/parent-walk';

const FOLDER = 'application/vnd.google-apps.folder';
const NATIVE = 'application/vnd.google-apps.';
/** The format a Google-native document is imported as. */
export const EXPORT_AS: Record<string, string> = {
  'application/vnd.google-apps.document':
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.google-apps.spreadsheet':
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.google-apps.presentation':
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.google-apps.drawing': 'application/pdf',
};
export const MULTIPART_MAX_BYTES = 5 * 1024 * 1024;
export const RESUMABLE_CHUNK_BYTES = 8 * 1024 * 1024;
const ALL_DRIVES = { supportsAllDrives: 'true', includeItemsFromAllDrives: 'true' };
const LIST_FIELDS = 'nextPageToken,files(id,name,mimeType,size,version,modifiedTime)';
const CHANGE_FIELDS =
  'nextPageToken,newStartPageToken,changes(fileId,removed,file(id,name,mimeType,parents,size,version,trashed))';

interface DriveFile {
  id: string;
  name: string;
  mimeType: string;
  parents?: string[];
  size?: string;
  version?: string;
  modifiedTime?: string;
  trashed?: boolean;
  appProperties?: Record<string, string>;
}

interface FileList {
  files: DriveFile[];
  nextPageToken?: string;
}

/** A pass's position: walking the subtree (first pass: the folders still to list) or reading the feed. */
const positionToken = pageTokenCodec(
  z.union([
    z.object({
      walk: z.object({
        start: z.string(),
        queue: z.array(z.string()).check(z.minLength(1)),
        pageToken: z.optional(z.string()),
      }),
    }),
    z.object({ feed: z.string() }),
  ]),
);
type Position = ReturnType<typeof positionToken.decode>;

const q = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

const changed = (f: DriveFile, deleted = false): ChangedFile => ({
  id: f.id,
  name: f.name,
  // `version` grows with every change of the file (content or metadata).
  version: f.version ?? '',
  ...(f.size !== undefined ? { size: Number(f.size) } : {}),
  ...(f.mimeType.startsWith(NATIVE) ? { contentType: EXPORT_AS[f.mimeType] } : { contentType: f.mimeType }),
  providerType: f.mimeType,
  deleted,
});

const entry = (f: DriveFile): SourceEntry => ({
  id: f.id,
  name: f.name,
  kind: f.mimeType === FOLDER ? 'container' : 'file',
  ...(f.size !== undefined ? { size: Number(f.size) } : {}),
  ...(f.version !== undefined ? { version: f.version } : {}),
  ...(f.mimeType !== FOLDER ? { contentType: EXPORT_AS[f.mimeType] ?? f.mimeType } : {}),
  ...(f.modifiedTime ? { updatedAt: f.modifiedTime } : {}),
});

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** What a route calls (ContainerApi): the part of the client a route's bundle holds. */
export class GoogleDriveContainers implements ContainerApi {
  private readonly base: string;
  protected readonly http: Transport;

  constructor(settings: ClientSettings) {
    this.base = settings.apiUrl;
    this.http = transportFor(settings);
  }

  protected request(
    operation: string,
    token: string,
    path: string,
    query: Record<string, string | number | undefined>,
    extra: Partial<ApiRequest> = {},
  ): ApiRequest {
    return {
      operation,
      token,
      url: apiUrl(this.base, path, query),
      ...extra,
    };
  }

  protected list(
    token: string,
    query: string,
    page: { token?: string; limit: number },
    fields = LIST_FIELDS,
  ) {
    return this.http.json<FileList>(
      this.request('list folder', token, '/drive/v3/files', {
        q: query,
        pageSize: page.limit,
        pageToken: page.token,
        fields,
        ...ALL_DRIVES,
      }),
    );
  }

  protected getFile(token: string, id: string, fields: string) {
    return this.http.json<DriveFile>(
      this.request('get file', token, `/drive/v3/files/${pathSegment(id, 'get file')}`, {
        fields,
        supportsAllDrives: 'true',
      }),
    );
  }

  async browse(token: string, parent: string | undefined, page: { token?: string; limit: number }) {
    if (parent === undefined) {
      // My Drive first, then the shared drives a page at a time (a shared drive's id is its root folder's).
      const drives = await this.http.json<{
        drives?: { id: string; name: string }[];
        nextPageToken?: string;
      }>(
        this.request('list shared drives', token, '/drive/v3/drives', {
          pageSize: Math.min(page.limit, 100),
          pageToken: page.token,
          fields: 'nextPageToken,drives(id,name)',
        }),
      );
      const shared = (drives.drives ?? []).map((d): SourceEntry => ({
        id: d.id,
        name: d.name,
        kind: 'container',
      }));
      const mine: SourceEntry[] = page.token ? [] : [{ id: 'root', name: 'My Drive', kind: 'container' }];
      return { entries: [...mine, ...shared], next: drives.nextPageToken };
    }
    const out = await this.list(token, `${q(parent)} in parents and trashed = false`, page);
    return { entries: out.files.map(entry), next: out.nextPageToken };
  }

  async checkContainer(token: string, id: string): Promise<void> {
    const file = await this.getFile(token, id, 'id,mimeType,trashed');
    if (file.mimeType !== FOLDER || file.trashed) throw new ProviderApiError('get folder', 404);
  }
}

export class GoogleDriveApi extends GoogleDriveContainers implements ContentApi {
  async changes(
    token: string,
    container: string,
    position: ChangesPosition,
    limit: number,
  ): Promise<ChangesPage> {
    let at: Position;
    if ('page' in position) at = positionToken.decode(position.page, 'list changes');
    else if (position.cursor) at = { feed: position.cursor };
    else {
      const { startPageToken } = await this.http.json<{ startPageToken: string }>(
        this.request('start changes', token, '/drive/v3/changes/startPageToken', {
          supportsAllDrives: 'true',
        }),
      );
      at = { walk: { start: startPageToken, queue: [container] } };
    }
    const pageOf = (next: Position) => ({ page: positionToken.encode(next) });
    if ('walk' in at) {
      const { start, queue, pageToken } = at.walk;
      const folder = queue[0]!;
      const out = await this.list(token, `${q(folder)} in parents and trashed = false`, {
        token: pageToken,
        limit,
      });
      const folders = out.files.filter((f) => f.mimeType === FOLDER).map((f) => f.id);
      const files = out.files.filter((f) => f.mimeType !== FOLDER).map((f) => changed(f));
      const rest = out.nextPageToken ? [...queue, ...folders] : [...queue.slice(1), ...folders];
      if (!rest.length) return { files, next: { cursor: start } };
      return { files, next: pageOf({ walk: { start, queue: rest, pageToken: out.nextPageToken } }) };
    }
    const out = await this.http
      .json<{
        changes: { fileId: string; removed?: boolean; file?: DriveFile }[];
        nextPageToken?: string;
        newStartPageToken?: string;
      }>(
        this.request('list changes', token, '/drive/v3/changes', {
          pageToken: at.feed,
          pageSize: limit,
          includeRemoved: 'true',
          fields: CHANGE_FIELDS,
          ...ALL_DRIVES,
        }),
      )
      .catch((error: unknown) => {
        // The page token is the one value of this request that is not ours: a refusal is of it.
        if (error instanceof ProviderApiError && [400, 404, 410].includes(error.status ?? 0))
          throw new FeedRestartError('list changes', error.providerError ?? `HTTP ${error.status}`);
        throw error;
      });
    const within = await this.scope(token, container);
    const files: ChangedFile[] = [];
    for (const change of out.changes) {
      const file = change.file;
      if (change.removed || !file || file.trashed) {
        files.push({
          id: change.fileId,
          name: file?.name ?? '',
          version: file?.version ?? '',
          deleted: true,
        });
      } else if (file.mimeType !== FOLDER) {
        files.push(changed(file, !(await within(file))));
      }
    }
    if (out.nextPageToken) return { files, next: pageOf({ feed: out.nextPageToken }) };
    if (!out.newStartPageToken)
      throw new ProviderApiError('list changes', 200, undefined, undefined, 'no_cursor');
    return { files, next: { cursor: out.newStartPageToken } };
  }

  /** Whether a file is under `container` (its parents walked up, each folder's parent read once). */
  private async scope(token: string, container: string) {
    const target = container === 'root' ? (await this.getFile(token, 'root', 'id')).id : container;
    const within = parentWalk(
      target,
      async (folder) => (await this.getFile(token, folder, 'id,parents')).parents?.[0],
    );
    return (file: DriveFile) => within(file.parents?.[0]);
  }

  async download(token: string, fileId: string, listed?: ChangedFile): Promise<Download> {
    // What the listing said decides export or media; the file's metadata is read only without it.
    const file =
      listed?.providerType !== undefined
        ? { mimeType: listed.providerType, version: undefined }
        : await this.getFile(token, fileId, 'id,mimeType,version');
    const exportAs = EXPORT_AS[file.mimeType];
    if (file.mimeType.startsWith(NATIVE) && !exportAs)
      throw new ProviderApiError('download file', 415, undefined, undefined, 'not_exportable');
    const operation = exportAs ? 'export file' : 'download file';
    const response = await this.http.send(
      exportAs
        ? this.request(
            operation,
            token,
            `/drive/v3/files/${pathSegment(fileId, operation)}/export`,
            { mimeType: exportAs },
            { headers: { Accept: '*/*' } },
          )
        : this.request(
            operation,
            token,
            `/drive/v3/files/${pathSegment(fileId, operation)}`,
            { alt: 'media', supportsAllDrives: 'true' },
            { headers: { Accept: '*/*' } },
          ),
    );
    return { ...downloadOf(operation, response), ...(file.version ? { version: file.version } : {}) };
  }

  /** files.list by exact name in the folder (not trashed); a folder of that name counts too. */
  async findFile(token: string, container: string, name: string): Promise<ProviderFile | undefined> {
    const found = await this.named(token, container, name);
    const file = found.find((f) => f.mimeType !== FOLDER) ?? found[0];
    return file && { id: file.id, name: file.name, version: file.version ?? '' };
  }

  private async named(token: string, container: string, name: string) {
    return (
      await this.list(
        token,
        `name = ${q(name)} and ${q(container)} in parents and trashed = false`,
        { limit: 10 },
        'files(id,name,mimeType,version,appProperties)',
      )
    ).files;
  }

  async upload(token: string, container: string, file: Upload): Promise<ProviderFile> {
    const problem = nameProblem(file.name);
    if (problem) throw new UploadRefusedError('invalid_name', problem);
    const key = createHash('sha256').update(file.idempotencyKey).digest('hex').slice(0, 64);
    const existing = await this.named(token, container, file.name);
    const done = existing.find((f) => f.appProperties?.ces_upload_key === key);
    if (done) return { id: done.id, name: done.name, version: done.version ?? '' };
    const target = file.replace;
    if (target) {
      const now = existing.find((f) => f.id === target.id);
      if (!now || (now.version ?? '') !== target.version)
        throw new UploadRefusedError('changed', 'the file changed at Google Drive since it was checked');
    } else if (existing.length)
      throw new UploadRefusedError('name_taken', 'another file took the name since it was checked');
    const metadata = {
      name: file.name,
      mimeType: file.contentType,
      appProperties: { ces_export: '1', ces_upload_key: key },
      ...(target ? {} : { parents: [container] }),
    };
    const path = target
      ? `/upload/drive/v3/files/${pathSegment(target.id, 'upload file')}`
      : '/upload/drive/v3/files';
    const method = target ? 'PATCH' : 'POST';
    const fields = 'id,name,version';
    const out =
      file.size <= MULTIPART_MAX_BYTES
        ? await this.multipart(token, path, method, fields, metadata, file)
        : await this.resumable(token, path, method, fields, metadata, file);
    return { id: out.id, name: out.name ?? file.name, version: out.version ?? '' };
  }

  private async multipart(
    token: string,
    path: string,
    method: 'POST' | 'PATCH',
    fields: string,
    metadata: object,
    file: Upload,
  ) {
    const boundary = `ces-${createHash('sha256').update(file.idempotencyKey).digest('hex').slice(0, 24)}`;
    const media = await readAll(file.body);
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${JSON.stringify(metadata)}\r\n`,
      ),
      Buffer.from(`--${boundary}\r\nContent-Type: ${file.contentType}\r\n\r\n`),
      media,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return this.http.json<DriveFile>(
      this.request(
        'upload file',
        token,
        path,
        { uploadType: 'multipart', supportsAllDrives: 'true', fields },
        {
          method,
          headers: { 'Content-Type': `multipart/related; boundary=${boundary}` },
          body: Readable.from([body]),
          length: body.length,
        },
      ),
    );
  }

  /** How many bytes a resumable session holds (`Content-Range: bytes *\/total`), or the file it made. */
  private async sessionStatus(
    token: string,
    session: string,
    size: number,
  ): Promise<SessionState<DriveFile>> {
    const response = await this.http.send({
      operation: 'upload status',
      token,
      url: session,
      method: 'PUT',
      headers: { 'Content-Range': `bytes */${size}` },
      body: Buffer.alloc(0),
      length: 0,
      accept: [308],
    });
    if (response.status !== 308) return { done: await readJson<DriveFile>('upload status', response) };
    await discard(response);
    const range = /^bytes=0-(\d+)$/.exec(response.headers.get('range') ?? '');
    return { received: range ? Number(range[1]) + 1 : 0 };
  }

  /**
   * A resumable session (the metadata first, its Location the session), then chunks PUT with their
   * Content-Range: 308 until the last answers the file. A chunk that fails on the way (no answer, 5xx)
   * is resumed as Google documents it: ask the session how much it has (`bytes *\/total` -> 308 Range).
   */
  private resumable(
    token: string,
    path: string,
    method: 'POST' | 'PATCH',
    fields: string,
    metadata: object,
    file: Upload,
  ) {
    const json = Buffer.from(JSON.stringify(metadata));
    return uploadResumable<string, DriveFile>(
      {
        operation: 'upload chunk',
        partBytes: RESUMABLE_CHUNK_BYTES,
        start: async () => {
          const started = await this.http.send(
            this.request(
              'start upload',
              token,
              path,
              { uploadType: 'resumable', supportsAllDrives: 'true', fields },
              {
                method,
                headers: {
                  'Content-Type': 'application/json; charset=UTF-8',
                  'X-Upload-Content-Type': file.contentType,
                  'X-Upload-Content-Length': String(file.size),
                },
                body: Readable.from([json]),
                length: json.length,
              },
            ),
          );
          await discard(started);
          const session = started.headers.get('location');
          if (!session)
            throw new ProviderApiError('start upload', started.status, undefined, undefined, 'no_session');
          return session;
        },
        put: async (session, offset, bytes, size) => {
          const response = await this.http.send({
            operation: 'upload chunk',
            token,
            url: session,
            method: 'PUT',
            headers: { 'Content-Range': `bytes ${offset}-${offset + bytes.length - 1}/${size}` },
            body: Readable.from([bytes]),
            length: bytes.length,
            accept: [308],
          });
          if (response.status !== 308) return await readJson<DriveFile>('upload chunk', response);
          await discard(response);
          return undefined;
        },
        offset: (session, _error, size) => this.sessionStatus(token, session, size),
      },
      file.body,
      file.size,
    );
  }
}

/** The client its module loads on first use. */
export const client: ProviderClient = { Content: GoogleDriveApi, Containers: GoogleDriveContainers };
