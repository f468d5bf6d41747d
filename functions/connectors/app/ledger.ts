// Import links and their ledger, in the connectors table under the connection's partition:
//   CONN#<connection> / IMPORT#<link>                          an import link: source, target vault, sync cursor
//   CONN#<connection> / LEDGER#<link>#<vault>#<object>          one vault document the link brought in
// The ledger is what a purge deletes from the vault: an import records the entry before it creates
// the document, so no imported document can exist without its entry.
import type { Deps } from '../../platform/ports';
import { ConditionFailedError, NotFoundError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { queryAll } from '../../platform/pagination';
import type { Item, Page, Table, VaultDocuments } from '../../platform/ports';

export interface ImportLinkRecord {
  id: string;
  connectionId: string;
  organizationId: string;
  /** Where documents come from at the provider (a folder, a matter). */
  source: string;
  /** The vault they are imported into. */
  vaultId: string;
  /** The provider's sync cursor: where the next import run resumes. */
  cursor?: string;
  createdAt: number;
  updatedAt: number;
}

export interface LedgerEntryRecord {
  connectionId: string;
  organizationId: string;
  linkId: string;
  vaultId: string;
  objectId: string;
  /** The provider's id of the imported file. */
  sourceId?: string;
  importedAt: number;
}

export type ImportLinkItem = Item & ImportLinkRecord;
export type LedgerEntryItem = Item & LedgerEntryRecord;

/** The fields that identify a ledger entry and its vault document. */
export type LedgerEntryRef = Pick<LedgerEntryRecord, 'linkId' | 'vaultId' | 'objectId'>;

const partition = (connectionId: string) => `CONN#${connectionId}`;
const linkKey = (connectionId: string, linkId: string) => ({
  pk: partition(connectionId),
  sk: `IMPORT#${linkId}`,
});
export const ledgerKey = (connectionId: string, entry: LedgerEntryRef) => ({
  pk: partition(connectionId),
  sk: `LEDGER#${entry.linkId}#${entry.vaultId}#${entry.objectId}`,
});

export class Ledger {
  constructor(private readonly table: Table) {}

  async createLink(
    input: Pick<ImportLinkRecord, 'connectionId' | 'organizationId' | 'source' | 'vaultId'>,
    now: number,
  ): Promise<ImportLinkRecord> {
    const link: ImportLinkRecord = {
      id: newId('lnk'),
      ...input,
      createdAt: now,
      updatedAt: now,
    };
    await this.table.put({ ...linkKey(input.connectionId, link.id), ...link }, { itemExists: false });
    return link;
  }

  getLink(connectionId: string, linkId: string): Promise<ImportLinkItem | undefined> {
    return this.table.get<ImportLinkItem>(linkKey(connectionId, linkId));
  }

  listLinks(connectionId: string): Promise<ImportLinkItem[]> {
    return queryAll<ImportLinkItem>(this.table, {
      partition: partition(connectionId),
      beginsWith: 'IMPORT#',
    });
  }

  /** Moves a link's sync cursor; the link must exist. */
  async setCursor(connectionId: string, linkId: string, cursor: string, now: number): Promise<void> {
    try {
      await this.table.update(
        linkKey(connectionId, linkId),
        { set: { cursor, updatedAt: now } },
        { itemExists: true },
      );
    } catch (error) {
      if (error instanceof ConditionFailedError) throw new NotFoundError('Import link not found');
      throw error;
    }
  }

  /** Idempotent: recording the same document again rewrites its entry. */
  async record(entry: LedgerEntryRecord): Promise<void> {
    await this.table.put({ ...ledgerKey(entry.connectionId, entry), ...entry });
  }

  getEntry(connectionId: string, entry: LedgerEntryRef): Promise<LedgerEntryItem | undefined> {
    return this.table.get<LedgerEntryItem>(ledgerKey(connectionId, entry));
  }

  /** One page of the connection's ledger (every link), in key order. */
  page(connectionId: string, options: { cursor?: string; limit: number }): Promise<Page<LedgerEntryItem>> {
    return this.table.query<LedgerEntryItem>({
      partition: partition(connectionId),
      beginsWith: 'LEDGER#',
      limit: options.limit,
      cursor: options.cursor,
      // A purge pages through entries it deletes as it goes, and its last step checks the ledger is
      // empty right after: a stale read would show deleted entries and fail the job.
      consistent: true,
    });
  }

  /** Idempotent. */
  async remove(connectionId: string, entry: LedgerEntryRef): Promise<void> {
    await this.table.delete(ledgerKey(connectionId, entry));
  }

  async isEmpty(connectionId: string): Promise<boolean> {
    return (await this.page(connectionId, { limit: 1 })).items.length === 0;
  }
}

/**
 * How an import brings a document in: the ledger entry first, then the document, so a crash between
 * the two leaves an entry without a document (a purge deletes nothing there), never the reverse.
 */
export async function importDocument(
  deps: Pick<Deps, 'tables' | 'clock'> & { vault: VaultDocuments },
  link: Pick<ImportLinkRecord, 'id' | 'connectionId' | 'organizationId' | 'vaultId'>,
  document: { objectId: string; sourceId?: string; name?: string },
): Promise<LedgerEntryRecord> {
  const entry: LedgerEntryRecord = {
    connectionId: link.connectionId,
    organizationId: link.organizationId,
    linkId: link.id,
    vaultId: link.vaultId,
    objectId: document.objectId,
    ...(document.sourceId ? { sourceId: document.sourceId } : {}),
    importedAt: deps.clock.now(),
  };
  await new Ledger(deps.tables.connectors).record(entry);
  await deps.vault.put({
    vaultId: link.vaultId,
    objectId: document.objectId,
    ...(document.name ? { name: document.name } : {}),
    importedBy: { connectionId: link.connectionId, linkId: link.id },
  });
  return entry;
}
