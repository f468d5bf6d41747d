// Clio Manage API v4 (https://docs.developers.clio.com/api-docs/clio-manage): JSON under /api/v4 on the
// region's host (app.clio.com, eu.app.clio.com, ca.app.clio.com, au.app.clio.com). Containers are
// matters; files are the matter's documents (in any of its folders). Index actions return
// `{data, meta: {paging: {next}}}` with cursor pagination (order id(asc), at most 200 a page; `next` is a
// URL whose `page_token` we keep); only the `fields` asked for come back.
//
// Changes. Clio has no change feed: a pass lists the matter's documents `updated_since` the previous
// pass began, with `include_deleted=true` so documents moved to the trash come back with `deleted_at`
// (Clio empties its trash after 30 days: a document trashed and purged between two passes is not
// reported). The cursor is that start time, taken from Clio's own clock (the Date header of the pass's
// first answer) less a minute, so a document changed while the pass ran is listed again next time
// rather than missed. A document's version is its latest DocumentVersion id; a document still being
// uploaded (fully_uploaded false) is left for a later pass.
//
// Download: GET /documents/{id}/download answers 303 to a pre-signed storage URL, followed without our
// token. Upload is Clio's three steps: create the document (POST /documents: a DocumentVersion with a
// `put_url` and `put_headers`), PUT the bytes there, PATCH the document `{uuid, fully_uploaded: true}`.
// The idempotency key rides along as an external property: a retried upload finds the document it made
// instead of making a second one. A document never replaces another: Clio lets two documents share a
// name, so this client refuses a name a live document of the matter holds (UploadRefusedError
// 'name_taken', found with the documents index's `query`) and does not replace (`replaces: false`): a
// new version of our own export is a new document, named by the export's conflict rule.
import * as z from 'zod/mini';
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
import { ProviderApiError, transportFor, apiUrl, readJson, streamBody } from '../../infra/content/http';
import type { ProviderClient } from '../module';
import { pageTokenCodec } from '../../infra/content/page-token';

/** Clio's largest page. */
export const CLIO_PAGE_MAX = 200;
/** A pass starts this long before Clio's clock said it did (documents changed meanwhile come again). */
export const CLIO_PASS_OVERLAP_MS = 60_000;
/** Clio empties its trash after 30 days: a feed from an older cursor may miss a deletion. */
const CLIO_TRASH_RETENTION_MS = 30 * 24 * 60 * 60_000;
/** The external property carrying an upload's idempotency key. */
export const CLIO_UPLOAD_KEY_PROPERTY = 'ces_upload_key';

const DOCUMENT_FIELDS =
  'id,name,updated_at,deleted_at,latest_document_version{id,size,content_type,fully_uploaded}';

interface DocumentVersion {
  id: number;
  uuid?: string;
  size?: number;
  content_type?: string;
  fully_uploaded?: boolean;
  put_url?: string;
  put_headers?: { name: string; value: string }[];
}

interface ClioDocument {
  id: number;
  name: string;
  updated_at?: string;
  deleted_at?: string | null;
  latest_document_version?: DocumentVersion | null;
}

interface ClioMatter {
  id: number;
  display_number?: string;
  description?: string;
  updated_at?: string;
}

interface Index<T> {
  data: T[];
  meta?: { paging?: { next?: string } };
}

/** Clio's error body `{"error": {"type", "message"}}`: the type is the code (never the message). */
export function readClioError(_status: number, body: unknown): ErrorReading {
  const type = (body as { error?: { type?: unknown } } | null)?.error?.type;
  return typeof type === 'string' ? { providerError: type } : {};
}

/** The page_token of a `meta.paging.next` URL (the rest of that URL is our own query again). */
function nextToken<T>(index: Index<T>): string | undefined {
  const next = index.meta?.paging?.next;
  if (!next) return undefined;
  try {
    return new URL(next).searchParams.get('page_token') ?? undefined;
  } catch {
    return undefined;
  }
}

/** A position within a pass: Clio's page token, the pass's `updated_since`, and when the pass began. */
const passToken = pageTokenCodec(z.object({ t: z.string(), s: z.optional(z.string()), b: z.string() }));

const numericId = (id: string, operation: string): number => {
  if (!/^[1-9]\d{0,17}$/.test(id))
    throw new ProviderApiError(operation, 404, undefined, undefined, 'not_found');
  return Number(id);
};

const matterName = (m: ClioMatter) =>
  [m.display_number, m.description].filter((part) => part && part.trim()).join(' ') || `Matter ${m.id}`;

/** What a route calls (ContainerApi): the part of the client a route's bundle holds. */
export class ClioContainers implements ContainerApi {
  /** @param base the region's host, e.g. https://app.clio.com (paths /api/v4/...) */
  protected readonly base: string;
  protected readonly http: Transport;

  constructor(settings: ClientSettings) {
    this.base = settings.apiUrl;
    this.http = transportFor(settings);
  }

  protected url(path: string, query: Record<string, string | number | undefined> = {}): string {
    return apiUrl(this.base, `/api/v4${path}`, query);
  }

  protected get<T>(
    operation: string,
    token: string,
    path: string,
    query: Record<string, string | number | undefined>,
  ) {
    return this.http.json<T>({ operation, token, url: this.url(path, query), readError: readClioError });
  }

  async browse(token: string, parent: string | undefined, page: { token?: string; limit: number }) {
    const limit = Math.min(page.limit, CLIO_PAGE_MAX);
    if (!parent) {
      const out = await this.get<Index<ClioMatter>>('list matters', token, '/matters.json', {
        fields: 'id,display_number,description,updated_at',
        order: 'id(asc)',
        limit,
        page_token: page.token,
      });
      return {
        entries: out.data.map((m): SourceEntry => ({
          id: String(m.id),
          name: matterName(m),
          kind: 'container',
          ...(m.updated_at ? { updatedAt: m.updated_at } : {}),
        })),
        next: nextToken(out),
      };
    }
    const out = await this.get<Index<ClioDocument>>('list documents', token, '/documents.json', {
      matter_id: numericId(parent, 'list documents'),
      fields: DOCUMENT_FIELDS,
      order: 'id(asc)',
      limit,
      page_token: page.token,
    });
    return {
      entries: out.data.flatMap((d): SourceEntry[] => {
        const version = d.latest_document_version;
        if (!version?.fully_uploaded) return [];
        return [
          {
            id: String(d.id),
            name: d.name,
            kind: 'file',
            version: String(version.id),
            ...(version.size !== undefined ? { size: version.size } : {}),
            ...(version.content_type ? { contentType: version.content_type } : {}),
            ...(d.updated_at ? { updatedAt: d.updated_at } : {}),
          },
        ];
      }),
      next: nextToken(out),
    };
  }

  async checkContainer(token: string, id: string): Promise<void> {
    await this.get('show matter', token, `/matters/${numericId(id, 'show matter')}.json`, { fields: 'id' });
  }

  readonly replaces = false;
}

export class ClioApi extends ClioContainers implements ContentApi {
  async changes(
    token: string,
    container: string,
    position: ChangesPosition,
    limit: number,
  ): Promise<ChangesPage> {
    const matter = numericId(container, 'document changes');
    const pass: Partial<ReturnType<typeof passToken.decode>> =
      'page' in position
        ? passToken.decode(position.page, 'document changes')
        : { s: position.cursor || undefined };
    const response = await this.http.send({
      operation: 'document changes',
      token,
      url: this.url('/documents.json', {
        matter_id: matter,
        fields: DOCUMENT_FIELDS,
        order: 'id(asc)',
        limit: Math.min(limit, CLIO_PAGE_MAX),
        ...(pass.s ? { updated_since: pass.s, include_deleted: 'true' } : {}),
        page_token: pass.t,
      }),
      readError: readClioError,
    });
    // The pass begins at Clio's clock of its first answer, less the overlap.
    const clioNow = Date.parse(response.headers.get('date') ?? '') || this.http.now();
    const began = pass.b ?? new Date(clioNow - CLIO_PASS_OVERLAP_MS).toISOString();
    // A pass from a cursor older than Clio keeps trashed documents: one trashed and purged since is in
    // no listing, so the overlap with the last pass is lost and only a pass from the start can tell.
    if (pass.s && !pass.t && clioNow - Date.parse(pass.s) > CLIO_TRASH_RETENTION_MS) {
      response.body?.cancel().catch(() => undefined);
      throw new FeedRestartError('document changes', 'cursor_older_than_trash_retention');
    }
    const out = await readJson<Index<ClioDocument>>('document changes', response);
    const files: ChangedFile[] = [];
    for (const d of out.data) {
      const version = d.latest_document_version;
      if (d.deleted_at) files.push({ id: String(d.id), name: d.name, version: '', deleted: true });
      else if (version?.fully_uploaded)
        files.push({
          id: String(d.id),
          name: d.name,
          version: String(version.id),
          ...(version.size !== undefined ? { size: version.size } : {}),
          ...(version.content_type ? { contentType: version.content_type } : {}),
          deleted: false,
        });
    }
    const next = nextToken(out);
    return {
      files,
      next: next
        ? { page: passToken.encode({ t: next, b: began, ...(pass.s ? { s: pass.s } : {}) }) }
        : { cursor: began },
    };
  }

  async download(token: string, fileId: string): Promise<Download> {
    const operation = 'download document';
    const response = await this.http.send({
      operation,
      token,
      url: this.url(`/documents/${numericId(fileId, operation)}/download.json`),
      headers: { Accept: '*/*' },
      followRedirects: true,
      readError: readClioError,
    });
    const length = Number(response.headers.get('content-length'));
    return {
      body: streamBody(operation, response),
      contentType: response.headers.get('content-type') ?? 'application/octet-stream',
      ...(response.headers.has('content-length') && Number.isFinite(length) ? { size: length } : {}),
    };
  }

  /** The matter's live, fully uploaded document of exactly that name (Clio's `query` finds candidates). */
  async findFile(token: string, container: string, name: string): Promise<ProviderFile | undefined> {
    const out = await this.get<Index<ClioDocument>>('find document', token, '/documents.json', {
      matter_id: numericId(container, 'find document'),
      query: name,
      fields: 'id,name,latest_document_version{id,fully_uploaded}',
      limit: CLIO_PAGE_MAX,
    });
    const found = out.data.find((d) => d.name === name && d.latest_document_version?.fully_uploaded);
    return (
      found && { id: String(found.id), name: found.name, version: String(found.latest_document_version!.id) }
    );
  }

  async upload(token: string, container: string, file: Upload): Promise<ProviderFile> {
    const problem = nameProblem(file.name);
    if (problem) throw new UploadRefusedError('invalid_name', problem);
    if (file.replace)
      throw new UploadRefusedError('changed', 'Clio documents are not replaced: a new one is made');
    const matter = numericId(container, 'upload document');
    const earlier = await this.get<Index<ClioDocument>>('find upload', token, '/documents.json', {
      matter_id: matter,
      external_property_name: CLIO_UPLOAD_KEY_PROPERTY,
      external_property_value: file.idempotencyKey,
      fields: 'id,latest_document_version{id,fully_uploaded}',
      limit: 1,
    });
    const done = earlier.data.find((d) => d.latest_document_version?.fully_uploaded);
    if (done)
      return { id: String(done.id), name: file.name, version: String(done.latest_document_version!.id) };
    if (await this.findFile(token, container, file.name))
      throw new UploadRefusedError('name_taken', 'another document of the matter has the name');

    const created = await this.write<ClioDocument>('create document', token, 'POST', '/documents.json', {
      fields: 'id,latest_document_version{uuid,put_url,put_headers}',
      data: {
        name: file.name,
        parent: { id: matter, type: 'Matter' },
        external_properties: [{ name: CLIO_UPLOAD_KEY_PROPERTY, value: file.idempotencyKey }],
      },
    });
    const version = created.latest_document_version;
    if (!version?.uuid || !version.put_url)
      throw new ProviderApiError('create document', 200, undefined, undefined, 'no_put_url');
    await this.putContent(version, file.body, file.size);
    const finished = await this.write<ClioDocument>(
      'finish document',
      token,
      'PATCH',
      `/documents/${created.id}.json`,
      {
        fields: 'id,latest_document_version{id,fully_uploaded}',
        data: { uuid: version.uuid, fully_uploaded: true },
      },
    );
    if (!finished.latest_document_version?.fully_uploaded)
      throw new ProviderApiError('finish document', 200, undefined, undefined, 'not_fully_uploaded');
    return { id: String(finished.id), name: file.name, version: String(finished.latest_document_version.id) };
  }

  private async write<T>(
    operation: string,
    token: string,
    method: 'POST' | 'PATCH',
    path: string,
    body: { fields: string; data: unknown },
  ): Promise<T> {
    const out = await this.http.json<{ data: T }>({
      operation,
      token,
      method,
      url: this.url(path, { fields: body.fields }),
      headers: { 'Content-Type': 'application/json' },
      body: Buffer.from(JSON.stringify({ data: body.data })),
      readError: readClioError,
    });
    return out.data;
  }

  /** The bytes to the pre-signed URL, with the headers Clio signed into it (and never our token). */
  private async putContent(version: DocumentVersion, body: Readable, size: number): Promise<void> {
    const headers: Record<string, string> = {};
    for (const { name, value } of version.put_headers ?? []) {
      if (/^(authorization|host|content-length|cookie)$/i.test(name) || !/^[\w-]{1,64}$/.test(name)) continue;
      headers[name] = value;
    }
    // The transport vets the URL (https when the API is, a public address) and sends no token there.
    await this.http.send({
      operation: 'upload content',
      token: '',
      anonymous: true,
      method: 'PUT',
      url: version.put_url!,
      headers: { Accept: '*/*', ...headers },
      body,
      length: size,
    });
  }
}

/** The client its module loads on first use. */
export const client: ProviderClient = { Content: ClioApi, Containers: ClioContainers };
