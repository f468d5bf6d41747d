// Import links: a provider container (a matter, a folder) synced into a vault, on demand or on a
// schedule. Records in the connectors table:
//   ILINK#<link> / ILINK    the link (gsi1: its connection's links, newest first; gsi2, while scheduled:
//                           the sync sweep's due index, SYNC_DUE#<shard> / <next run ISO>#LINK#<link>)
// A link keeps the provider's cursor of its last complete pass: the next run lists only what changed.
import { createHash } from 'node:crypto';
import { isoTime } from '../../platform/clock';
import type { Deps } from '../../platform/ports';
import {
  ConditionFailedError,
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  won,
} from '../../platform/errors';
import { isId, newId } from '../../platform/ids';
import type { Logger } from '../../platform/logger';
import type { Pagination } from '../../platform/pagination';
import { queryAll, queryWindow } from '../../platform/pagination';
import type { Item, Table } from '../../platform/ports';
import type { ConnectorConfig } from '../infra/config';
import type { ProviderId } from '../domain/providers';
import type { ImportLinkView } from '../api/views';

export type { ImportLinkView };
import { nextScheduledRun } from '../domain/sync-policy';
import { owned } from './connections';
import type { JobStatus } from './jobs';
import { apiErrorOf, contentFor, requireUsable, withProvider } from './provider-calls';
import { Ledger } from './ledger';
import { ConnectorStore } from './store';

export interface SyncCounts {
  listed: number;
  imported: number;
  updated: number;
  unchanged: number;
  failed: number;
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
  schedule?: { everyMinutes: number };
  /** While scheduled: when the sweep starts the next run (epoch ms). */
  nextRunAt?: number;
  /** The provider's cursor after the last complete pass. */
  cursor?: string;
  /** The run in flight: one at a time per link. */
  activeRunId?: string;
  lastRun?: { jobId: string; status: JobStatus; reason?: string; finishedAt: number; counts: SyncCounts };
  /** The last scheduled run that did not start, and why (recorded, not lost). */
  lastSkip?: { at: number; reason: string };
  createdAt: number;
  updatedAt: number;
}

export type ImportLinkItem = Item & ImportLinkRecord;

export const linkKey = (id: string) => ({ pk: `ILINK#${id}`, sk: 'ILINK' });
const connectionLinks = (connectionId: string) => `CONN#${connectionId}#ILINKS`;

/** The sync sweep's due index is spread over a few partitions, as the token sweep's is. */
export const SYNC_DUE_SHARDS = 4;
export const syncDuePartition = (shard: number) => `SYNC_DUE#${shard}`;
const shardOf = (id: string) => createHash('sha256').update(id).digest()[0]! % SYNC_DUE_SHARDS;

/** Index attributes that make a link (or a job) come due for the sync sweep at `dueAt` (ms). */
export function syncDueEntry(kind: 'LINK' | 'JOB', id: string, dueAt: number) {
  return { gsi2pk: syncDuePartition(shardOf(id)), gsi2sk: `${isoTime(dueAt)}#${kind}#${id}` };
}

export function linkView(link: ImportLinkRecord): ImportLinkView {
  return {
    id: link.id,
    connection_id: link.connectionId,
    vault_id: link.vaultId,
    source: { id: link.sourceId, name: link.sourceName ?? null },
    schedule: link.schedule ? { every_minutes: link.schedule.everyMinutes } : null,
    status: link.activeRunId ? 'running' : 'idle',
    active_run_id: link.activeRunId ?? null,
    last_run: link.lastRun
      ? {
          job_id: link.lastRun.jobId,
          status: link.lastRun.status,
          ...(link.lastRun.reason ? { reason: link.lastRun.reason } : {}),
          finished_at: isoTime(link.lastRun.finishedAt),
          counts: link.lastRun.counts,
        }
      : null,
    next_run_at: link.schedule && link.nextRunAt !== undefined ? isoTime(link.nextRunAt) : null,
    last_skipped: link.lastSkip ? { at: isoTime(link.lastSkip.at), reason: link.lastSkip.reason } : null,
    created_at: isoTime(link.createdAt),
    updated_at: isoTime(link.updatedAt),
  };
}

export class Links {
  constructor(private readonly table: Table) {}

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

  /** Updates a link that still exists; undefined when it does not (deleted meanwhile) or `condition` fails. */
  async update(
    id: string,
    update: { set?: Record<string, unknown>; remove?: string[] },
    condition?: Parameters<Table['update']>[2],
  ): Promise<ImportLinkItem | undefined> {
    try {
      return await this.table.update<ImportLinkItem>(
        linkKey(id),
        update,
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

export interface CreateLinkInput {
  vault_id: string;
  source: { id: string; name?: string };
  schedule?: { every_minutes: number };
}

/**
 * Creates an import link after checking, through the connection, that the source exists at the
 * provider. A scheduled link comes due at once: its first run starts at the next sweep.
 */
export async function createLink(
  deps: Deps,
  config: ConnectorConfig,
  organizationId: string,
  connectionId: string,
  input: CreateLinkInput,
  log: Logger,
): Promise<ImportLinkView> {
  const connection = await owned(new ConnectorStore(deps.tables.connectors), organizationId, connectionId);
  await requireUsable(deps, connection);
  const links = new Links(deps.tables.connectors);
  const twin = (await links.all(connectionId)).find(
    (l) => l.vaultId === input.vault_id && l.sourceId === input.source.id,
  );
  if (twin) throw new ConflictError(`Import link ${twin.id} already syncs this source into this vault`);
  const api = contentFor(config, connection.provider);
  try {
    await withProvider(deps, config, connection.id, log, (token) =>
      api.checkContainer(token, input.source.id),
    );
  } catch (error) {
    throw apiErrorOf(
      error,
      deps.clock.now(),
      new InvalidRequestError(
        `source.id: the provider has no container ${input.source.id} this account can see (GET /connectors/v1/connections/${connectionId}/sources lists them)`,
      ),
    );
  }
  const now = deps.clock.now();
  const link: ImportLinkRecord = {
    id: newId('lnk'),
    organizationId,
    connectionId,
    provider: connection.provider,
    vaultId: input.vault_id,
    sourceId: input.source.id,
    ...(input.source.name ? { sourceName: input.source.name } : {}),
    ...(input.schedule ? { schedule: { everyMinutes: input.schedule.every_minutes }, nextRunAt: now } : {}),
    createdAt: now,
    updatedAt: now,
  };
  await links.put(link);
  log.info('import link created', { linkId: link.id, connectionId, scheduled: Boolean(link.schedule) });
  return linkView(link);
}

export async function getLink(deps: Deps, organizationId: string, id: string): Promise<ImportLinkView> {
  return linkView(await new Links(deps.tables.connectors).owned(organizationId, id));
}

export async function listLinks(deps: Deps, organizationId: string, connectionId: string, page: Pagination) {
  await owned(new ConnectorStore(deps.tables.connectors), organizationId, connectionId);
  const window = await new Links(deps.tables.connectors).list(connectionId, page);
  return {
    data: window.items.map(linkView),
    limit: page.limit,
    offset: page.offset,
    has_more: window.hasMore,
  };
}

/**
 * Deletes a link: no more runs or scheduled syncs. The documents it imported stay, and so does its
 * ledger, so a purge of the connection still finds them. A run in flight stops at its next step.
 */
export async function deleteLink(deps: Deps, organizationId: string, id: string, log: Logger): Promise<void> {
  const links = new Links(deps.tables.connectors);
  const link = await links.owned(organizationId, id);
  await links.delete(link.id);
  log.info('import link deleted', { linkId: link.id, activeRunId: link.activeRunId });
}

/** The documents a link imported: its ledger, newest key order, as the API shows it. */
export async function listLinkDocuments(
  deps: Deps,
  organizationId: string,
  linkId: string,
  page: Pagination,
) {
  const link = await new Links(deps.tables.connectors).owned(organizationId, linkId);
  const window = await new Ledger(deps.tables.connectors).listForLink(link.connectionId, link.id, page);
  return {
    data: window.items.map((entry) => ({
      document_id: entry.objectId,
      vault_id: entry.vaultId,
      source: { id: entry.sourceId, name: entry.name, version: entry.sourceVersion ?? null },
      vault_version: entry.vaultVersion ?? null,
      status: entry.sourceDeletedAt
        ? ('deleted_at_source' as const)
        : entry.sourceVersion
          ? ('imported' as const)
          : ('importing' as const),
      imported_at: isoTime(entry.importedAt),
      updated_at: isoTime(entry.updatedAt),
    })),
    limit: page.limit,
    offset: page.offset,
    has_more: window.hasMore,
  };
}

/** The next scheduled run after now, for a link whose schedule advanced (started or skipped). */
export const advanceSchedule = (link: ImportLinkRecord, now: number) =>
  link.schedule
    ? {
        nextRunAt: nextScheduledRun(now, link.schedule.everyMinutes),
        ...syncDueEntry('LINK', link.id, nextScheduledRun(now, link.schedule.everyMinutes)),
      }
    : {};
