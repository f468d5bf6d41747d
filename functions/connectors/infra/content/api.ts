// What the connectors need from a provider's content API, whatever its shape: browse containers and
// files, list a container's changes since a cursor, download a file, upload one. One client per API
// shape (./practice.ts, ./drive.ts); a provider definition names its shape, its configuration the URL.
import type { Readable } from 'node:stream';

export interface SourceEntry {
  id: string;
  name: string;
  /** A container can be a link's source (a matter, a folder); a file is imported from one. */
  kind: 'container' | 'file';
  size?: number;
  version?: string;
  contentType?: string;
  /** ISO 8601, as the provider gave it. */
  updatedAt?: string;
}

export interface ChangedFile {
  id: string;
  name: string;
  /** Changes whenever the content does. */
  version: string;
  size?: number;
  contentType?: string;
  /** Gone at the provider since the cursor. */
  deleted: boolean;
}

/** Where a changes listing is: a page within a pass, or (after the last page) the cursor to keep. */
export type ChangesPosition = { page: string } | { cursor?: string };

export interface ChangesPage {
  files: ChangedFile[];
  /** `page`: more of this pass; `cursor`: the pass is complete, keep this for the next one. */
  next: { page: string } | { cursor: string };
}

export interface Download {
  body: Readable;
  contentType: string;
  size?: number;
  version?: string;
}

export interface Upload {
  name: string;
  contentType: string;
  size: number;
  body: Readable;
  /** The same key uploads once (a retried export step does not make a second file). */
  idempotencyKey: string;
}

export interface ContentApi {
  /** The top level (no parent) or a container's entries, a page at a time. */
  browse(
    token: string,
    parent: string | undefined,
    page: { token?: string; limit: number },
  ): Promise<{
    entries: SourceEntry[];
    next?: string;
  }>;
  /** Throws ProviderApiError 404 when the container does not exist (or is not a container). */
  checkContainer(token: string, id: string): Promise<void>;
  changes(token: string, container: string, position: ChangesPosition, limit: number): Promise<ChangesPage>;
  download(token: string, fileId: string): Promise<Download>;
  upload(token: string, container: string, file: Upload): Promise<{ id: string; version: string }>;
}
