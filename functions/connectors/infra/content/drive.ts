// The file-storage provider's content API (Dropbox-like: `entries` + `cursor` + `has_more`, a recursive
// changes feed per folder, uploads idempotent by name: the same name overwrites, identical bytes keep
// the version). Containers are folders (`root` is the top); files are files at any depth.
import type { ChangesPage, ChangesPosition, ContentApi, Download, SourceEntry, Upload } from './api';
import { apiUrl, send, sendJson } from './http';
import { downloadOf } from './practice';

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

export class DriveApi implements ContentApi {
  constructor(private readonly base: string) {}

  private url(path: string, query: Record<string, string | number | undefined> = {}): string {
    return apiUrl(this.base, path, query);
  }

  async browse(token: string, parent: string | undefined, page: { token?: string; limit: number }) {
    const out = await sendJson<Listing>({
      operation: 'list folder',
      token,
      url: this.url(`/folders/${encodeURIComponent(parent ?? 'root')}/children`, {
        limit: page.limit,
        cursor: page.token,
      }),
    });
    return { entries: out.entries.map(entry), next: out.has_more && out.cursor ? out.cursor : undefined };
  }

  async checkContainer(token: string, id: string): Promise<void> {
    await sendJson({
      operation: 'list folder',
      token,
      url: this.url(`/folders/${encodeURIComponent(id)}/children`, { limit: 1 }),
    });
  }

  async changes(
    token: string,
    container: string,
    position: ChangesPosition,
    limit: number,
  ): Promise<ChangesPage> {
    const cursor = 'page' in position ? position.page : position.cursor;
    const out = await sendJson<Listing>({
      operation: 'folder changes',
      token,
      url: this.url(`/folders/${encodeURIComponent(container)}/changes`, { limit, cursor }),
    });
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
    const response = await send({
      operation,
      token,
      url: this.url(`/files/${encodeURIComponent(fileId)}/content`),
      headers: { Accept: '*/*' },
    });
    return downloadOf(operation, response);
  }

  /** Idempotent by name: a retried upload overwrites the same file (identical bytes keep its version). */
  async upload(token: string, container: string, file: Upload): Promise<{ id: string; version: string }> {
    const out = await sendJson<Entry>({
      operation: 'upload file',
      token,
      method: 'PUT',
      url: this.url(`/folders/${encodeURIComponent(container)}/files/${encodeURIComponent(file.name)}`),
      headers: { 'Content-Type': file.contentType },
      body: file.body,
      length: file.size,
    });
    return { id: out.id, version: String(out.version ?? '') };
  }
}
