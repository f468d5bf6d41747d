// iManage Work REST API v2, on the connection's server (API_URL https://{server}, the `server` param
// resolved): discovery at /api (the user's customer id and libraries), the documents under
// /work/api/v2/customers/{customerId}/libraries/{libraryId}/... The server is the API's one origin: our
// access token goes there (in X-Auth-Token, the definition's accessTokenHeader) and nowhere else, and no URL iManage answers (its discovery's `versions[].url`, a
// profile's `document_url`) is ever followed.
//
// The customer id is read from discovery once per server and token in a container, for at most
// DISCOVERY_KEPT_MS (a step's client, and the next steps of a run, reuse it: each step paid a round trip
// to the server for it before). It is iManage's fact about the server and the user, not ours to keep:
// it lives in memory only, under a digest of the token, so no stored cursor can go stale when a
// customer moves, and a new token (every refresh) reads it again. The library is in every id iManage gives (`ACTIVE!123`), so each
// request takes it from the id it is about.
//
// Ids. Libraries by alias (`ACTIVE`); workspaces and folders `LIB!<number>` (a workspace is the top
// folder of a matter, and the folder endpoints take it); documents `LIB!<number>.<version>`, kept here
// as `LIB!<number>` with the version number as the file's version (a new version is a change of the same
// document). An id of any other form never reaches a URL (a 404, as a missing one would be).
// - browse: the top is the workspaces (matters) of the user's libraries, library after library; a
//   workspace or folder lists its subfolders, then its documents (offset paging). A link's container is
//   a workspace or a folder.
// - changes: a first pass walks the container's folders (each folder's subfolders, then its documents);
//   later passes search the container and its subfolders for documents edited since the last pass
//   began (edit_date_from). A pass begins at iManage's clock (the Date of its first answer) less
//   PASS_OVERLAP_MS, so a document edited while it ran is listed again rather than missed. The search is
//   ordered by document number, so an edit does not move a document within it; a page whose total_count
//   differs from the pass's first (a document came or left meanwhile) lists the search again from its
//   start. iManage's search does not list deleted documents, nor a restored one (it keeps its
//   edit_date), nor documents whose folder moved (their profiles are not edited): those wait for the
//   reconcile (docs/providers.md).
// - download: the latest version's bytes, GET documents/{id}/download.
// - upload: multipart (`profile` {doc_profile} then `file`) to folders/{id}/documents (a new document)
//   or documents/{id}/versions (a new version of our own export, its version checked just before:
//   iManage takes no precondition). iManage lets two documents share a name: the client refuses a name a
//   document of the folder holds (UploadRefusedError 'name_taken'). The upload's idempotency key rides in
//   the profile's comment, so an upload retried after a lost answer finds the document it made.
//   Throttling is 429 with Retry-After (the transport reads it).
import * as z from 'zod/mini';
import { createHash, randomBytes } from 'node:crypto';
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
import type { ClientSettings, ErrorReading, Transport } from '../../infra/content/http';
import { ProviderApiError, apiUrl, readJson, transportFor } from '../../infra/content/http';
import { pageTokenCodec } from '../../infra/content/page-token';
import { downloadOf } from '../../infra/content/responses';
import type { ProviderClient } from '../module';

/** The largest page iManage answers. */
export const IMANAGE_PAGE_MAX = 500;
/** A pass starts this long before iManage's clock said it did (documents edited meanwhile come again). */
export const PASS_OVERLAP_MS = 60_000;
/** A search pass that sees its total change this often goes on rather than start over again. */
const SEARCH_RESTARTS_MAX = 3;
/** The comment that marks an upload as ours: the upload's idempotency key after it. */
export const UPLOAD_COMMENT_PREFIX = 'ces-upload:';

const LIBRARY = /^[A-Za-z0-9_]{1,32}$/;
const CONTAINER = /^([A-Za-z0-9_]{1,32})!(\d{1,15})$/;
const DOCUMENT = /^([A-Za-z0-9_]{1,32})!(\d{1,15})\.(\d{1,9})$/;

interface Discovery {
  data?: {
    user?: { customer_id?: unknown };
    work?: { libraries?: { alias?: unknown }[]; preferred_library?: unknown };
  };
}

export interface DocumentProfile {
  id: string;
  name?: string;
  extension?: string;
  full_file_name?: string;
  version?: number;
  size?: number;
  edit_date?: string;
  comment?: string;
  content_type?: string;
}

interface FolderProfile {
  id: string;
  name?: string;
  wstype?: string;
}

interface List<T> {
  data: T[];
  total_count?: number;
}

/** iManage's error body `{error: {code, message}}`: the code (never the message). */
export function readImanageError(_status: number, body: unknown): ErrorReading {
  const code = (body as { error?: { code?: unknown } } | null)?.error?.code;
  return typeof code === 'string' ? { providerError: code } : {};
}

const refused = (operation: string, status: number, reason: string) =>
  new ProviderApiError(operation, status, undefined, undefined, reason);

/** A workspace, folder or document id as this client names it (`LIB!<number>`): its library; anything else a 404. */
export function workId(id: string, operation: string): { library: string; id: string } {
  const found = CONTAINER.exec(id);
  if (!found) throw refused(operation, 404, 'invalid_id');
  return { library: found[1]!, id };
}

/** A profile iManage answered, as a file: undefined when its id is none iManage makes. */
export function fileOf(profile: DocumentProfile): ChangedFile | undefined {
  const found = DOCUMENT.exec(profile.id ?? '');
  if (!found || !Number.isSafeInteger(profile.version)) return undefined;
  const name =
    profile.full_file_name ??
    (profile.extension ? `${profile.name ?? ''}.${profile.extension}` : (profile.name ?? ''));
  return {
    id: `${found[1]}!${found[2]}`,
    name,
    version: String(profile.version),
    ...(Number.isSafeInteger(profile.size) ? { size: profile.size } : {}),
    ...(profile.content_type ? { contentType: profile.content_type } : {}),
    deleted: false,
  };
}

/** `Report.final.pdf` -> `Report.final` and `pdf`, as iManage keeps a name and its extension apart. */
export function nameParts(full: string): { name: string; extension: string } {
  const dot = full.lastIndexOf('.');
  return dot > 0 && dot < full.length - 1
    ? { name: full.slice(0, dot), extension: full.slice(dot + 1) }
    : { name: full, extension: '' };
}

const offset = z.number().check(z.int(), z.gte(0), z.lte(1_000_000_000));
const folderRef = z.string().check(z.regex(CONTAINER));
const libraryRef = z.string().check(z.regex(LIBRARY));
const instant = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/));

/** A browse page: what it lists (a library's workspaces, a folder's subfolders or documents) from where. */
export const browseToken = pageTokenCodec(
  z.object({ c: z.union([folderRef, libraryRef]), p: z.enum(['w', 'f', 'd']), o: offset }),
);

/**
 * A position within a pass: a first pass's walk (the folders still to list, the first from offset `o`,
 * its subfolders `f` or documents `d`), or a search from `s` at offset `o` that saw `t` documents in all
 * (`r` restarts so far). `b`: when the pass began, by iManage's clock.
 */
export const passToken = pageTokenCodec(
  z.union([
    z.object({
      k: z.literal('walk'),
      q: z.array(folderRef).check(z.minLength(1), z.maxLength(5_000)),
      p: z.enum(['f', 'd']),
      o: offset,
      b: instant,
    }),
    z.object({
      k: z.literal('search'),
      s: instant,
      o: offset,
      t: offset,
      r: z.number().check(z.int(), z.gte(0), z.lte(SEARCH_RESTARTS_MAX)),
      b: instant,
    }),
  ]),
);
type Pass = ReturnType<typeof passToken.decode>;

/** The cursor a complete pass leaves: the next one searches from `s`. */
export const cursorToken = pageTokenCodec(z.object({ s: instant }));

type Discovered = { customer: string; libraries: string[] };

/** How long a discovery answer serves a server and token in this container. */
export const DISCOVERY_KEPT_MS = 5 * 60_000;
/** At most this many answers are kept (the oldest read goes first). */
const DISCOVERIES_KEPT = 500;
const discoveries = new Map<string, { at: number; found: Promise<Discovered> }>();

/** What a route calls (ContainerApi): the part of the client a route's bundle holds. */
export class ImanageContainers implements ContainerApi {
  readonly replaces = true;
  protected readonly base: string;
  protected readonly http: Transport;

  constructor(settings: ClientSettings) {
    this.base = settings.apiUrl.replace(/\/$/, '');
    this.http = transportFor(settings);
  }

  /** The user's customer id and libraries, from discovery (once per server and token, for a while). */
  protected discovery(token: string): Promise<Discovered> {
    const key = `${this.base} ${createHash('sha256').update(token).digest('base64url')}`;
    const now = performance.now();
    const kept = discoveries.get(key);
    if (kept && now - kept.at < DISCOVERY_KEPT_MS) return kept.found;
    const found = this.http
      .json<Discovery>({
        operation: 'discovery',
        token,
        url: `${this.base}/api`,
        readError: readImanageError,
      })
      .then((out) => {
        const customer = String(out.data?.user?.customer_id ?? '');
        if (!/^\d{1,15}$/.test(customer)) throw refused('discovery', 200, 'no_customer_id');
        const libraries = (out.data?.work?.libraries ?? [])
          .map((library) => library.alias)
          .filter((alias): alias is string => typeof alias === 'string' && LIBRARY.test(alias));
        return { customer, libraries };
      });
    found.catch(() => {
      if (discoveries.get(key)?.found === found) discoveries.delete(key);
    });
    discoveries.delete(key); // re-inserted last: the map's order is the order of reading
    discoveries.set(key, { at: now, found });
    if (discoveries.size > DISCOVERIES_KEPT) discoveries.delete(discoveries.keys().next().value!);
    return found;
  }

  /** A URL under the library: /work/api/v2/customers/{customer}/libraries/{library}{path}. */
  protected async url(
    token: string,
    library: string,
    path: string,
    query: Record<string, string | number | undefined> = {},
  ): Promise<string> {
    const { customer } = await this.discovery(token);
    return apiUrl(
      this.base,
      `/work/api/v2/customers/${customer}/libraries/${encodeURIComponent(library)}${path}`,
      query,
    );
  }

  protected async get<T>(
    operation: string,
    token: string,
    library: string,
    path: string,
    query: Record<string, string | number | undefined> = {},
  ): Promise<T> {
    const url = await this.url(token, library, path, query);
    return this.http.json<T>({ operation, token, url, readError: readImanageError });
  }

  async browse(token: string, parent: string | undefined, page: { token?: string; limit: number }) {
    const limit = Math.min(Math.max(page.limit, 1), IMANAGE_PAGE_MAX);
    if (parent === undefined) return this.workspaces(token, page.token, limit);
    const at = page.token ? browseToken.decode(page.token, 'browse') : { c: parent, p: 'f' as const, o: 0 };
    if (at.c !== parent || at.p === 'w') throw refused('browse', 400, 'invalid_page_token');
    const folder = workId(parent, 'list folder');
    if (at.p === 'f') {
      const out = await this.get<List<FolderProfile>>(
        'list folder',
        token,
        folder.library,
        `/folders/${folder.id}/children`,
        { offset: at.o, limit },
      );
      const next = at.o + out.data.length;
      const more = out.data.length > 0 && next < (out.total_count ?? 0);
      return {
        entries: out.data.flatMap((f): SourceEntry[] =>
          CONTAINER.test(f.id) ? [{ id: f.id, name: f.name ?? f.id, kind: 'container' }] : [],
        ),
        next: browseToken.encode({ c: parent, p: more ? 'f' : 'd', o: more ? next : 0 }),
      };
    }
    const out = await this.documents(token, 'list folder', folder, at.o, limit);
    const next = at.o + out.data.length;
    return {
      entries: out.data.flatMap((profile): SourceEntry[] => {
        const file = fileOf(profile);
        if (!file) return [];
        return [
          {
            id: file.id,
            name: file.name,
            kind: 'file',
            version: file.version,
            ...(file.size !== undefined ? { size: file.size } : {}),
            ...(profile.edit_date ? { updatedAt: profile.edit_date } : {}),
          },
        ];
      }),
      ...(out.data.length && next < (out.total_count ?? 0)
        ? { next: browseToken.encode({ c: parent, p: 'd', o: next }) }
        : {}),
    };
  }

  /** The top: every library's workspaces (the matters), library after library, a page at a time. */
  private async workspaces(token: string, pageToken: string | undefined, limit: number) {
    const { libraries } = await this.discovery(token);
    const at = pageToken
      ? browseToken.decode(pageToken, 'browse')
      : { c: libraries[0], p: 'w' as const, o: 0 };
    if (at.c === undefined) return { entries: [] };
    if (at.p !== 'w' || !libraries.includes(at.c)) throw refused('browse', 400, 'invalid_page_token');
    const out = await this.get<List<FolderProfile>>('list workspaces', token, at.c, '/workspaces', {
      offset: at.o,
      limit,
    });
    const entries = out.data.flatMap((w): SourceEntry[] =>
      CONTAINER.test(w.id) ? [{ id: w.id, name: w.name ?? w.id, kind: 'container' }] : [],
    );
    const next = at.o + out.data.length;
    const following = libraries[libraries.indexOf(at.c) + 1];
    const more =
      out.data.length && next < (out.total_count ?? 0)
        ? { c: at.c, p: 'w' as const, o: next }
        : following
          ? { c: following, p: 'w' as const, o: 0 }
          : undefined;
    return { entries, ...(more ? { next: browseToken.encode(more) } : {}) };
  }

  protected documents(
    token: string,
    operation: string,
    folder: { library: string; id: string },
    from: number,
    limit: number,
  ) {
    return this.get<List<DocumentProfile>>(
      operation,
      token,
      folder.library,
      `/folders/${folder.id}/documents`,
      {
        offset: from,
        limit,
      },
    );
  }

  async checkContainer(token: string, id: string): Promise<void> {
    const folder = workId(id, 'get folder');
    const out = await this.get<{ data?: FolderProfile }>(
      'get folder',
      token,
      folder.library,
      `/folders/${id}`,
    );
    if (out.data?.id !== id) throw refused('get folder', 404, 'not_a_folder');
  }
}

export class ImanageApi extends ImanageContainers implements ContentApi {
  async changes(
    token: string,
    container: string,
    position: ChangesPosition,
    limit: number,
  ): Promise<ChangesPage> {
    const operation = 'document changes';
    const folder = workId(container, operation);
    const size = Math.min(Math.max(limit, 1), IMANAGE_PAGE_MAX);
    let pass: Pass | undefined;
    if ('page' in position) pass = passToken.decode(position.page, operation);
    else if (position.cursor) {
      let since: string;
      try {
        since = cursorToken.decode(position.cursor, operation).s;
      } catch {
        throw new FeedRestartError(operation, 'not_an_edit_date_cursor');
      }
      return this.search(token, folder, { k: 'search', s: since, o: 0, t: 0, r: 0, b: '' }, size);
    }
    if (!pass) return this.walk(token, folder, { k: 'walk', q: [container], p: 'f', o: 0, b: '' }, size);
    return pass.k === 'walk' ? this.walk(token, folder, pass, size) : this.search(token, folder, pass, size);
  }

  /** An answer's JSON, and when the pass began if this is its first answer (iManage's clock, less the overlap). */
  private async page<T>(operation: string, token: string, url: string, began: string) {
    const response = await this.http.send({ operation, token, url, readError: readImanageError });
    const clock = Date.parse(response.headers.get('date') ?? '');
    // Without iManage's clock the next pass searches from the start: longer, never short of a change.
    const start =
      began || new Date(Number.isFinite(clock) ? Math.max(clock - PASS_OVERLAP_MS, 0) : 0).toISOString();
    return { out: await readJson<List<T>>(operation, response), began: start };
  }

  /** One page of a first pass: the queue's first folder's subfolders (which join the queue), then its documents. */
  private async walk(
    token: string,
    container: { library: string; id: string },
    pass: Pass & { k: 'walk' },
    size: number,
  ): Promise<ChangesPage> {
    const operation = 'document changes';
    const [first, ...rest] = pass.q;
    const folder = workId(first!, operation);
    const path = `/folders/${folder.id}/${pass.p === 'f' ? 'children' : 'documents'}`;
    let answer: { out: List<FolderProfile & DocumentProfile>; began: string };
    try {
      answer = await this.page(
        operation,
        token,
        await this.url(token, folder.library, path, { offset: pass.o, limit: size }),
        pass.b,
      );
    } catch (error) {
      // A subfolder gone since it was queued: its documents are gone too (the reconcile marks them).
      if (first !== container.id && error instanceof ProviderApiError && error.status === 404)
        return this.walked(rest, [], pass.b);
      throw error;
    }
    const { out, began } = answer;
    const next = pass.o + out.data.length;
    const more = out.data.length > 0 && next < (out.total_count ?? 0);
    if (pass.p === 'f') {
      const queue = [...rest, ...out.data.map((f) => f.id).filter((id) => CONTAINER.test(id))];
      return {
        files: [],
        next: {
          page: passToken.encode(
            more
              ? { k: 'walk', q: [first!, ...queue], p: 'f', o: next, b: began }
              : { k: 'walk', q: [first!, ...queue], p: 'd', o: 0, b: began },
          ),
        },
      };
    }
    const files = out.data.map(fileOf).filter((f): f is ChangedFile => f !== undefined);
    if (more) return { files, next: { page: passToken.encode({ ...pass, o: next, b: began }) } };
    return this.walked(rest, files, began);
  }

  private walked(queue: string[], files: ChangedFile[], began: string): ChangesPage {
    if (queue.length)
      return { files, next: { page: passToken.encode({ k: 'walk', q: queue, p: 'f', o: 0, b: began }) } };
    return { files, next: { cursor: cursorToken.encode({ s: began }) } };
  }

  /** One page of the search for documents in the container (and below) edited since `s`. */
  private async search(
    token: string,
    container: { library: string; id: string },
    pass: Pass & { k: 'search' },
    size: number,
  ): Promise<ChangesPage> {
    const operation = 'document changes';
    const { out, began } = await this.page<DocumentProfile>(
      operation,
      token,
      await this.url(token, container.library, '/documents', {
        container_id: container.id,
        edit_date_from: pass.s,
        offset: pass.o,
        limit: size,
      }),
      pass.b,
    );
    const total = out.total_count ?? 0;
    if (pass.o > 0 && total !== pass.t && pass.r < SEARCH_RESTARTS_MAX)
      // Documents came or left since the pass's first page: the offsets moved, so list from the start.
      return {
        files: [],
        next: { page: passToken.encode({ ...pass, o: 0, t: total, r: pass.r + 1, b: began }) },
      };
    const files = out.data.map(fileOf).filter((f): f is ChangedFile => f !== undefined);
    const next = pass.o + out.data.length;
    if (out.data.length > 0 && next < total)
      return { files, next: { page: passToken.encode({ ...pass, o: next, t: total, b: began }) } };
    return { files, next: { cursor: cursorToken.encode({ s: began }) } };
  }

  async download(token: string, fileId: string, listed?: ChangedFile): Promise<Download> {
    const operation = 'download document';
    const document = workId(fileId, operation);
    let version = listed?.version;
    if (!listed) {
      const out = await this.get<{ data?: DocumentProfile }>(
        operation,
        token,
        document.library,
        `/documents/${document.id}`,
      );
      const file = out.data && fileOf(out.data);
      if (file?.id !== document.id) throw refused(operation, 404, 'not_a_document');
      version = file.version;
    }
    const response = await this.http.send({
      operation,
      token,
      url: await this.url(token, document.library, `/documents/${document.id}/download`),
      headers: { Accept: '*/*' },
      readError: readImanageError,
    });
    const { version: _etag, ...download } = downloadOf(operation, response);
    return { ...download, ...(version ? { version } : {}) };
  }

  /** The documents of the folder named exactly `name`, with their profiles. */
  private async named(token: string, container: string, name: string): Promise<DocumentProfile[]> {
    const folder = workId(container, 'find document');
    const found: DocumentProfile[] = [];
    for (let at = 0; ;) {
      const out = await this.documents(token, 'find document', folder, at, IMANAGE_PAGE_MAX);
      found.push(...out.data.filter((profile) => fileOf(profile)?.name === name));
      at += out.data.length;
      if (!out.data.length || at >= (out.total_count ?? 0)) return found;
    }
  }

  async findFile(token: string, container: string, name: string): Promise<ProviderFile | undefined> {
    if (nameProblem(name)) return undefined; // none can exist
    const [profile] = await this.named(token, container, name);
    const file = profile && fileOf(profile);
    return file && { id: file.id, name: file.name, version: file.version };
  }

  async upload(token: string, container: string, file: Upload): Promise<ProviderFile> {
    const problem = nameProblem(file.name);
    if (problem) throw new UploadRefusedError('invalid_name', problem);
    const folder = workId(container, 'upload document');
    const comment = `${UPLOAD_COMMENT_PREFIX}${file.idempotencyKey}`.slice(0, 254);
    const ours = (profiles: DocumentProfile[]) => {
      const mine = profiles.find((p) => p.comment === comment);
      const made = mine && fileOf(mine);
      return made && { id: made.id, name: made.name, version: made.version };
    };
    let path: string;
    if (file.replace) {
      const target = workId(file.replace.id, 'upload document');
      if (target.library !== folder.library)
        throw new UploadRefusedError('changed', 'the document is elsewhere');
      const now = await this.get<{ data?: DocumentProfile }>(
        'upload document',
        token,
        target.library,
        `/documents/${target.id}`,
      ).catch((error: unknown) => {
        if (error instanceof ProviderApiError && error.status === 404)
          throw new UploadRefusedError('changed', 'the document is gone from iManage');
        throw error;
      });
      const current = now.data && fileOf(now.data);
      if (current?.version !== file.replace.version)
        throw new UploadRefusedError('changed', 'the document changed in iManage since it was checked');
      path = `/documents/${target.id}/versions`;
    } else {
      const holders = await this.named(token, container, file.name);
      const earlier = ours(holders);
      if (earlier) return earlier; // this upload, whose answer was lost
      if (holders.length) throw new UploadRefusedError('name_taken', 'a document of the folder has the name');
      path = `/folders/${folder.id}/documents`;
    }
    try {
      const out = await this.send(token, folder.library, path, file, comment);
      const made = out.data && fileOf(out.data);
      if (!made) throw refused('upload document', 201, 'no_document');
      return { id: made.id, name: made.name, version: made.version };
    } catch (error) {
      if (!(error instanceof ProviderApiError && error.status === 409) || file.replace) throw error;
      // The name taken since the check: by this upload retried (ours), or by someone else.
      const earlier = ours(await this.named(token, container, file.name));
      if (earlier) return earlier;
      throw new UploadRefusedError('name_taken', 'another document took the name since it was checked');
    }
  }

  /** One multipart request: `profile` (name, extension, comment) first, then the bytes. */
  private async send(token: string, library: string, path: string, file: Upload, comment: string) {
    const boundary = `imanage-${randomBytes(16).toString('hex')}`;
    const profile = JSON.stringify({ doc_profile: { ...nameParts(file.name), comment } });
    // The name travels in the JSON only: the part's filename is fixed, so no name shapes a header.
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="profile"\r\nContent-Type: application/json\r\n\r\n${profile}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="upload"\r\nContent-Type: ${file.contentType.replace(/[\r\n]/g, '')}\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const bytes = file.body;
    async function* parts() {
      yield head;
      for await (const chunk of bytes as AsyncIterable<Buffer>) yield chunk;
      yield tail;
    }
    return this.http.json<{ data?: DocumentProfile }>({
      operation: 'upload document',
      token,
      method: 'POST',
      url: await this.url(token, library, path),
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      body: Readable.from(parts(), { objectMode: false }),
      length: head.length + file.size + tail.length,
      readError: readImanageError,
    });
  }
}

export const client: ProviderClient = { Content: ImanageApi, Containers: ImanageContainers };
