// The vault stand-in: the VaultDocuments port as the vault area would answer it, with metadata in the
// `vault` table (VAULT#<organization>#<vault> / DOC#<object>) and content in a blob store (S3 on AWS,
// files locally). Content is written before its metadata, under a key of its own (the content's version
// and a random part), so a reader never sees metadata that points at missing or half-written bytes.
// Shared by both runtimes.
import type { Readable } from 'node:stream';
import { ConditionFailedError } from '../../platform/errors';
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

type DocumentItem = Item & VaultDocument & { blobKey: string };

const partition = (organizationId: string, vaultId: string) => `VAULT#${organizationId}#${vaultId}`;
const key = (ref: VaultRef) => ({
  pk: partition(ref.organizationId, ref.vaultId),
  sk: `DOC#${ref.objectId}`,
});

/**
 * Where one write's content goes: the version it would become and a part of its own, so two writers of
 * one document at once (two copies of an import step) never share a key. The loser of the table write
 * deletes its own content; with the version alone it deleted the winner's, which the metadata names.
 */
const blobKey = (ref: VaultRef, version: number) =>
  [ref.organizationId, ref.vaultId, ref.objectId, `v${version}-${randomBase32(8)}`]
    .map(encodeURIComponent)
    .join('/');

function documentOf(item: DocumentItem): VaultDocument {
  const { pk: _pk, sk: _sk, blobKey: _blob, ...document } = item;
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
    const current = await this.table.get<DocumentItem>(key(write));
    const version = (current?.version ?? 0) + 1;
    const blob = blobKey(write, version);
    const { size, sha256 } = await this.blobs.put(blob, content, write.contentType);
    const now = this.clock.now();
    const document: VaultDocument = {
      ...fields,
      size,
      sha256,
      version,
      chunkCount: chunkCount(size),
      createdAt: current?.createdAt ?? now,
      updatedAt: now,
    };
    try {
      // Over the version read: two writers of one document cannot both become version n+1.
      await this.table.put(
        { ...key(write), ...document, blobKey: blob },
        current ? { attr: 'version', op: '=', value: current.version } : { itemExists: false },
      );
    } catch (error) {
      await this.blobs.delete(blob);
      if (error instanceof ConditionFailedError) {
        throw new ConditionFailedError(`vault document ${write.objectId} changed while it was written`);
      }
      throw error;
    }
    if (current) await this.blobs.delete(current.blobKey);
    return document;
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
