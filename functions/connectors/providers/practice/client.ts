// The practice-management provider's content API (Clio-like: `data` + `next_page_token` pages, a
// per-matter document delta with a `sync_token`, uploads made idempotent by an Idempotency-Key).
// Containers are matters; files are their documents.
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

interface Matter {
  id: string;
  name: string;
  updated_at?: string;
}

interface Document {
  id: string;
  name: string;
  content_type?: string;
  size?: number;
  version: number | string;
  updated_at?: string;
  deleted?: boolean;
}

interface Listing<T> {
  data: T[];
  next_page_token?: string | null;
}

const document = (d: Document): SourceEntry => ({
  id: d.id,
  name: d.name,
  kind: 'file',
  size: d.size,
  version: String(d.version),
  contentType: d.content_type,
  updatedAt: d.updated_at,
});

/** What a route calls (ContainerApi): the part of the client a route's bundle holds. */
export class PracticeContainers implements ContainerApi {
  /** @param base the API root, e.g. https://api.provider.example/api/v1 */
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
    const query = { limit: page.limit, page_token: page.token };
    if (!parent) {
      const out = await this.http.json<Listing<Matter>>({
        operation: 'list matters',
        token,
        url: this.url('/matters', query),
      });
      return {
        entries: out.data.map((m): SourceEntry => ({
          id: m.id,
          name: m.name,
          kind: 'container',
          updatedAt: m.updated_at,
        })),
        next: out.next_page_token ?? undefined,
      };
    }
    const out = await this.http.json<Listing<Document>>({
      operation: 'list documents',
      token,
      url: this.url(`/matters/${pathSegment(parent, 'list documents')}/documents`, query),
    });
    return { entries: out.data.map(document), next: out.next_page_token ?? undefined };
  }

  async checkContainer(token: string, id: string): Promise<void> {
    await this.http.json({
      operation: 'list documents',
      token,
      url: this.url(`/matters/${pathSegment(id, 'list documents')}/documents`, { limit: 1 }),
    });
  }
}

export class PracticeApi extends PracticeContainers implements ContentApi {
  async changes(
    token: string,
    container: string,
    position: ChangesPosition,
    limit: number,
  ): Promise<ChangesPage> {
    const out = await this.http
      .json<Listing<Document> & { sync_token?: string | null }>({
        operation: 'document delta',
        token,
        url: this.url(`/matters/${pathSegment(container, 'document delta')}/documents/delta`, {
          limit,
          ...('page' in position ? { page_token: position.page } : { since: position.cursor }),
        }),
      })
      .catch(refusedFeed('document delta'));
    const files = out.data.map((d) => ({
      id: d.id,
      name: d.name,
      version: String(d.version),
      ...(d.size !== undefined ? { size: d.size } : {}),
      ...(d.content_type ? { contentType: d.content_type } : {}),
      deleted: d.deleted === true,
    }));
    if (out.next_page_token) return { files, next: { page: out.next_page_token } };
    if (!out.sync_token)
      throw new ProviderApiError('document delta', 200, undefined, undefined, 'no_sync_token');
    return { files, next: { cursor: out.sync_token } };
  }

  async download(token: string, fileId: string): Promise<Download> {
    const operation = 'download document';
    const response = await this.http.send({
      operation,
      token,
      url: this.url(`/documents/${pathSegment(fileId, operation)}/content`),
      headers: { Accept: '*/*' },
    });
    return downloadOf(operation, response);
  }

  /** The matter's documents filtered by exact name (`name=`, the sandbox's own parameter). */
  async findFile(token: string, container: string, name: string): Promise<ProviderFile | undefined> {
    const out = await this.http.json<Listing<Document>>({
      operation: 'find document',
      token,
      url: this.url(`/matters/${pathSegment(container, 'find document')}/documents`, { name, limit: 1 }),
    });
    const found = out.data[0];
    return found && { id: found.id, name: found.name, version: String(found.version) };
  }

  /**
   * POST with the name in the query, conditional as the drive's PUT is: `If-None-Match: *` refuses (412)
   * a name held by another document, `If-Match: "<version>"` makes a new version of that one only.
   */
  async upload(token: string, container: string, file: Upload): Promise<ProviderFile> {
    const problem = nameProblem(file.name);
    if (problem) throw new UploadRefusedError('invalid_name', problem);
    try {
      const out = await this.http.json<Document>({
        operation: 'upload document',
        token,
        method: 'POST',
        url: this.url(`/matters/${pathSegment(container, 'upload document')}/documents`, { name: file.name }),
        headers: {
          'Content-Type': file.contentType,
          'Idempotency-Key': file.idempotencyKey,
          ...(file.replace ? { 'If-Match': `"${file.replace.version}"` } : { 'If-None-Match': '*' }),
        },
        body: file.body,
        length: file.size,
      });
      return { id: out.id, name: out.name, version: String(out.version) };
    } catch (error) {
      if (error instanceof ProviderApiError && error.status === 412)
        throw file.replace
          ? new UploadRefusedError('changed', 'the document changed at the provider since it was checked')
          : new UploadRefusedError('name_taken', 'another document took the name since it was checked');
      throw error;
    }
  }
}

/** The client its module loads on first use. */
export const client: ProviderClient = { Content: PracticeApi, Containers: PracticeContainers };
