// NetDocuments REST API (v1 and v2) under https://api.<region's host>, as the certified Power Platform
// connector describes its operations and NetDocuments' REST API overview its conventions.
//
// Containers. The top is the user's cabinets (GET /v1/User/cabinets, ids `NG-...`); a cabinet, a
// workspace (a matter) or a folder lists its items with GET /v2/container/{id}?select=standardAttributes
// (`top` up to 500, `skiptoken` for the next page). An item's extension says what it is: `ndws` a
// workspace, `ndfld` a folder, `ndsq` a saved search (not a link source, skipped), anything else a
// document. Documents, folders and workspaces have 12-digit ids written `dddd-dddd-dddd`.
//
// Versions. A document keeps its id across versions; a new version (PUT /v1/Document/{id}/new) is a
// change of the same document. Our version string is `<latestVersionNumber>.<modified ms>`: it changes
// with a new version and with an edit of the current one (which keeps the number).
//
// Changes. NetDocuments has no change feed: a pass searches the user's cabinets (GET /v2/Search) for
// the documents modified at or after the cursor's instant (`=7(^<instant>-)`), deleted ones included
// (`=deleted(*)`: deleted items are otherwise left out of a search), in `lastMod|asc` order, following
// NetDocuments' skiptoken within the pass; for each page, a search of the link's container
// (`=10(<id>)`) over the page's modification window says which of them are under it now. The cursor is the
// last modification instant seen plus what was seen at that instant (each document's id and a digest of
// its state) (base64url JSON through the
// validated page-token codec): the next pass asks from that instant again and drops what it already saw
// there, so documents modified within one instant on both sides of a pass are neither lost nor
// reported twice. A first pass (no cursor) searches the container alone and reports no deletion.
// A document in the recycle bin (`deleted: true`) is a deletion; a restore modifies it again and it
// comes back live; one moved out of the container (modified by the move) is a deletion too. A folder
// moved out or in keeps its documents' modification times: the reconcile (a full run) finds those.
//
// Download: GET /v1/Document/{id}/{version} (the version the listing saw, else the latest). Export:
// POST /v1/Document/upload (multipart: `destination`, `file`) makes a new document; a `replace` reads
// the document's profile, refuses when its version is no longer the one the export saw, then PUTs a
// new version. NetDocuments lets two documents share a name, so this client refuses a name a live
// document of the container holds (`name_taken`).
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
import { UploadRefusedError, nameProblem } from '../../infra/content/api';
import type { ApiRequest, ClientSettings, Transport } from '../../infra/content/http';
import { ProviderApiError, apiUrl, streamBody, transportFor } from '../../infra/content/http';
import { pageTokenCodec } from '../../infra/content/page-token';
import type { ProviderClient } from '../module';

/** NetDocuments' largest page (`top`) for a container listing or a search. */
export const ND_PAGE_MAX = 500;
/** How many documents a cursor keeps of its last instant; past it, the instant is listed again. */
export const ND_CURSOR_SEEN_MAX = 200;

const CABINET_ID = /^NG-[A-Za-z0-9]{8}$/;
const ITEM_ID = /^\d{4}-\d{4}-\d{4}$/;
const FOLDER_EXTENSIONS = new Set(['ndfld', 'ndws']);

/** An item's standard attributes, as `select=standardAttributes` answers them. */
export interface NdItem {
  id: string;
  envId?: string;
  name: string;
  extension: string;
  size?: number;
  created?: string;
  modified: string;
  latestVersionNumber?: number;
  officialVer?: number;
  deleted?: boolean;
}

interface NdList {
  Results: NdItem[];
  TotalFound?: number;
  SkipToken?: string;
}

interface NdCabinet {
  id: string;
  name: string;
}

const isContainer = (item: NdItem) => FOLDER_EXTENSIONS.has(item.extension);
const isDocument = (item: NdItem) => !isContainer(item) && item.extension !== 'ndsq';

/** A document's full name: NetDocuments keeps the extension apart from the name. */
export const fileName = (item: NdItem) => (item.extension ? `${item.name}.${item.extension}` : item.name);

/** `Report.pdf` -> {name: Report, extension: pdf}; no extension (or a dotfile) keeps the whole name. */
export function splitName(full: string): { name: string; extension: string } {
  const dot = full.lastIndexOf('.');
  if (dot <= 0 || dot === full.length - 1) return { name: full, extension: '' };
  return { name: full.slice(0, dot), extension: full.slice(dot + 1) };
}

/** What changes when the document's content does: the version number, and the modification instant. */
export const versionOf = (item: NdItem) =>
  `${item.latestVersionNumber ?? item.officialVer ?? 1}.${Date.parse(item.modified)}`;

const itemId = (id: string, operation: string): string => {
  if (!ITEM_ID.test(id)) throw new ProviderApiError(operation, 404, undefined, undefined, 'not_found');
  return id;
};

const containerId = (id: string, operation: string): string => {
  if (!ITEM_ID.test(id) && !CABINET_ID.test(id))
    throw new ProviderApiError(operation, 404, undefined, undefined, 'not_found');
  return id;
};

/** NetDocuments' skiptoken is opaque to us: kept only when it is a plain URL-safe token. */
const SKIPTOKEN = /^[\w.~-]{1,512}$/;
const skipTokenOf = (list: NdList, operation: string): string | undefined => {
  if (list.SkipToken === undefined || list.SkipToken === '') return undefined;
  if (!SKIPTOKEN.test(list.SkipToken))
    throw new ProviderApiError(operation, 502, undefined, undefined, 'invalid_skiptoken');
  return list.SkipToken;
};

const instant = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/));
const seen = z
  .array(z.string().check(z.regex(/^\d{4}-\d{4}-\d{4}@[0-9a-f]{12}$/)))
  .check(z.maxLength(ND_CURSOR_SEEN_MAX));

/** The cursor kept between passes: the last modification instant seen and what was seen at it. */
const cursorCodec = pageTokenCodec(z.object({ m: instant, s: seen }));
/**
 * A position within a pass: the pass's start (its `from`, none for a first pass), NetDocuments'
 * skiptoken, and the latest instant seen so far with what was seen at it (the cursor the pass ends on).
 */
const passCodec = pageTokenCodec(
  z.object({
    f: z.optional(z.object({ m: instant, s: seen })),
    k: z.string().check(z.regex(SKIPTOKEN)),
    m: z.optional(instant),
    s: seen,
    o: z.optional(z.literal(true)),
  }),
);

/**
 * What a cursor keeps of a document seen at its last instant: its id and a digest of everything a
 * listing reports of it (version, name, deleted), so that the same document in another state at that
 * same instant (deleted, restored, renamed, a new version within the millisecond) is reported again.
 */
const markOf = (item: NdItem, version: string, gone: boolean) =>
  `${item.id}@${createHash('sha256')
    .update(`${version}\u0000${fileName(item)}\u0000${gone ? 1 : 0}`)
    .digest('hex')
    .slice(0, 12)}`;

/**
 * `marks` with `mark` as its document's latest state: one mark per document, so a document back in a
 * state it had earlier within the instant (deleted, then restored) differs from what the cursor holds.
 */
function withMark(marks: string[], mark: string): string[] {
  const id = mark.slice(0, mark.indexOf('@') + 1);
  return [...marks.filter((m) => !m.startsWith(id)), mark];
}

/** `2025-01-06T09:00:00.000Z` -> `20250106090000000`, the instant as the search clause takes it. */
const searchInstant = (iso: string) => iso.replace(/[-:TZ.]/g, '').padEnd(17, '0');

/** What a route calls (ContainerApi): the part of the client a route's bundle holds. */
export class NetDocumentsContainers implements ContainerApi {
  readonly replaces = true;
  protected readonly base: string;
  protected readonly http: Transport;

  constructor(settings: ClientSettings) {
    this.base = settings.apiUrl.replace(/\/$/, '');
    this.http = transportFor(settings);
  }

  protected request(
    operation: string,
    token: string,
    path: string,
    query: Record<string, string | number | undefined> = {},
    extra: Partial<ApiRequest> = {},
  ): ApiRequest {
    return {
      operation,
      token,
      url: apiUrl(this.base, path, query),
      headers: { Accept: 'application/json' },
      ...extra,
    };
  }

  protected contents(token: string, operation: string, id: string, limit: number, skiptoken?: string) {
    return this.http.json<NdList>(
      this.request(operation, token, `/v2/container/${containerId(id, operation)}`, {
        select: 'standardAttributes',
        top: Math.min(Math.max(limit, 1), ND_PAGE_MAX),
        skiptoken,
      }),
    );
  }

  async browse(token: string, parent: string | undefined, page: { token?: string; limit: number }) {
    if (!parent) {
      const cabinets = await this.http.json<NdCabinet[]>(
        this.request('list cabinets', token, '/v1/User/cabinets'),
      );
      return {
        entries: cabinets
          .filter((cabinet) => CABINET_ID.test(cabinet.id))
          .map((cabinet): SourceEntry => ({ id: cabinet.id, name: cabinet.name, kind: 'container' })),
      };
    }
    if (page.token !== undefined && !SKIPTOKEN.test(page.token))
      throw new ProviderApiError('list container', 400, undefined, undefined, 'invalid_page_token');
    const list = await this.contents(token, 'list container', parent, page.limit, page.token);
    return {
      entries: list.Results.flatMap((item): SourceEntry[] => {
        if (item.deleted || !(isContainer(item) || isDocument(item))) return [];
        if (isContainer(item))
          return [{ id: item.id, name: item.name, kind: 'container', updatedAt: item.modified }];
        return [
          {
            id: item.id,
            name: fileName(item),
            kind: 'file',
            version: versionOf(item),
            ...(item.size !== undefined ? { size: item.size } : {}),
            updatedAt: item.modified,
          },
        ];
      }),
      next: skipTokenOf(list, 'list container'),
    };
  }

  async checkContainer(token: string, id: string): Promise<void> {
    await this.contents(token, 'show container', id, 1);
  }
}

export class NetDocumentsApi extends NetDocumentsContainers implements ContentApi {
  private cabinets?: Promise<string>;

  /**
   * The user's cabinets, comma-separated: a search names the cabinets it searches, and a container's id
   * does not say which cabinet holds it, so a pass searches them all (the `=10` clause scopes it).
   */
  private cabinetList(token: string): Promise<string> {
    this.cabinets ??= this.http
      .json<NdCabinet[]>(this.request('list cabinets', token, '/v1/User/cabinets'))
      .then((list) =>
        list
          .map((cabinet) => cabinet.id)
          .filter((id) => CABINET_ID.test(id))
          .join(','),
      );
    this.cabinets.catch(() => (this.cabinets = undefined));
    return this.cabinets;
  }

  async changes(
    token: string,
    container: string,
    position: ChangesPosition,
    limit: number,
  ): Promise<ChangesPage> {
    const operation = 'search changes';
    containerId(container, operation);
    type Pass = ReturnType<typeof passCodec.decode>;
    const pass: Omit<Pass, 'k'> & { k?: string } =
      'page' in position
        ? passCodec.decode(position.page, operation)
        : { ...(position.cursor ? { f: cursorCodec.decode(position.cursor, operation) } : {}), s: [] };
    // A first pass lists what is under the container. A later one lists every document of the user's
    // cabinets modified since the cursor, and asks which of them are under the container over the
    // same modification window: one that is not has left it (or was never in it), a deletion for the
    // link (a run ignores the deletion of a file it does not hold). Deleted documents are searched on
    // a first pass too, not reported there: the cursor moves past their deletion.
    const list = await this.search(
      token,
      [
        ...(pass.f ? [] : [`=10(${container})`]),
        ...(pass.f ? [`=7(^${searchInstant(pass.f.m)}-)`] : []),
        '=deleted(*)',
      ],
      Math.min(Math.max(limit, 1), ND_PAGE_MAX),
      pass.k,
    );
    const inScope = pass.f ? await this.underContainer(token, container, list.Results) : undefined;
    const before = new Set(pass.f?.s ?? []);
    let latest = pass.m;
    let atLatest = pass.s;
    // More documents at the latest instant than a cursor keeps: it keeps none of that instant (any
    // subset of the latest states is safe to skip; an older state of a document is not).
    let overflow = pass.o === true;
    const files: ChangedFile[] = [];
    for (const item of list.Results) {
      if (!isDocument(item) || !ITEM_ID.test(item.id) || Number.isNaN(Date.parse(item.modified))) continue;
      const version = versionOf(item);
      const gone = item.deleted === true || (inScope !== undefined && !inScope.has(item.id));
      const mark = markOf(item, version, gone);
      const at = new Date(Date.parse(item.modified)).toISOString();
      if (!latest || at > latest) {
        latest = at;
        atLatest = [];
        overflow = false;
      }
      if (at === latest && !overflow) atLatest = withMark(atLatest, mark);
      if (atLatest.length > ND_CURSOR_SEEN_MAX) {
        atLatest = [];
        overflow = true;
      }
      if (pass.f && at === pass.f.m && before.has(mark)) continue;
      if (!pass.f && item.deleted) continue;
      files.push(
        gone
          ? { id: item.id, name: fileName(item), version: '', deleted: true }
          : {
              id: item.id,
              name: fileName(item),
              version,
              ...(item.size !== undefined ? { size: item.size } : {}),
              deleted: false,
            },
      );
    }
    const skip = skipTokenOf(list, operation);
    if (skip)
      return {
        files,
        next: {
          page: passCodec.encode({
            ...(pass.f ? { f: pass.f } : {}),
            k: skip,
            ...(latest ? { m: latest } : {}),
            s: atLatest,
            ...(overflow ? { o: true } : {}),
          }),
        },
      };
    // Nothing newer seen: the pass ends where it began (a first pass with no document at all starts
    // its successor from the beginning of time, which lists everything again and drops nothing).
    const merged = pass.f && latest === pass.f.m ? atLatest.reduce(withMark, pass.f.s) : atLatest;
    const end = latest
      ? { m: latest, s: overflow || merged.length > ND_CURSOR_SEEN_MAX ? [] : merged }
      : (pass.f ?? { m: new Date(0).toISOString(), s: [] });
    return { files, next: { cursor: cursorCodec.encode(end) } };
  }

  private async search(token: string, clauses: string[], top: number, skiptoken?: string): Promise<NdList> {
    return this.http.json<NdList>(
      this.request('search changes', token, '/v2/Search', {
        cabinets: await this.cabinetList(token),
        q: clauses.join(' '),
        select: 'standardAttributes',
        orderby: 'lastMod|asc',
        top,
        skiptoken,
      }),
    );
  }

  /** Which of `items` are under the container now: a search of it over the items' modification window. */
  private async underContainer(token: string, container: string, items: NdItem[]): Promise<Set<string>> {
    const times = items.map((item) => Date.parse(item.modified)).filter((t) => !Number.isNaN(t));
    const found = new Set<string>();
    if (!times.length) return found;
    const window = `=7(^${searchInstant(new Date(Math.min(...times)).toISOString())}-${searchInstant(new Date(Math.max(...times)).toISOString())})`;
    let skiptoken: string | undefined;
    do {
      const page = await this.search(
        token,
        [`=10(${container})`, window, '=deleted(*)'],
        ND_PAGE_MAX,
        skiptoken,
      );
      for (const item of page.Results) found.add(item.id);
      skiptoken = skipTokenOf(page, 'search changes');
    } while (skiptoken);
    return found;
  }

  async download(token: string, fileId: string, listed?: ChangedFile): Promise<Download> {
    const operation = 'download document';
    const id = itemId(fileId, operation);
    const number = listed?.version ? /^(\d+)\./.exec(listed.version)?.[1] : undefined;
    const response = await this.http.send(
      this.request(
        operation,
        token,
        `/v1/Document/${id}${number ? `/${number}` : ''}`,
        {},
        { headers: { Accept: '*/*' } },
      ),
    );
    const length = Number(response.headers.get('content-length'));
    return {
      body: streamBody(operation, response),
      contentType: response.headers.get('content-type') ?? 'application/octet-stream',
      ...(response.headers.has('content-length') && Number.isFinite(length) ? { size: length } : {}),
      ...(listed?.version ? { version: listed.version } : {}),
    };
  }

  /** The container's live document of that full name (case-insensitively, as NetDocuments compares names). */
  async findFile(token: string, container: string, name: string): Promise<ProviderFile | undefined> {
    const found = await this.findItem(token, container, name);
    return found && { id: found.id, name: fileName(found), version: versionOf(found) };
  }

  private async findItem(token: string, container: string, name: string): Promise<NdItem | undefined> {
    const wanted = name.toLowerCase();
    let skiptoken: string | undefined;
    do {
      const list = await this.contents(token, 'find document', container, ND_PAGE_MAX, skiptoken);
      const found = list.Results.find(
        (item) => isDocument(item) && !item.deleted && fileName(item).toLowerCase() === wanted,
      );
      if (found) return found;
      skiptoken = skipTokenOf(list, 'find document');
    } while (skiptoken);
    return undefined;
  }

  /** Whether the document's latest content is exactly `body`'s bytes (both read to the end and hashed). */
  private async sameBytes(token: string, id: string, body: Readable): Promise<boolean> {
    const digest = async (stream: AsyncIterable<unknown>) => {
      const hash = createHash('sha256');
      for await (const chunk of stream) hash.update(chunk as Buffer);
      return hash.digest('hex');
    };
    const theirs = await this.download(token, id);
    const [a, b] = await Promise.all([digest(theirs.body), digest(body)]);
    return a === b;
  }

  private async profile(token: string, operation: string, id: string): Promise<NdItem> {
    const info = await this.http.json<{ standardAttributes?: NdItem }>(
      this.request(operation, token, `/v1/Document/${itemId(id, operation)}/info`),
    );
    if (!info.standardAttributes?.id)
      throw new ProviderApiError(operation, 502, undefined, undefined, 'no_profile');
    return info.standardAttributes;
  }

  async upload(token: string, container: string, file: Upload): Promise<ProviderFile> {
    const problem = nameProblem(file.name);
    if (problem) throw new UploadRefusedError('invalid_name', problem);
    const parts = splitName(file.name);
    if (file.replace) {
      const current = await this.profile(token, 'show document', file.replace.id);
      if (current.deleted || versionOf(current) !== file.replace.version)
        throw new UploadRefusedError('changed', 'the document changed since it was exported');
      await this.http.json(
        this.request(
          'new version',
          token,
          `/v1/Document/${itemId(file.replace.id, 'new version')}/new`,
          { extension: parts.extension || undefined },
          {
            method: 'PUT',
            headers: { Accept: 'application/json', 'Content-Type': 'application/octet-stream' },
            body: file.body,
            length: file.size,
          },
        ),
      );
      const after = await this.profile(token, 'show document', file.replace.id);
      return { id: after.id, name: fileName(after), version: versionOf(after) };
    }
    const destination = containerId(container, 'upload document');
    // NetDocuments has no idempotency key: a document of that name with exactly these bytes is this
    // upload's, made by an attempt whose answer was lost (as Box's rule reads a 409 with the same SHA-1).
    const taken = await this.findItem(token, destination, file.name);
    if (taken) {
      if (taken.size === file.size && (await this.sameBytes(token, taken.id, file.body)))
        return { id: taken.id, name: fileName(taken), version: versionOf(taken) };
      throw new UploadRefusedError('name_taken', 'another document of the container has the name');
    }
    const boundary = `nd-${randomBytes(16).toString('hex')}`;
    const quoted = file.name.replace(/["\\]/g, '_');
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="destination"\r\n\r\n${destination}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="partialProfiling"\r\n\r\ntrue\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted}"\r\n` +
        `Content-Type: ${file.contentType.replace(/[\r\n]/g, '')}\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const made = await this.http.json<{ id?: string }>(
      this.request(
        'upload document',
        token,
        '/v1/Document/upload',
        {},
        {
          method: 'POST',
          headers: {
            Accept: 'application/json',
            'Content-Type': `multipart/form-data; boundary=${boundary}`,
          },
          body: Readable.from(framed(head, file.body, tail)),
          length: head.length + file.size + tail.length,
        },
      ),
    );
    if (!made.id || !ITEM_ID.test(made.id))
      throw new ProviderApiError('upload document', 502, undefined, undefined, 'no_document_id');
    const after = await this.profile(token, 'show document', made.id);
    return { id: after.id, name: fileName(after), version: versionOf(after) };
  }
}

async function* framed(head: Buffer, body: Readable, tail: Buffer): AsyncGenerator<Buffer> {
  yield head;
  for await (const chunk of body) yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
  yield tail;
}

/** The client its module loads on first use. */
export const client: ProviderClient = { Content: NetDocumentsApi, Containers: NetDocumentsContainers };
