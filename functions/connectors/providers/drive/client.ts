// The file-storage provider's content API (Dropbox-like: `entries` + `cursor` + `has_more`, a recursive
// changes feed per folder, uploads idempotent by name: the same name overwrites, identical bytes keep
// the version). Containers are folders (`root` is the top); files are files at any depth.
import type {
  ChangesPage,
  ChangesPosition,
  ContainerApi,
  ContentApi,
  Download,
  ProviderFile,
  SourceEntry,
  Upload,
} from '../../infra/content/api';
import { UploadRefusedError, nameProblem } from '../../infra/content/api';
import type { ClientSettings, Transport } from '../../infra/content/http';
import { ProviderApiError, transportFor, apiUrl, pathSegment } from '../../infra/content/http';
import { downloadOf, refusedFeed } from '../../infra/content/responses';
import type { ProviderClient } from '../module';

interface Entry {
  id: string;
  name: string;
  type: 'folder' | 'file';
  size?: number;
  version?: number | string;
  mime_type?: string;
  modified_at?: string;
  deleted?: boolean;
}

interface Listing {
  entries: Entry[];
  cursor: string | null;
  has_more: boolean;
}

const entry = (e: Entry): SourceEntry => ({
  id: e.id,
  name: e.name,
  kind: e.type === 'folder' ? 'container' : 'file',
  ...(e.size !== undefined ? { size: e.size } : {}),
  ...(e.version !== undefined ? { version: String(e.version) } : {}),
  ...(e.mime_type ? { contentType: e.mime_type } : {}),
  ...(e.modified_at ? { updatedAt: e.modified_at } : {}),
});

/** What a route calls (ContainerApi): the part of the client a route's bundle holds. */
export class DriveContainers implements ContainerApi {
  private readonly base: string;
  protected readonly http: Transport;

  constructor(settings: ClientSettings) {
    this.base = settings.apiUrl;
    this.http = transportFor(settings);
  }

  protected url(path: string, query: Record<string, string | number | undefined> = {}): string {
    return apiUrl(this.base, path, query);
  }

  async browse(token: string, parent: string | undefined, page: { token?: string; limit: number }) {
    const out = await this.http.json<Listing>({
      operation: 'list folder',
      token,
      url: this.url(`/folders/${pathSegment(parent ?? 'root', 'list folder')}/children`, {
        limit: page.limit,
        cursor: page.token,
      }),
    });
    return { entries: out.entries.map(entry), next: out.has_more && out.cursor ? out.cursor : undefined };
  }

  async checkContainer(token: string, id: string): Promise<void> {
    await this.http.json({
      operation: 'list folder',
      token,
      url: this.url(`/folders/${pathSegment(id, 'list folder')}/children`, { limit: 1 }),
    });
  }
}

export class DriveApi extends DriveContainers implements ContentApi {
  async changes(
    token: string,
    container: string,
    position: ChangesPosition,
    limit: number,
  ): Promise<ChangesPage> {
    const cursor = 'page' in position ? position.page : position.cursor;
    const out = await this.http
      .json<Listing>({
        operation: 'folder changes',
        token,
        url: this.url(`/folders/${pathSegment(container, 'folder changes')}/changes`, { limit, cursor }),
      })
      .catch(refusedFeed('folder changes'));
    const files = out.entries
      .filter((e) => e.type !== 'folder')
      .map((e) => ({
        id: e.id,
        name: e.name,
        version: String(e.version ?? ''),
        ...(e.size !== undefined ? { size: e.size } : {}),
        ...(e.mime_type ? { contentType: e.mime_type } : {}),
        deleted: e.deleted === true,
      }));
    return { files, next: out.has_more ? { page: out.cursor! } : { cursor: out.cursor! } };
  }

  async download(token: string, fileId: string): Promise<Download> {
    const operation = 'download file';
    const response = await this.http.send({
      operation,
      token,
      url: this.url(`/files/${pathSegment(fileId, operation)}/content`),
      headers: { Accept: '*/*' },
    });
    return downloadOf(operation, response);
  }

  /** The children listing filtered by exact name (`name=`, the sandbox's own parameter). */
  async findFile(token: string, container: string, name: string): Promise<ProviderFile | undefined> {
    const out = await this.http.json<Listing>({
      operation: 'find file',
      token,
      url: this.url(`/folders/${pathSegment(container, 'find file')}/children`, { name, limit: 1 }),
    });
    // A folder of that name holds it too (an upload there is refused): the export takes another name.
    const found = out.entries[0];
    return found && { id: found.id, name: found.name, version: String(found.version ?? found.type) };
  }

  /**
   * PUT by name, conditional: `If-None-Match: *` creates only (412 when the name holds other bytes; the
   * same bytes again are the same upload retried and keep the file), `If-Match: "<version>"` replaces
   * only that version of our own export.
   */
  async upload(token: string, container: string, file: Upload): Promise<ProviderFile> {
    const problem = nameProblem(file.name);
    if (problem) throw new UploadRefusedError('invalid_name', problem);
    try {
      const out = await this.http.json<Entry>({
        operation: 'upload file',
        token,
        method: 'PUT',
        url: this.url(
          `/folders/${pathSegment(container, 'upload file')}/files/${pathSegment(file.name, 'upload file')}`,
        ),
        headers: {
          'Content-Type': file.contentType,
          ...(file.replace ? { 'If-Match': `"${file.replace.version}"` } : { 'If-None-Match': '*' }),
        },
        body: file.body,
        length: file.size,
      });
      return { id: out.id, name: out.name, version: String(out.version ?? '') };
    } catch (error) {
      if (error instanceof ProviderApiError && error.status === 412)
        throw file.replace
          ? new UploadRefusedError('changed', 'the file changed at the provider since it was checked')
          : new UploadRefusedError('name_taken', 'another file took the name since it was checked');
      throw error;
    }
  }
}

/** The client its module loads on first use. */
export const client: ProviderClient = { Content: DriveApi, Containers: DriveContainers };
