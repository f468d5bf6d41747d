// Microsoft Graph drives: OneDrive (personal, work or school) and SharePoint document libraries. API_URL
// is the origin Graph's documented paths hang from (https://graph.microsoft.com, paths /v1.0/...).
//
// Ids. An item id is unique within its drive only, so our ids are `<driveId>:<itemId>` (a drive's top
// folder is `<driveId>:root`, Graph's alias). A SharePoint site is a container of drives only
// (`site:<siteId>`): it can be browsed, not linked.
// - browse: the top is the user's OneDrive (`/me/drive/root`) and the SharePoint sites
//   (`/sites?search=*`, skipped where the account has none: personal accounts answer 400); a site's
//   children are its document libraries (`/sites/{id}/drives`); a folder's are `/children`. Pages follow
//   `@odata.nextLink`, kept as its path under API_URL (a link to another origin is refused: our token
//   never goes anywhere else).
// - changes: Graph's delta is documented on a drive's root only (`/drives/{id}/root/delta`): a link's
//   first pass enumerates the drive from scratch, later passes read from the `@odata.deltaLink` kept as
//   the cursor. Items are filtered to the link's folder by walking `parentReference.id` up (folders in
//   the same page first, then one GET per unknown folder, each read once per page): in a first pass a
//   file outside the folder is skipped; in a later one it is a file that moved out, a deletion for the
//   link. A `deleted` facet is a deletion
//   (Graph sends deletions without a name or a parent path). An expired delta link (410 Gone,
//   `resyncChangesApplyDifferences`...) or a cursor that is not this drive's delta is FeedRestartError:
//   the run starts over from no cursor and reconciles. The version is the item's `eTag`
//   (delta omits `cTag` on OneDrive for Business).
// - download: the item's metadata (eTag, a file facet), then `/content`, which answers 302 to a
//   pre-authenticated URL, followed without our Authorization header.
// - upload: a simple PUT up to 4 MiB (the OneDrive reference's limit; Graph's newer 250 MB is not
//   everywhere), above it an upload session: `createUploadSession`, then byte ranges PUT to its
//   `uploadUrl` (no Authorization header: the URL is the credential) in 10 MiB fragments (a multiple of
//   the 320 KiB Graph asks for, under its 60 MiB cap), 202 with nextExpectedRanges until the last answers
//   200/201 with the item; a fragment that failed on the way is resumed from what a GET of the
//   uploadUrl says the session holds (infra/content/resumable.ts). Never replaces another file: a new file is created with
//   conflictBehavior=fail (409: the name was taken since findFile, UploadRefusedError name_taken);
//   `replace` (our own earlier export) is written under If-Match its eTag (412: changed since). A retry
//   of a create that got through finds a file made and last modified by our app (Graph's createdBy /
//   lastModifiedBy name our client id) of the same size, and takes it as its own.
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
import type { NameRules } from '../../infra/content/api';
import { FeedRestartError, UploadRefusedError, nameProblem } from '../../infra/content/api';
import type { ApiRequest, Transport } from '../../infra/content/http';
import type { ClientSettings } from '../../infra/content/http';
import { ProviderApiError, transportFor, discard, readJson } from '../../infra/content/http';
import { uploadResumable } from '../../infra/content/resumable';
import { downloadOf } from '../../infra/content/responses';
import type { ProviderClient } from '../module';
import { parentWalk } from '../../infra/content/parent-walk';

export const SIMPLE_UPLOAD_MAX_BYTES = 4 * 1024 * 1024;
/** Upload-session fragments: a multiple of 320 KiB, as Graph requires, and under its 60 MiB cap. */
export const FRAGMENT_BYTES = 32 * 320 * 1024;
const SITE = 'site:';
const FULL = 'full:';
const ITEM_FIELDS =
  'id,name,size,eTag,file,folder,root,deleted,package,parentReference,lastModifiedDateTime,createdBy,lastModifiedBy';
/** OneDrive's reserved characters, on top of the shared name policy (nameProblem). */
const ONEDRIVE_NAMES: NameRules = {
  reserved: /["*:<>?|]/,
  reservedText: 'OneDrive refuses names with " * : < > ? |',
};

interface Identity {
  application?: { id?: string };
}

interface DriveItem {
  id: string;
  name?: string;
  size?: number;
  eTag?: string;
  file?: { mimeType?: string };
  folder?: { childCount?: number };
  root?: object;
  deleted?: object;
  package?: object;
  parentReference?: { driveId?: string; id?: string };
  lastModifiedDateTime?: string;
  createdBy?: Identity;
  lastModifiedBy?: Identity;
}

interface Collection<T> {
  value: T[];
  '@odata.nextLink'?: string;
  '@odata.deltaLink'?: string;
}

/** `<driveId>:<itemId>`, each part a Graph id (letters, digits and `!-_.,=`). */
export function parseItemId(id: string): { drive: string; item: string } {
  const at = id.indexOf(':');
  const drive = id.slice(0, at);
  const item = id.slice(at + 1);
  const segment = (part: string) => /^[\w!.,=-]{1,256}$/.test(part) && part !== '.' && part !== '..';
  if (at <= 0 || !segment(drive) || !segment(item))
    throw new ProviderApiError('find item', 404, undefined, undefined, 'invalid_id');
  return { drive, item };
}

const itemId = (drive: string, item: string) => `${drive}:${item}`;

/** What a route calls (ContainerApi): the part of the client a route's bundle holds. */
export class OneDriveContainers implements ContainerApi {
  readonly replaces = true;
  private readonly base: string;

  /**
   * Our app's client id, read when an export needs it: Graph names the app that created or last
   * modified an item, which tells our exports from the user's files.
   */
  protected readonly ownClientId: () => string | undefined;
  protected readonly http: Transport;

  /** `apiUrl`: Graph's origin (https://graph.microsoft.com). */
  constructor(settings: ClientSettings) {
    this.base = settings.apiUrl.replace(/\/$/, '');
    this.ownClientId = settings.ownClientId ?? (() => undefined);
    this.http = transportFor(settings);
  }

  protected request(operation: string, token: string, path: string, extra: Partial<ApiRequest> = {}) {
    return { operation, token, url: `${this.base}${path}`, ...extra };
  }

  protected get<T>(operation: string, token: string, path: string): Promise<T> {
    return this.http.json<T>(this.request(operation, token, path));
  }

  /** A Graph link (`@odata.nextLink`, `@odata.deltaLink`) as its path under API_URL; else refused. */
  protected relative(operation: string, link: string): string {
    let url: URL;
    try {
      url = new URL(link, `${this.base}/`);
    } catch {
      throw new ProviderApiError(operation, 200, undefined, undefined, 'invalid_link');
    }
    const full = url.toString();
    if (!full.startsWith(`${this.base}/v1.0/`))
      throw new ProviderApiError(operation, 200, undefined, undefined, 'foreign_link');
    return full.slice(this.base.length);
  }

  /** A page token or cursor we issued (a path under /v1.0/), checked before our token goes with it. */
  protected ours(operation: string, path: string): string {
    if (!path.startsWith('/v1.0/') || path.includes('..') || /[\s#\\]/.test(path))
      throw new ProviderApiError(operation, 400, undefined, undefined, 'invalid_page_token');
    return this.relative(operation, `${this.base}${path}`);
  }

  protected item(token: string, drive: string, item: string, fields = ITEM_FIELDS) {
    return this.get<DriveItem>(
      'get item',
      token,
      `/v1.0/drives/${encodeURIComponent(drive)}/items/${encodeURIComponent(item)}?$select=${fields}`,
    );
  }

  async browse(token: string, parent: string | undefined, page: { token?: string; limit: number }) {
    const top = Math.min(Math.max(page.limit, 1), 200);
    if (parent === undefined) return this.browseTop(token, page.token, top);
    if (parent.startsWith(SITE)) {
      const site = parent.slice(SITE.length);
      if (!/^[\w.,-]{1,512}$/.test(site) || site === '.' || site === '..')
        throw new ProviderApiError('list drives', 404, undefined, undefined, 'invalid_id');
      const out = await this.get<Collection<{ id: string; name?: string }>>(
        'list drives',
        token,
        page.token
          ? this.ours('list drives', page.token)
          : `/v1.0/sites/${encodeURIComponent(site)}/drives?$select=id,name,driveType&$top=${top}`,
      );
      return {
        entries: out.value.map((d): SourceEntry => ({
          id: itemId(d.id, 'root'),
          name: d.name ?? 'Documents',
          kind: 'container',
        })),
        next: out['@odata.nextLink'] && this.relative('list drives', out['@odata.nextLink']),
      };
    }
    const { drive, item } = parseItemId(parent);
    const out = await this.get<Collection<DriveItem>>(
      'list folder',
      token,
      page.token
        ? this.ours('list folder', page.token)
        : `/v1.0/drives/${encodeURIComponent(drive)}/items/${encodeURIComponent(item)}/children?$select=${ITEM_FIELDS}&$top=${top}`,
    );
    const entries: SourceEntry[] = [];
    for (const i of out.value) {
      if (i.folder) entries.push({ id: itemId(drive, i.id), name: i.name ?? '', kind: 'container' });
      else if (i.file)
        entries.push({
          id: itemId(drive, i.id),
          name: i.name ?? '',
          kind: 'file',
          ...(i.size !== undefined ? { size: i.size } : {}),
          ...(i.eTag ? { version: i.eTag } : {}),
          ...(i.file.mimeType ? { contentType: i.file.mimeType } : {}),
          ...(i.lastModifiedDateTime ? { updatedAt: i.lastModifiedDateTime } : {}),
        });
    }
    return {
      entries,
      next: out['@odata.nextLink'] && this.relative('list folder', out['@odata.nextLink']),
    };
  }

  /** The user's OneDrive first, then the SharePoint sites a page at a time. */
  private async browseTop(token: string, pageToken: string | undefined, top: number) {
    const entries: SourceEntry[] = [];
    if (!pageToken) {
      const root = await this.get<DriveItem>(
        'get drive',
        token,
        '/v1.0/me/drive/root?$select=id,parentReference',
      );
      const drive = root.parentReference?.driveId;
      if (!drive) throw new ProviderApiError('get drive', 200, undefined, undefined, 'no_drive_id');
      entries.push({ id: itemId(drive, root.id), name: 'OneDrive', kind: 'container' });
    }
    let sites: Collection<{ id: string; displayName?: string; name?: string }>;
    try {
      sites = await this.get(
        'list sites',
        token,
        pageToken
          ? this.ours('list sites', pageToken)
          : `/v1.0/sites?search=*&$select=id,displayName,name&$top=${top}`,
      );
    } catch (error) {
      // Personal accounts have no SharePoint (400), and a grant without Sites.Read.All sees none (403).
      if (!pageToken && error instanceof ProviderApiError && [400, 403, 404].includes(error.status ?? 0))
        return { entries };
      throw error;
    }
    for (const s of sites.value)
      entries.push({ id: `${SITE}${s.id}`, name: s.displayName ?? s.name ?? s.id, kind: 'container' });
    return {
      entries,
      next: sites['@odata.nextLink'] && this.relative('list sites', sites['@odata.nextLink']),
    };
  }

  async checkContainer(token: string, id: string): Promise<void> {
    if (id.startsWith(SITE))
      throw new ProviderApiError('get folder', 404, undefined, undefined, 'not_a_folder');
    const { drive, item } = parseItemId(id);
    const found = await this.item(token, drive, item, 'id,folder,root,deleted');
    if ((!found.folder && !found.root) || found.deleted) throw new ProviderApiError('get folder', 404);
  }
}

export class OneDriveApi extends OneDriveContainers implements ContentApi {
  async changes(
    token: string,
    container: string,
    position: ChangesPosition,
    limit: number,
  ): Promise<ChangesPage> {
    const { drive, item } = parseItemId(container);
    const fresh = `/v1.0/drives/${encodeURIComponent(drive)}/root/delta?$select=${ITEM_FIELDS}&$top=${Math.min(Math.max(limit, 1), 1000)}`;
    // A page of a first pass (an enumeration from scratch) is kept as FULL + its link: there a file
    // outside the folder is skipped; in a later pass it is one that moved out (a deletion for the link).
    const raw = 'page' in position ? position.page : position.cursor;
    let full = !raw || raw.startsWith(FULL);
    const kept = raw?.startsWith(FULL) ? raw.slice(FULL.length) : raw;
    // A position is this drive's delta (a link's cursor never reads another drive's feed); another is
    // one this client cannot continue from.
    const at = kept?.startsWith(`/v1.0/drives/${encodeURIComponent(drive)}/root/delta?`) ? kept : undefined;
    if (kept && !at) throw new FeedRestartError('list changes', 'not_this_drives_delta');
    if (!at) full = true;
    let out: Collection<DriveItem>;
    try {
      out = await this.get('list changes', token, at ? this.ours('list changes', at) : fresh);
    } catch (error) {
      // An expired delta link: Graph asks for a new enumeration from scratch, deletions included.
      if (at && error instanceof ProviderApiError && error.status === 410)
        throw new FeedRestartError('list changes', error.providerError ?? 'resyncRequired');
      throw error;
    }
    const within = this.scope(token, drive, item, out.value);
    const files: ChangedFile[] = [];
    for (const i of out.value) {
      if (i.deleted) {
        if (!i.folder)
          files.push({ id: itemId(drive, i.id), name: i.name ?? '', version: '', deleted: true });
        continue;
      }
      if (!i.file) continue; // folders, the root, packages (OneNote notebooks)
      const inside = await within(i);
      if (!inside && full) continue;
      files.push({
        id: itemId(drive, i.id),
        name: i.name ?? '',
        version: i.eTag ?? '',
        ...(i.size !== undefined ? { size: i.size } : {}),
        ...(i.file.mimeType ? { contentType: i.file.mimeType } : {}),
        deleted: !inside,
      });
    }
    const next = out['@odata.nextLink'];
    if (next) return { files, next: { page: `${full ? FULL : ''}${this.relative('list changes', next)}` } };
    const delta = out['@odata.deltaLink'];
    if (!delta) throw new ProviderApiError('list changes', 200, undefined, undefined, 'no_delta_link');
    return { files, next: { cursor: this.relative('list changes', delta) } };
  }

  /**
   * Whether an item is under the folder `container` (its parents walked up, each read once): the
   * page's own folders are known without a read.
   */
  private scope(token: string, drive: string, container: string, page: DriveItem[]) {
    if (container === 'root') return () => Promise.resolve(true);
    const known = new Map<string, string | undefined>();
    for (const i of page) if (i.folder || i.root) known.set(i.id, i.parentReference?.id);
    const within = parentWalk(
      container,
      async (folder) => (await this.item(token, drive, folder, 'id,parentReference')).parentReference?.id,
      known,
    );
    return (file: DriveItem) => within(file.parentReference?.id);
  }

  async download(token: string, fileId: string, listed?: ChangedFile): Promise<Download> {
    const { drive, item } = parseItemId(fileId);
    // A file the changes listed (a file, not deleted, its eTag and type known): no metadata read first.
    const meta = listed
      ? { file: { mimeType: listed.contentType }, eTag: listed.version }
      : await this.item(token, drive, item, 'id,eTag,size,file,deleted');
    if (!meta.file || ('deleted' in meta && meta.deleted))
      throw new ProviderApiError('download file', 404, undefined, undefined, 'not_a_file');
    const operation = 'download file';
    // 302 to a pre-authenticated URL: followed as a GET without our Authorization header.
    const response = await this.http.send(
      this.request(
        operation,
        token,
        `/v1.0/drives/${encodeURIComponent(drive)}/items/${encodeURIComponent(item)}/content`,
        { followRedirects: true, headers: { Accept: '*/*' } },
      ),
    );
    const download = downloadOf(operation, response);
    return {
      ...download,
      ...(meta.file.mimeType ? { contentType: meta.file.mimeType } : {}),
      ...(meta.eTag ? { version: meta.eTag } : {}),
    };
  }

  /** The item named `name` directly in the folder (Graph's path lookup, case-insensitive as OneDrive is). */
  async findFile(token: string, container: string, name: string): Promise<ProviderFile | undefined> {
    if (nameProblem(name, ONEDRIVE_NAMES)) return undefined; // none can exist
    const found = await this.named(token, container, name);
    const { drive } = parseItemId(container);
    return found && { id: itemId(drive, found.id), name: found.name ?? name, version: found.eTag ?? '' };
  }

  private named(token: string, container: string, name: string): Promise<DriveItem | undefined> {
    const { drive, item } = parseItemId(container);
    return this.get<DriveItem>(
      'find file',
      token,
      `/v1.0/drives/${encodeURIComponent(drive)}/items/${encodeURIComponent(item)}:/${encodeURIComponent(name)}?$select=id,name,eTag,size,file,folder,createdBy,lastModifiedBy`,
    ).catch((error: unknown) => {
      if (error instanceof ProviderApiError && error.status === 404) return undefined;
      throw error;
    });
  }

  /**
   * A new file (conflictBehavior=fail: a name taken meanwhile is refused, never replaced), or with
   * `replace` a new version of that file under If-Match its eTag (412: it changed, refused). A retried
   * create whose first attempt got through finds the file there: made by our app, not modified since,
   * of the same size, it is taken as that attempt's (Graph keeps no custom property to say more).
   */
  async upload(token: string, container: string, file: Upload): Promise<ProviderFile> {
    const problem = nameProblem(file.name, ONEDRIVE_NAMES);
    if (problem) throw new UploadRefusedError('invalid_name', problem);
    const { drive, item: parent } = parseItemId(container);
    const target = file.replace
      ? `/v1.0/drives/${encodeURIComponent(drive)}/items/${encodeURIComponent(parseItemId(file.replace.id).item)}`
      : `/v1.0/drives/${encodeURIComponent(drive)}/items/${encodeURIComponent(parent)}:/${encodeURIComponent(file.name)}:`;
    const conflict = file.replace ? 'replace' : 'fail';
    const ifMatch: Record<string, string> = file.replace ? { 'If-Match': file.replace.version } : {};
    let done: DriveItem;
    try {
      done =
        file.size <= SIMPLE_UPLOAD_MAX_BYTES
          ? await this.http.json<DriveItem>(
              this.request(
                'upload file',
                token,
                `${target}/content?@microsoft.graph.conflictBehavior=${conflict}`,
                {
                  method: 'PUT',
                  headers: { 'Content-Type': file.contentType, ...ifMatch },
                  body: file.body,
                  length: file.size,
                },
              ),
            )
          : await this.session(token, target, conflict, ifMatch, file);
    } catch (error) {
      if (!(error instanceof ProviderApiError)) throw error;
      if (file.replace && (error.status === 412 || error.status === 404))
        throw new UploadRefusedError('changed', 'the file changed at OneDrive since it was checked');
      if (!file.replace && error.status === 409) {
        const there = await this.named(token, container, file.name);
        const own = this.ownClientId();
        if (
          there?.file &&
          own &&
          there.createdBy?.application?.id === own &&
          there.lastModifiedBy?.application?.id === own &&
          there.size === file.size
        )
          return { id: itemId(drive, there.id), name: there.name ?? file.name, version: there.eTag ?? '' };
        throw new UploadRefusedError('name_taken', 'another file took the name since it was checked');
      }
      throw error;
    }
    return { id: itemId(drive, done.id), name: done.name ?? file.name, version: done.eTag ?? '' };
  }

  /**
   * createUploadSession, then the fragments PUT to its uploadUrl without our token. A fragment that
   * failed on the way (no answer, a 5xx) is resumed as Graph documents it: a GET of the uploadUrl
   * answers the session's nextExpectedRanges, and only what it lacks is sent again.
   */
  private session(
    token: string,
    target: string,
    conflict: string,
    ifMatch: Record<string, string>,
    file: Upload,
  ): Promise<DriveItem> {
    const body = Buffer.from(JSON.stringify({ item: { '@microsoft.graph.conflictBehavior': conflict } }));
    return uploadResumable<string, DriveItem>(
      {
        operation: 'upload fragment',
        partBytes: FRAGMENT_BYTES,
        start: async () => {
          const started = await this.http.json<{ uploadUrl?: string }>(
            this.request('start upload', token, `${target}/createUploadSession`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json', ...ifMatch },
              body,
              length: body.length,
            }),
          );
          // The transport vets it as any URL the provider hands back: https when the API is, a public
          // address, and no Authorization header (the URL is the credential).
          if (!started.uploadUrl)
            throw new ProviderApiError('start upload', 200, undefined, undefined, 'no_upload_url');
          return started.uploadUrl;
        },
        put: async (url, offset, bytes, size) => {
          const response = await this.http.send({
            operation: 'upload fragment',
            token: '',
            anonymous: true,
            url,
            method: 'PUT',
            headers: { 'Content-Range': `bytes ${offset}-${offset + bytes.length - 1}/${size}` },
            body: bytes,
            length: bytes.length,
          });
          if (response.status === 200 || response.status === 201)
            return await readJson<DriveItem>('upload fragment', response);
          await discard(response); // 202: nextExpectedRanges continue where this fragment ended
          return undefined;
        },
        offset: async (url) => {
          const status = await this.http.json<{ nextExpectedRanges?: string[] }>({
            operation: 'upload status',
            token: '',
            anonymous: true,
            url,
          });
          const next = /^(\d+)-/.exec(status.nextExpectedRanges?.[0] ?? '');
          if (!next)
            throw new ProviderApiError('upload status', 200, undefined, undefined, 'no_expected_range');
          return { received: Number(next[1]) };
        },
        // Best effort: an abandoned session is dropped rather than left to expire.
        abandon: async (url) => {
          const response = await this.http.send({
            operation: 'cancel upload',
            token: '',
            anonymous: true,
            url,
            method: 'DELETE',
          });
          await discard(response);
        },
      },
      file.body,
      file.size,
    );
  }
}

/** The client its module loads on first use. */
export const client: ProviderClient = { Content: OneDriveApi, Containers: OneDriveContainers };
