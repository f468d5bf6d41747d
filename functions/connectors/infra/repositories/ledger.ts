// The ledgers, in the connectors table under the connection's partition:
//   CONN#<connection> / LEDGER#<link>#<vault>#<object>   one vault document an import link brought in:
//                                                         the provider file and the version imported
//   CONN#<connection> / EXPORT#<dest>#<vault>#<object>   one vault document exported to a destination
//   CONN#<connection> / EXPNAME#<dest>#<name>            which document holds a file name there
// An import ledger entry is also in its link's change feed (gsi1 ILINK#<link>#CHANGES / <updated ISO>#
// <object>): every write of an entry moves it there, deletions at the provider included.
// The import ledger is what a purge deletes from the vault. An entry is written once per stored
// document, after the document: no entry is written for content that is not there. What a purge finds
// before that is the file's record of another kind: for a file the link imported before, its entry
// (the run's write of the new version is conditional on the revision it read, so an entry a purge
// removed or changed meanwhile is never written again); for a new file, its hold (file-holds.ts), taken
// before the document is written and naming the run. Entries written by earlier versions may carry the
// mark of a run writing their document (pendingJobId): a purge still leaves those while that run is
// in flight.
import { won } from '../../../platform/errors';
import type { Pagination, Window } from '../../../platform/pagination';
import { positionCursor, queryWindow } from '../../../platform/pagination';
import { isoTime } from '../../../platform/clock';
import type { Condition, Item, Page, Table, Deps } from '../../../platform/ports';
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
  /** Gone at the provider (the vault document stays unless the link's policy removes it). */
  sourceDeletedAt?: number;
  /** The last full run that saw the file unchanged (what its reconcile does not mark deleted). */
  seenByJobId?: string;
  /** The run that saw the deletion (a retried step counts it as that run did). */
  deletedByJobId?: string;
  /** The document was removed from the vault because the file was deleted (the link's policy). */
  removedAt?: number;
  /** The run that last stored it, and what that was: a retried step counts the file as it did. */
  lastJobId?: string;
  lastOutcome?: ImportOutcome;
  /** Which step of that run (the run's committed steps then): a run failing at a step counts its files. */
  lastStep?: number;
  /** On entries written by earlier versions: the run writing the document then (cleared with its version). */
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
  /** The provider's version of that file as our upload left it (absent on entries written before exports recorded it). */
  providerVersion?: string;
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

/** The index entry of a ledger entry in its link's change feed, as of its write at `at`. */
const changeEntry = (linkId: string, objectId: string, at: number) => ({
  gsi1pk: linkChanges(linkId),
  gsi1sk: `${isoTime(at)}#${objectId}`,
});
const linkChanges = (linkId: string) => `ILINK#${linkId}#CHANGES`;

/** The entry is there at revision `rev` (entries written before revisions were kept have none). */
const unchangedSince = (rev: number | undefined): Condition =>
  rev === undefined
    ? { and: [{ itemExists: true }, { attr: 'rev', exists: false }] }
    : { attr: 'rev', op: '=', value: rev };

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

  /** The entries of many provider files of one link at once (a page's), by provider file id; consistent. */
  async entriesFor(
    link: { id: string; connectionId: string; vaultId: string },
    sourceIds: string[],
  ): Promise<Map<string, LedgerEntryItem>> {
    const keys = sourceIds.map((sourceId) => ledgerKey(link.connectionId, this.entryFor(link, sourceId).ref));
    const items = await this.table.getMany<LedgerEntryItem>(keys);
    return new Map(items.map((item) => [item.sourceId, item]));
  }

  get(connectionId: string, ref: LedgerEntryRef): Promise<LedgerEntryItem | undefined> {
    return this.table.get<LedgerEntryItem>(ledgerKey(connectionId, ref));
  }

  /**
   * The document now holds `sourceVersion` (its vault version stored): later runs count the file
   * unchanged until it changes. One write: over `prior`, the entry as the run read it (false when a
   * purge removed it or another writer changed it since); without one, a new entry (false when one
   * was written meanwhile).
   */
  recordImported(
    entry: Omit<LedgerEntryRecord, 'updatedAt' | 'importedAt'>,
    stored: {
      name: string;
      sourceVersion: string;
      vaultVersion: number;
      jobId: string;
      outcome: ImportOutcome;
      step?: number;
    },
    prior: LedgerEntryItem | undefined,
    now: number,
  ): Promise<boolean> {
    const key = ledgerKey(entry.connectionId, entry);
    const version = {
      name: stored.name,
      sourceVersion: stored.sourceVersion,
      vaultVersion: stored.vaultVersion,
      lastJobId: stored.jobId,
      lastOutcome: stored.outcome,
      ...(stored.step !== undefined ? { lastStep: stored.step } : {}),
      updatedAt: now,
      ...changeEntry(entry.linkId, entry.objectId, now),
    };
    if (!prior)
      return won(
        this.table.put({ ...key, ...entry, ...version, rev: 1, importedAt: now }, { itemExists: false }),
      );
    return won(
      this.table.update(
        key,
        {
          set: version,
          remove: [
            'sourceDeletedAt',
            'deletedByJobId',
            'removedAt',
            'pendingJobId',
            ...(stored.step === undefined ? ['lastStep'] : []),
          ],
          add: { rev: 1 },
        },
        unchangedSince(prior.rev),
      ),
    );
  }

  /** The file is gone at the provider (seen by `jobId`); `removed` when its document left the vault. */
  async recordSourceDeleted(
    connectionId: string,
    ref: LedgerEntryRef,
    deletion: { jobId: string; removed: boolean },
    now: number,
  ): Promise<void> {
    await won(
      this.table.update(
        ledgerKey(connectionId, ref),
        {
          set: {
            sourceDeletedAt: now,
            deletedByJobId: deletion.jobId,
            ...(deletion.removed ? { removedAt: now } : {}),
            updatedAt: now,
            ...changeEntry(ref.linkId, ref.objectId, now),
          },
        },
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

  /**
   * A link's entries in the order they last changed (its change feed), from `page.cursor` on, those
   * changed at or before `horizon` only.
   */
  changesForLink(linkId: string, page: Pagination, horizon: number): Promise<Window<LedgerEntryItem>> {
    return queryWindow<LedgerEntryItem>(
      this.table,
      { index: 'gsi1', partition: linkChanges(linkId) },
      page,
      (entry) => entry.updatedAt <= horizon,
    );
  }

  /** The feed position just before the changes made at `at` (epoch ms). */
  static changesSince(at: number): string {
    return positionCursor({ index: 'gsi1' }, `${isoTime(at)}#`);
  }

  /** A full run saw the file at the version held; a new name is a change (a rename). */
  async markSeen(
    connectionId: string,
    entry: LedgerEntryRecord,
    seen: { jobId: string; name: string },
    now: number,
  ): Promise<void> {
    const renamed = seen.name !== entry.name;
    await won(
      this.table.update(
        ledgerKey(connectionId, entry),
        {
          set: {
            seenByJobId: seen.jobId,
            ...(renamed
              ? { name: seen.name, updatedAt: now, ...changeEntry(entry.linkId, entry.objectId, now) }
              : {}),
          },
        },
        { itemExists: true },
      ),
    );
  }

  /** One page (100) of a link's entries from the table's `cursor`, consistent (a reconcile reads its own marks). */
  linkPage(connectionId: string, linkId: string, cursor?: string): Promise<Page<LedgerEntryItem>> {
    return this.table.query<LedgerEntryItem>({
      partition: partition(connectionId),
      beginsWith: `LEDGER#${linkId}#`,
      limit: 100,
      cursor,
      consistent: true,
    });
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
    return won(this.table.delete(ledgerKey(connectionId, entry), unchangedSince(rev)));
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

  /** Which document's export holds a file name in a destination, as far as this service knows. */
  async nameHolder(
    connectionId: string,
    destination: string,
    name: string,
  ): Promise<{ vaultId: string; objectId: string } | undefined> {
    const item = await this.table.get<Item & { vaultId: string; objectId: string }>(
      nameKey(connectionId, destination, name),
    );
    return item && { vaultId: item.vaultId, objectId: item.objectId };
  }

  /** Records that a document's export now holds the name (after the provider took the upload). */
  async holdName(
    connectionId: string,
    destination: string,
    name: string,
    owner: { vaultId: string; objectId: string },
  ): Promise<void> {
    await this.table.put({ ...nameKey(connectionId, destination, name), ...owner });
  }
}
