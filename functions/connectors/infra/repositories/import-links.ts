// Import links over the Table port (the connectors table). The only code that knows their keys:
//   ILINK#<link> / ILINK    the link (gsi1: its connection's links, newest first, CONN#<connection>#ILINKS;
//                           gsi2 while scheduled: the sync sweep's due index, sync-due.ts)
import { isoTime } from '../../../platform/clock';
import { ConditionFailedError, NotFoundError, won } from '../../../platform/errors';
import { isId } from '../../../platform/ids';
import type { Pagination } from '../../../platform/pagination';
import { queryAll, queryWindow } from '../../../platform/pagination';
import type { Item, Table, Deps } from '../../../platform/ports';
import type { ProviderId } from '../../domain/providers';
import type { JobStatus } from './jobs';
import { SYNC_DUE_ATTRIBUTES, syncDueEntry } from './sync-due';

export interface SyncCounts {
  listed: number;
  imported: number;
  updated: number;
  unchanged: number;
  failed: number;
  /** Files deleted at the provider whose documents the run marked (absent on runs before it was counted). */
  deleted: number;
}

export interface ImportLinkRecord {
  id: string;
  organizationId: string;
  connectionId: string;
  provider: ProviderId;
  vaultId: string;
  /** The provider container synced (a matter, a folder). */
  sourceId: string;
  /** A label for people, as the client named the source. */
  sourceName?: string;
  /** The link's own label, for people (PATCH sets or removes it). */
  label?: string;
  schedule?: { everyMinutes: number };
  /** While scheduled and not paused: when the sweep starts the next run (epoch ms). */
  nextRunAt?: number;
  /** Paused since (epoch ms): out of the schedule, and new runs are refused until it is resumed. */
  pausedAt?: number;
  /** What a file deleted at the provider does to its document: kept and marked (default), or removed. */
  onSourceDelete?: 'remove';
  /** The provider's cursor after the last complete pass. */
  cursor?: string;
  /** A reconciling (full) run at least this often; DEFAULT_RECONCILE_HOURS when absent. */
  reconcileEveryHours?: number;
  /** When the listing of the last successful full run began (epoch ms). */
  reconciledAt?: number;
  /** Since when the linked container is gone at the provider (deleted, or out of the grant's reach). */
  sourceMissingAt?: number;
  /** The run in flight: one at a time per link. */
  activeRunId?: string;
  lastRun?: { jobId: string; status: JobStatus; reason?: string; finishedAt: number; counts: SyncCounts };
  /** The last scheduled run that did not start, and why (recorded, not lost). */
  lastSkip?: { at: number; reason: string };
  createdAt: number;
  updatedAt: number;
}

export type ImportLinkItem = Item & ImportLinkRecord;

const linkKey = (id: string) => ({ pk: `ILINK#${id}`, sk: 'ILINK' });
const connectionLinks = (connectionId: string) => `CONN#${connectionId}#ILINKS`;

/** A link is in the sync sweep's index exactly while it has a next run: the entry follows nextRunAt. */
function withDueEntry(id: string, update: { set?: Record<string, unknown>; remove?: string[] }) {
  const nextRunAt = update.set?.nextRunAt;
  return {
    set: { ...update.set, ...(typeof nextRunAt === 'number' ? syncDueEntry('LINK', id, nextRunAt) : {}) },
    remove: [...(update.remove ?? []), ...(update.remove?.includes('nextRunAt') ? SYNC_DUE_ATTRIBUTES : [])],
  };
}

export class Links {
  constructor(private readonly table: Table) {}

  /** The repository over the connectors table of a composition's ports. */
  static of(deps: Pick<Deps, 'tables'>): Links {
    return new Links(deps.tables.connectors);
  }

  get(id: string): Promise<ImportLinkItem | undefined> {
    return isId('lnk', id) ? this.table.get<ImportLinkItem>(linkKey(id)) : Promise.resolve(undefined);
  }

  /** The organization's link; another organization's id reads as not found. */
  async owned(organizationId: string, id: string): Promise<ImportLinkItem> {
    const link = await this.get(id);
    if (!link || link.organizationId !== organizationId) throw new NotFoundError('Import link not found');
    return link;
  }

  async put(link: ImportLinkRecord): Promise<void> {
    await this.table.put(
      {
        ...linkKey(link.id),
        gsi1pk: connectionLinks(link.connectionId),
        gsi1sk: `${isoTime(link.createdAt)}#${link.id}`,
        ...(link.nextRunAt !== undefined ? syncDueEntry('LINK', link.id, link.nextRunAt) : {}),
        ...link,
      },
      { itemExists: false },
    );
  }

  list(connectionId: string, page: Pagination) {
    return queryWindow<ImportLinkItem>(
      this.table,
      { index: 'gsi1', partition: connectionLinks(connectionId), descending: true },
      page,
    );
  }

  all(connectionId: string): Promise<ImportLinkItem[]> {
    return queryAll<ImportLinkItem>(this.table, { index: 'gsi1', partition: connectionLinks(connectionId) });
  }

  /**
   * Updates a link that still exists; undefined when it does not (deleted meanwhile) or `condition`
   * fails. Setting nextRunAt moves the link's sweep entry; removing it takes the link out of the sweep.
   */
  async update(
    id: string,
    update: { set?: Record<string, unknown>; remove?: string[] },
    condition?: Parameters<Table['update']>[2],
  ): Promise<ImportLinkItem | undefined> {
    try {
      return await this.table.update<ImportLinkItem>(
        linkKey(id),
        withDueEntry(id, update),
        condition ? { and: [{ itemExists: true }, condition] } : { itemExists: true },
      );
    } catch (error) {
      if (error instanceof ConditionFailedError) return undefined;
      throw error;
    }
  }

  /** One run at a time: true when this run became the link's active run. */
  claimRun(id: string, jobId: string, now: number): Promise<boolean> {
    return won(
      this.table.update(
        linkKey(id),
        { set: { activeRunId: jobId, updatedAt: now } },
        { and: [{ itemExists: true }, { attr: 'activeRunId', exists: false }] },
      ),
    );
  }

  async delete(id: string): Promise<void> {
    await this.table.delete(linkKey(id));
  }
}
