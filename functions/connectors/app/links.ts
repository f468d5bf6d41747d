// Import links: a provider container (a matter, a folder) synced into a vault, on demand or on a
// schedule (stored by infra/repositories/import-links.ts).
// A link keeps the provider's cursor of its last complete pass: the next run lists only what changed.
import { isoTime } from '../../platform/clock';
import type { Deps } from '../../platform/ports';
import { ConflictError, InvalidRequestError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import type { Logger } from '../../platform/logger';
import type { Pagination } from '../../platform/pagination';
import type { ImportLinkView } from '../api/views';

export type { ImportLinkView };
import { editLink } from '../domain/link-edit';
import { DEFAULT_RECONCILE_HOURS, FEED_SETTLE_MS, nextScheduledRun } from '../domain/sync-policy';
import { owned } from './connections';
import { apiErrorOf, containersFor, requireUsable } from './provider-calls';
import type { ConnectorContext } from './context';
import { Ledger } from '../infra/repositories/ledger';
import type { LedgerEntryItem } from '../infra/repositories/ledger';
import { ConnectionRepository } from '../infra/repositories/connections';
import type { ImportLinkItem, ImportLinkRecord } from '../infra/repositories/import-links';
import { Links } from '../infra/repositories/import-links';

export type { ImportLinkItem, ImportLinkRecord, SyncCounts } from '../infra/repositories/import-links';

export function linkView(link: ImportLinkRecord): ImportLinkView {
  return {
    id: link.id,
    connection_id: link.connectionId,
    vault_id: link.vaultId,
    source: { id: link.sourceId, name: link.sourceName ?? null },
    label: link.label ?? null,
    on_source_delete: link.onSourceDelete ?? 'keep',
    schedule: link.schedule ? { every_minutes: link.schedule.everyMinutes } : null,
    reconcile_every_hours: link.reconcileEveryHours ?? DEFAULT_RECONCILE_HOURS,
    paused: link.pausedAt !== undefined,
    status: link.activeRunId ? 'running' : link.sourceMissingAt !== undefined ? 'source_missing' : 'idle',
    active_run_id: link.activeRunId ?? null,
    last_run: link.lastRun
      ? {
          job_id: link.lastRun.jobId,
          status: link.lastRun.status,
          ...(link.lastRun.reason ? { reason: link.lastRun.reason } : {}),
          finished_at: isoTime(link.lastRun.finishedAt),
          counts: { ...link.lastRun.counts, deleted: link.lastRun.counts.deleted ?? 0 },
        }
      : null,
    next_run_at:
      link.schedule && link.nextRunAt !== undefined && link.pausedAt === undefined
        ? isoTime(link.nextRunAt)
        : null,
    last_skipped: link.lastSkip ? { at: isoTime(link.lastSkip.at), reason: link.lastSkip.reason } : null,
    created_at: isoTime(link.createdAt),
    updated_at: isoTime(link.updatedAt),
  };
}

export interface CreateLinkInput {
  vault_id: string;
  source: { id: string; name?: string };
  label?: string;
  schedule?: { every_minutes: number };
  on_source_delete?: 'keep' | 'remove';
  reconcile_every_hours?: number;
}

/**
 * Creates an import link after checking, through the connection, that the source exists at the
 * provider. A scheduled link comes due at once: its first run starts at the next sweep.
 */
export async function createLink(
  ctx: ConnectorContext,
  organizationId: string,
  connectionId: string,
  input: CreateLinkInput,
): Promise<ImportLinkView> {
  const { deps, config, log } = ctx;
  const connection = await owned(ConnectionRepository.of(deps), organizationId, connectionId);
  await requireUsable(deps, connection);
  const links = Links.of(deps);
  const twin = (await links.all(connectionId)).find(
    (l) => l.vaultId === input.vault_id && l.sourceId === input.source.id,
  );
  if (twin) throw new ConflictError(`Import link ${twin.id} already syncs this source into this vault`);
  const api = await containersFor(config, connection);
  try {
    await ctx.connection(connection.id).call((token) => api.checkContainer(token, input.source.id));
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
    ...(input.label ? { label: input.label } : {}),
    ...(input.on_source_delete === 'remove' ? { onSourceDelete: 'remove' as const } : {}),
    ...(input.reconcile_every_hours !== undefined
      ? { reconcileEveryHours: input.reconcile_every_hours }
      : {}),
    ...(input.schedule ? { schedule: { everyMinutes: input.schedule.every_minutes }, nextRunAt: now } : {}),
    createdAt: now,
    updatedAt: now,
  };
  await links.put(link);
  log.info('import link created', { linkId: link.id, connectionId, scheduled: Boolean(link.schedule) });
  return linkView(link);
}

export async function getLink(deps: Deps, organizationId: string, id: string): Promise<ImportLinkView> {
  return linkView(await Links.of(deps).owned(organizationId, id));
}

export async function listLinks(deps: Deps, organizationId: string, connectionId: string, page: Pagination) {
  await owned(ConnectionRepository.of(deps), organizationId, connectionId);
  const window = await Links.of(deps).list(connectionId, page);
  return {
    data: window.items.map(linkView),
    limit: page.limit,
    offset: page.offset,
    has_more: window.hasMore,
  };
}

export interface UpdateLinkInput {
  schedule?: { every_minutes: number } | null;
  paused?: boolean;
  label?: string | null;
  on_source_delete?: 'keep' | 'remove';
  reconcile_every_hours?: number;
}

/**
 * Edits a link in place (schedule, pause/resume, label): its id, ledger and cursor stay, so its
 * documents keep their ids and the next run imports only what changed. A run in flight is not
 * stopped by a pause (as with the provider switch); it finishes. The change is applied over the
 * version read (updatedAt), read again when a run or the sweep moved the link meanwhile.
 */
export async function updateLink(
  deps: Deps,
  organizationId: string,
  id: string,
  input: UpdateLinkInput,
  log: Logger,
): Promise<ImportLinkView> {
  const links = Links.of(deps);
  const edit = {
    ...(input.schedule !== undefined
      ? { schedule: input.schedule && { everyMinutes: input.schedule.every_minutes } }
      : {}),
    ...(input.paused !== undefined ? { paused: input.paused } : {}),
    ...(input.label !== undefined ? { label: input.label } : {}),
    ...(input.on_source_delete !== undefined ? { onSourceDelete: input.on_source_delete } : {}),
    ...(input.reconcile_every_hours !== undefined
      ? { reconcileEveryHours: input.reconcile_every_hours }
      : {}),
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    const link = await links.owned(organizationId, id);
    const change = editLink(link, edit, Math.max(deps.clock.now(), link.updatedAt + 1));
    const updated = await links.update(link.id, change, {
      attr: 'updatedAt',
      op: '=',
      value: link.updatedAt,
    });
    if (updated) {
      log.info('import link updated', { linkId: id, fields: Object.keys(input) });
      return linkView(updated);
    }
  }
  throw new ConflictError('The import link kept changing while it was edited; retry');
}

/**
 * Deletes a link: no more runs or scheduled syncs. The documents it imported stay, and so does its
 * ledger, so a purge of the connection still finds them. A run in flight stops at its next step.
 */
export async function deleteLink(deps: Deps, organizationId: string, id: string, log: Logger): Promise<void> {
  const links = Links.of(deps);
  const link = await links.owned(organizationId, id);
  await links.delete(link.id);
  log.info('import link deleted', { linkId: link.id, activeRunId: link.activeRunId });
}

/**
 * A ledger entry as the API shows it: the provider file and the vault document it became. A live
 * document of a link whose container is gone is `source_missing`, not `imported`: nothing vouches for it.
 */
const linkDocumentView = (link: ImportLinkItem) => (entry: LedgerEntryItem) => ({
  document_id: entry.objectId,
  vault_id: entry.vaultId,
  source: { id: entry.sourceId, name: entry.name, version: entry.sourceVersion ?? null },
  vault_version: entry.vaultVersion ?? null,
  status: entry.removedAt
    ? ('removed_from_vault' as const)
    : entry.sourceDeletedAt
      ? ('deleted_at_source' as const)
      : link.sourceMissingAt !== undefined
        ? ('source_missing' as const)
        : entry.sourceVersion
          ? ('imported' as const)
          : ('importing' as const),
  imported_at: isoTime(entry.importedAt),
  updated_at: isoTime(entry.updatedAt),
});

/**
 * The documents a link imported (its ledger, in key order), or with `changed_since` its change feed:
 * the documents changed after that point, oldest change first, deletions at the provider included.
 */
export async function listLinkDocuments(
  deps: Deps,
  organizationId: string,
  linkId: string,
  page: Pagination & { changed_since?: string },
) {
  const link = await Links.of(deps).owned(organizationId, linkId);
  if (page.changed_since !== undefined) return changeFeed(deps, link, page, page.changed_since);
  const window = await Ledger.of(deps).listForLink(link.connectionId, link.id, page);
  return {
    data: window.items.map(linkDocumentView(link)),
    limit: page.limit,
    offset: page.offset,
    has_more: window.hasMore,
    next_cursor: window.next ?? null,
  };
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A page of the link's change feed from `since` (an ISO time, or the feed's own next_cursor), served up
 * to FEED_SETTLE_MS ago. next_cursor is where the next request starts, at the end of the feed too.
 */
async function changeFeed(deps: Deps, link: ImportLinkItem, page: Pagination, since: string) {
  if (page.cursor !== undefined || page.offset > 0)
    throw new InvalidRequestError(
      'changed_since: the change feed is paged by changed_since itself (each next_cursor); not with cursor or offset',
    );
  let position = since;
  if (ISO_TIME.test(since)) {
    const at = Date.parse(since);
    if (Number.isNaN(at)) throw new InvalidRequestError('changed_since: not a valid time');
    position = Ledger.changesSince(at);
  }
  const window = await Ledger.of(deps).changesForLink(
    link.id,
    { limit: page.limit, offset: 0, cursor: position },
    deps.clock.now() - FEED_SETTLE_MS,
  );
  return {
    data: window.items.map(linkDocumentView(link)),
    limit: page.limit,
    offset: 0,
    has_more: window.hasMore,
    next_cursor: window.after ?? position,
  };
}

/** The next scheduled run after now, for a link whose schedule advanced (started or skipped). */
export const advanceSchedule = (link: ImportLinkRecord, now: number) =>
  link.schedule
    ? {
        nextRunAt: nextScheduledRun(now, link.schedule.everyMinutes),
      }
    : {};
