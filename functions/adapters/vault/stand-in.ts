// The vault stand-in: the VaultDocuments port as the vault area would answer it, with metadata in the
// `vault` table (VAULT#<organization>#<vault> / DOC#<object>) and content in a blob store (S3 on AWS,
// files locally). Content is written before its metadata, under a key of its own (a random part), so a
// reader never sees metadata that points at missing or half-written bytes. The metadata is then one
// write, not a read and a write: the version goes up by one in the table (two writers at once get two
// versions), and the write returns the blob key it displaced, which that writer, and no other, deletes.
// Shared by both runtimes.
import type { Readable } from 'node:stream';
import { randomBase32 } from '../../platform/ids';
import type { Clock } from '../../platform/clock';
import type {
  BlobStore,
  Item,
  Page,
  Table,
  VaultDocument,
  VaultDocuments,
  VaultRef,
  VaultWrite,
} from '../../platform/ports';

/** What the stand-in's ingestion calls a chunk: about a page of text. */
export const CHUNK_BYTES = 4_000;

export const chunkCount = (size: number): number => Math.max(1, Math.ceil(size / CHUNK_BYTES));

type DocumentItem = Item &
  VaultDocument & {
    blobKey: string;
    /** The blob key the last write displaced (null: it created the document), which that writer deletes. */
    previousBlobKey?: string | null;
  };

const partition = (organizationId: string, vaultId: string) => `VAULT#${organizationId}#${vaultId}`;
const key = (ref: VaultRef) => ({
  pk: partition(ref.organizationId, ref.vaultId),
  sk: `DOC#${ref.objectId}`,
});

/**
 * Where one write's content goes: a key of its own, so two writers of one document at once (two copies
 * of an import step) never share one. Not the version: it is known only once the metadata is written.
 */
const blobKey = (ref: VaultRef) =>
  [ref.organizationId, ref.vaultId, ref.objectId, randomBase32(16)].map(encodeURIComponent).join('/');

function documentOf(item: DocumentItem): VaultDocument {
  const { pk: _pk, sk: _sk, blobKey: _blob, previousBlobKey: _previous, ...document } = item;
  return document;
}

export class VaultStandIn implements VaultDocuments {
  constructor(
    private readonly table: Table,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
  ) {}

  async put(write: VaultWrite): Promise<VaultDocument> {
    const { content, ...fields } = write;
    const blob = blobKey(write);
    const { size, sha256 } = await this.blobs.put(blob, content, write.contentType);
    const now = this.clock.now();
    let item: DocumentItem;
    try {
      item = await this.table.update<DocumentItem>(key(write), {
        set: { ...fields, size, sha256, chunkCount: chunkCount(size), updatedAt: now, blobKey: blob },
        setIfMissing: { createdAt: now },
        add: { version: 1 },
        copy: { previousBlobKey: 'blobKey' },
        ...(fields.source === undefined ? { remove: ['source'] } : {}),
      });
    } catch (error) {
      await this.blobs.delete(blob);
      throw error;
    }
    // What this write displaced, read in the same atomic write: a writer at once displaced another.
    if (item.previousBlobKey) await this.blobs.delete(item.previousBlobKey);
    return documentOf(item);
  }

  async get(ref: VaultRef): Promise<VaultDocument | undefined> {
    const item = await this.table.get<DocumentItem>(key(ref));
    return item ? documentOf(item) : undefined;
  }

  async read(ref: VaultRef): Promise<Readable | undefined> {
    const item = await this.table.get<DocumentItem>(key(ref));
    return item ? this.blobs.get(item.blobKey) : undefined;
  }

  async list(
    organizationId: string,
    vaultId: string,
    page: { cursor?: string; limit?: number } = {},
  ): Promise<Page<VaultDocument>> {
    const out = await this.table.query<DocumentItem>({
      partition: partition(organizationId, vaultId),
      beginsWith: 'DOC#',
      limit: page.limit ?? 100,
      cursor: page.cursor,
    });
    return { items: out.items.map(documentOf), cursor: out.cursor };
  }

  async delete(ref: VaultRef): Promise<void> {
    const item = await this.table.get<DocumentItem>(key(ref));
    if (!item) return;
    // Metadata first: a crash in between leaves an orphaned blob, never a document without content.
    await this.table.delete(key(ref));
    await this.blobs.delete(item.blobKey);
  }
}
