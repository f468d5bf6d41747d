// The ledgers, in the connectors table under the connection's partition:
//   CONN#<connection> / LEDGER#<link>#<vault>#<object>   one vault document an import link brought in:
//                                                         the provider file and the version imported
//   CONN#<connection> / EXPORT#<dest>#<vault>#<object>   one vault document exported to a destination
//   CONN#<connection> / EXPNAME#<dest>#<name>            which document holds a file name there
// The import ledger is what a purge deletes from the vault: an import records its entry before it
// writes the document, so no imported document can exist without its entry; the entry's version is
// set only once the document is stored, so a crash in between imports the file again next time.
// While a run writes a document its entry names the run (pendingJobId): a purge leaves such an entry
// until that run stops, and the run's own write of the stored version is conditional on its mark, so
// an entry a purge removed is never written again (issue 23).
import { won } from '../../../platform/errors';
import type { Pagination, Window } from '../../../platform/pagination';
import { queryWindow } from '../../../platform/pagination';
import type { Item, Page, Table, Deps } from '../../../platform/ports';
import { importedObjectId } from '../../domain/sync-policy';

/** What an import did to one provider file, as a run counts it. */
export type ImportOutcome = 'imported' | 'updated' | 'unchanged' | 'failed';

export interface LedgerEntryRecord {
  connectionId: string;
  organizationId: string;
  linkId: string;
  vaultId: string;
  objectId: string;
  /** The provider's id of the imported file, and its name when last seen. */
  sourceId: string;
  name: string;
  /** The provider version whose content the document holds; absent until the first content is stored. */
  sourceVersion?: string;
  /** The vault document's version holding it. */
  vaultVersion?: number;
  /** Gone at the provider (the vault document stays: an import is a copy). */
  sourceDeletedAt?: number;
  /** The run that last stored it, and what that was: a retried step counts the file as it did. */
  lastJobId?: string;
  lastOutcome?: ImportOutcome;
  /** Which step of that run (the run's committed steps then): a run failing at a step counts its files. */
  lastStep?: number;
  /** The run writing the document now (set before the vault write, cleared with its version). */
  pendingJobId?: string;
  /** Bumped by every write of a run: a purge removes an entry only at the revision it read. */
  rev?: number;
  importedAt: number;
  updatedAt: number;
}

export type LedgerEntryItem = Item & LedgerEntryRecord;

/** The fields that identify a ledger entry and its vault document. */
export type LedgerEntryRef = Pick<LedgerEntryRecord, 'linkId' | 'vaultId' | 'objectId'>;

export interface ExportEntryRecord {
  connectionId: string;
  destination: string;
  vaultId: string;
  objectId: string;
  /** The vault document version exported, and the file it became at the provider. */
  exportedVersion: number;
  providerFileId: string;
  name: string;
  lastJobId: string;
  exportedAt: number;
}

export type ExportEntryItem = Item & ExportEntryRecord;

const partition = (connectionId: string) => `CONN#${connectionId}`;
export const ledgerKey = (connectionId: string, entry: LedgerEntryRef) => ({
  pk: partition(connectionId),
  sk: `LEDGER#${entry.linkId}#${entry.vaultId}#${entry.objectId}`,
});
const exportKey = (connectionId: string, destination: string, vaultId: string, objectId: string) => ({
  pk: partition(connectionId),
  sk: `EXPORT#${destination}#${vaultId}#${objectId}`,
});
const nameKey = (connectionId: string, destination: string, name: string) => ({
  pk: partition(connectionId),
  sk: `EXPNAME#${destination}#${name.toLowerCase()}`,
});

export class Ledger {
  constructor(private readonly table: Table) {}

  /** The repository over the connectors table of a composition's ports. */
  static of(deps: Pick<Deps, 'tables'>): Ledger {
    return new Ledger(deps.tables.connectors);
  }

  /** The entry of a provider file imported through a link (the document id is derived from both). */
  entryFor(link: { id: string; connectionId: string; vaultId: string }, sourceId: string) {
    const ref = { linkId: link.id, vaultId: link.vaultId, objectId: importedObjectId(link.id, sourceId) };
    return { ref, get: () => this.table.get<LedgerEntryItem>(ledgerKey(link.connectionId, ref)) };
  }

  get(connectionId: string, ref: LedgerEntryRef): Promise<LedgerEntryItem | undefined> {
    return this.table.get<LedgerEntryItem>(ledgerKey(connectionId, ref));
  }

  /**
   * Records that run `jobId` is about to write the document: a new entry with its identifying fields,
   * or the mark on the existing one (never an entry without them: a purge selects by them).
   */
  async recordIntent(entry: Omit<LedgerEntryRecord, 'updatedAt'>, jobId: string): Promise<void> {
    const key = ledgerKey(entry.connectionId, entry);
    for (let attempt = 0; attempt < 3; attempt++) {
      const created = await won(
        this.table.put(
          { ...key, ...entry, pendingJobId: jobId, rev: 1, updatedAt: entry.importedAt },
          { itemExists: false },
        ),
      );
      if (created) return;
      const marked = await won(
        this.table.update(
          key,
          { set: { pendingJobId: jobId, updatedAt: entry.importedAt }, add: { rev: 1 } },
          { attr: 'objectId', exists: true },
        ),
      );
      if (marked) return;
    }
    throw new Error(`ledger entry ${entry.objectId} kept changing while it was recorded`);
  }

  /**
   * The document now holds `sourceVersion`: later runs count the file unchanged until it changes.
   * Only over the run's own mark: false when the entry was removed (a purge) or another run marked it.
   */
  recordStored(
    connectionId: string,
    ref: LedgerEntryRef,
    stored: {
      name: string;
      sourceVersion: string;
      vaultVersion: number;
      jobId: string;
      outcome: ImportOutcome;
      step?: number;
    },
    now: number,
  ): Promise<boolean> {
    return won(
      this.table.update(
        ledgerKey(connectionId, ref),
        {
          set: {
            name: stored.name,
            sourceVersion: stored.sourceVersion,
            vaultVersion: stored.vaultVersion,
            lastJobId: stored.jobId,
            lastOutcome: stored.outcome,
            ...(stored.step !== undefined ? { lastStep: stored.step } : {}),
            updatedAt: now,
          },
          remove: ['sourceDeletedAt', 'pendingJobId', ...(stored.step === undefined ? ['lastStep'] : [])],
          add: { rev: 1 },
        },
        { attr: 'pendingJobId', op: '=', value: stored.jobId },
      ),
    );
  }

  async recordSourceDeleted(connectionId: string, ref: LedgerEntryRef, now: number): Promise<void> {
    await won(
      this.table.update(
        ledgerKey(connectionId, ref),
        { set: { sourceDeletedAt: now, updatedAt: now } },
        { itemExists: true },
      ),
    );
  }

  /** One link's entries (the documents it imported), in key order. */
  listForLink(connectionId: string, linkId: string, page: Pagination): Promise<Window<LedgerEntryItem>> {
    return queryWindow<LedgerEntryItem>(
      this.table,
      { partition: partition(connectionId), beginsWith: `LEDGER#${linkId}#` },
      page,
    );
  }

  /** Every entry of one link, a page at a time (a consistent read: what was just stored is seen). */
  async *linkEntries(connectionId: string, linkId: string): AsyncGenerator<LedgerEntryItem> {
    let cursor: string | undefined;
    do {
      const page = await this.table.query<LedgerEntryItem>({
        partition: partition(connectionId),
        beginsWith: `LEDGER#${linkId}#`,
        limit: 500,
        cursor,
        consistent: true,
      });
      yield* page.items;
      cursor = page.cursor;
    } while (cursor);
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

  /** Removes the entry only at the revision read; false when a run wrote it since, or it is gone. */
  removeUnchanged(connectionId: string, entry: LedgerEntryRef, rev: number | undefined): Promise<boolean> {
    return won(
      this.table.delete(
        ledgerKey(connectionId, entry),
        rev === undefined
          ? { and: [{ itemExists: true }, { attr: 'rev', exists: false }] }
          : { attr: 'rev', op: '=', value: rev },
      ),
    );
  }

  async isEmpty(connectionId: string): Promise<boolean> {
    return (await this.page(connectionId, { limit: 1 })).items.length === 0;
  }

  getExport(connectionId: string, destination: string, vaultId: string, objectId: string) {
    return this.table.get<ExportEntryItem>(exportKey(connectionId, destination, vaultId, objectId));
  }

  async recordExport(entry: ExportEntryRecord): Promise<void> {
    await this.table.put({
      ...exportKey(entry.connectionId, entry.destination, entry.vaultId, entry.objectId),
      ...entry,
    });
  }

  /**
   * Claims a file name in a destination for one document: true when the name is free or already its
   * own. Two documents never take the same name, so an export never overwrites another's file.
   */
  claimName(
    connectionId: string,
    destination: string,
    name: string,
    owner: { vaultId: string; objectId: string },
  ) {
    return won(
      this.table.put(
        { ...nameKey(connectionId, destination, name), ...owner },
        {
          or: [
            { itemExists: false },
            {
              and: [
                { attr: 'vaultId', op: '=', value: owner.vaultId },
                { attr: 'objectId', op: '=', value: owner.objectId },
              ],
            },
          ],
        },
      ),
    );
  }
}
