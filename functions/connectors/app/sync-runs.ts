// Import runs (sync runs): a pass over an import link's source at the provider, through its changes
// feed from the link's cursor, downloading each new or changed file into the vault, recording it in the
// link's ledger, and moving the link's cursor when the pass is complete. A run is a job of stepped
// messages (./job-steps.ts): one page of the feed per step, durable across worker crashes, one run
// at a time per link.
import type { Readable } from 'node:stream';
import { finished } from 'node:stream';
import type { PublishInput } from '../../events';
import { publishEvent, publishEvents } from '../../events';
import { ByteLimit, StreamTooLargeError } from '../../platform/digest';
import type { Deps } from '../../platform/ports';
import { ConditionFailedError, ConflictError, NotFoundError } from '../../platform/errors';
import { derivedId, newId } from '../../platform/ids';
import type { Logger } from '../../platform/logger';
import { emitMetrics } from '../../platform/metrics';
import type { Pagination } from '../../platform/pagination';
import type { ChangedFile, ContentApi } from '../infra/content';
import { FeedRestartError, ProviderApiError, ProviderBody } from '../infra/content';
import {
  MAX_FILE_BYTES,
  MAX_RECORDED_FAILURES,
  SYNC_CONCURRENCY,
  SYNC_PAGE_SIZE,
  STALE_JOB_MS,
  failureMessage,
  ingestEventId,
} from '../domain/sync-policy';
import type { FullRunReason } from '../domain/run-decide';
import {
  claimState,
  containerRefused,
  feedRestarted,
  finishOnLink,
  firstStep,
  linkRefusal,
  pageTaken,
  passPosition,
  reconcileTaken,
  startMode,
} from '../domain/run-decide';
import type { SyncJob } from '../api/views';
import type { JobItem, JobStatus } from './jobs';
import type { JobOutcome, StepMessage, SteppedJob, StepResult } from './job-steps';
import { advanceJob, failedEventFields, finishedEventFields, queueStep, steppedJobView } from './job-steps';
import type { ImportOutcome, LedgerEntryItem } from '../infra/repositories/ledger';
import { ImportFencedError, holderOf, importDocument, purgeBegan, whileWriting } from './ledger';
import { Ledger } from '../infra/repositories/ledger';
import type { ImportLinkItem, SyncCounts } from './links';
import { Links } from '../infra/repositories/import-links';
import { JobRepository } from '../infra/repositories/jobs';
import { contentFor, requireUsable, runFailureOf } from './provider-calls';
import type { ConnectorContext } from './context';
import { ConnectionRepository } from '../infra/repositories/connections';

export interface ItemFailure {
  item_id: string;
  name: string;
  reason: 'too_large' | 'not_found_at_provider';
}

/** Counts are top-level attributes, so a step adds to them atomically. */
export interface SyncJobRecord extends SteppedJob, SyncCounts {
  kind: 'sync';
  linkId: string;
  vaultId: string;
  trigger: 'api' | 'schedule';
  /** full: a pass from no cursor (every file the source holds), then a reconcile of the link's ledger. */
  mode?: 'full';
  /**
   * Why a run is full: asked for (`requested`), the provider would not continue from the link's cursor
   * (`feed_restarted`: the run became full at that step), or the link's reconcile period ran out
   * (`reconcile_due`).
   */
  modeReason?: FullRunReason;
  /** The step at which the run's full pass began (a run that became full mid-way: what came before is not the pass). */
  passFrom?: number;
  /** A full run after its pass: marking what the pass did not see (reconcilePage: where in the ledger). */
  phase?: 'reconcile';
  reconcilePage?: string;
  /** A full run's new cursor, kept from the end of its pass to the end of its reconcile. */
  passCursor?: string;
  /** Where the pass is within the provider's feed; absent: at the link's cursor (the pass's start). */
  page?: string;
  /** Steps committed. */
  pages: number;
  failures: ItemFailure[];
}

export type SyncJobItem = JobItem<SyncJobRecord>;

export type { FullRunReason };

/**
 * Whether `entry` was stored by this run's full pass: a run that became full at step `passFrom` counts
 * only what it stored from there (a file stored before and gone since must not pass as seen).
 */
const storedInPass = (entry: LedgerEntryItem, job: SyncJobRecord): boolean =>
  entry.lastJobId === job.id && (entry.lastStep ?? 0) >= (job.passFrom ?? 0);

export function syncRunView(job: SyncJobRecord): SyncJob {
  return {
    ...steppedJobView(job),
    kind: 'sync',
    link_id: job.linkId,
    vault_id: job.vaultId,
    trigger: job.trigger,
    mode: job.mode ?? 'changes',
    ...(job.modeReason ? { mode_reason: job.modeReason } : {}),
    counts: countsOf(job),
    failures: job.failures,
  };
}

export const countsOf = (job: SyncCounts): SyncCounts => ({
  listed: job.listed,
  imported: job.imported,
  updated: job.updated,
  unchanged: job.unchanged,
  failed: job.failed,
  deleted: job.deleted ?? 0, // runs recorded before deletions were counted
});

/** A step stops taking new files once this much of its time is used (the rest finishes the files started). */
const DEFAULT_STEP_BUDGET_MS = 120_000;

/** A step's limits (the worker's defaults unless a caller says less). */
export interface StepLimits {
  /** When the step must stop taking new files (epoch ms by the deps' clock). */
  deadline?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Files larger than this are counted failed (too_large); MAX_FILE_BYTES unless a test says less. */
  maxFileBytes?: number;
}

/**
 * Starts a run of a link, or returns the run already in flight (one at a time per link). Refused (409)
 * when the connection cannot be used or its provider is turned off for the organization.
 */
export async function startRun(
  deps: Deps,
  organizationId: string,
  linkId: string,
  trigger: SyncJobRecord['trigger'],
  log: Logger,
  mode: 'changes' | 'full' = 'changes',
): Promise<{ id: string; status: JobStatus; started: boolean }> {
  const links = Links.of(deps);
  const link = await links.owned(organizationId, linkId);
  if (link.pausedAt !== undefined)
    throw new ConflictError(
      'The import link is paused: resume it (PATCH /connectors/v1/links/{id} {"paused": false}) to run it',
    );
  const connection = await ConnectionRepository.of(deps).get(link.connectionId);
  if (!connection) throw new NotFoundError('Import link not found');
  await requireUsable(deps, connection);
  const active = await activeRun(deps, link);
  if (active) return { id: active.id, status: active.status, started: false };
  const now = deps.clock.now();
  const job: SyncJobRecord = {
    id: newId('job'),
    organizationId,
    kind: 'sync',
    connectionId: link.connectionId,
    status: 'processing',
    linkId: link.id,
    vaultId: link.vaultId,
    trigger,
    ...startMode(mode, link, now),
    listed: 0,
    imported: 0,
    updated: 0,
    unchanged: 0,
    failed: 0,
    deleted: 0,
    pages: 0,
    failures: [],
    ticket: 0,
    attempts: 0,
    createdAt: now,
    updatedAt: now,
  };
  // The job first, then the claim: a crash in between leaves a job the sweep re-drives and the first
  // step fails as superseded, never a link claimed by a run that does not exist.
  const jobs = JobRepository.of(deps);
  await jobs.create(job, { runOf: link.id, heartbeatAt: now + STALE_JOB_MS });
  if (!(await links.claimRun(link.id, job.id, now))) {
    await jobs.delete(job.id);
    const current = await activeRun(deps, (await links.get(link.id)) ?? link);
    if (current) return { id: current.id, status: current.status, started: false };
    throw new ConflictError('Another run of this link is starting; retry');
  }
  await queueStep(deps, job);
  log.info('import run started', { jobId: job.id, linkId: link.id, trigger });
  return { id: job.id, status: 'processing', started: true };
}

/**
 * A scheduled run that did not start, as a run of the link with status `skipped` and the reason (the
 * runs list shows it), and its event. Its id is derived from the link and the due time it skipped, so
 * a sweep repeating the skip (a crash before the link moved on) records it once.
 */
export async function recordSkippedRun(
  deps: Deps,
  link: ImportLinkItem,
  dueAt: number,
  reason: string,
): Promise<void> {
  const now = deps.clock.now();
  const job: SyncJobRecord = {
    id: derivedId('job', `skipped:${link.id}:${dueAt}`),
    organizationId: link.organizationId,
    kind: 'sync',
    connectionId: link.connectionId,
    status: 'skipped',
    reason,
    linkId: link.id,
    vaultId: link.vaultId,
    trigger: 'schedule',
    listed: 0,
    imported: 0,
    updated: 0,
    unchanged: 0,
    failed: 0,
    deleted: 0,
    pages: 0,
    failures: [],
    ticket: 0,
    attempts: 0,
    createdAt: now,
    updatedAt: now,
    finishedAt: now,
  };
  try {
    await JobRepository.of(deps).create(job, { runOf: link.id });
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
  await publishEvent(deps, {
    id: derivedId('evt', `sync:${job.id}:skipped`),
    organizationId: link.organizationId,
    type: 'connector.sync.skipped',
    data: {
      connectionId: link.connectionId,
      provider: link.provider,
      linkId: link.id,
      jobId: job.id,
      vaultId: link.vaultId,
      errorCode: reason,
      message: failureMessage(reason, 'The scheduled run did not start'),
    },
  });
}

/** The link's run in flight; a claim left by a run that already finished is released. */
async function activeRun(deps: Deps, link: ImportLinkItem): Promise<SyncJobItem | undefined> {
  if (!link.activeRunId) return undefined;
  const job = await JobRepository.of(deps).get<SyncJobRecord>(link.activeRunId);
  if (claimState(link, job) === 'keep') return job;
  await Links.of(deps).update(
    link.id,
    { remove: ['activeRunId'] },
    {
      attr: 'activeRunId',
      op: '=',
      value: link.activeRunId,
    },
  );
  return undefined;
}

/** A link's runs, newest first. */
export async function listRuns(deps: Deps, organizationId: string, linkId: string, page: Pagination) {
  const link = await Links.of(deps).owned(organizationId, linkId);
  const window = await JobRepository.of(deps).listRuns<SyncJobRecord>(link.id, page);
  return {
    data: window.items.map(syncRunView),
    limit: page.limit,
    offset: page.offset,
    has_more: window.hasMore,
    next_cursor: window.next ?? null,
  };
}

/** One step of a run, as the syncs queue's worker takes it. */
export function runSyncStep(
  ctx: ConnectorContext,
  message: StepMessage,
  limits: StepLimits = {},
): Promise<void> {
  return advanceJob<SyncJobRecord>(ctx.deps, message, syncSpec(ctx, limits), ctx.log);
}

function syncSpec(ctx: ConnectorContext, limits: StepLimits) {
  const { deps } = ctx;
  return {
    kind: 'sync' as const,
    // A step stores documents only under its lease (./ledger.ts), taken before it reads the fence.
    work: (job: SyncJobRecord) =>
      whileWriting(deps, { connectionId: job.connectionId, jobId: job.id }, () => syncPage(ctx, job, limits)),
    failureOf: runFailureOf,
    finish: (job: SyncJobRecord & { outcome: JobOutcome }) => finishRun(deps, job, ctx.log),
    doneSoFar: (job: SyncJobRecord) => storedInStep(deps, job),
  };
}

/**
 * The documents the run's current step stored (by any attempt of it), by outcome, as their ledger
 * entries record them: a run that ends at this step counts them, so its counts equal what was stored
 * and announced. Each is announced (again): an attempt that stored it may have stopped before its
 * page's events were sent, and no later step of the run will meet it.
 */
async function storedInStep(deps: Deps, job: SyncJobRecord): Promise<Record<string, number>> {
  const add: Record<string, number> = {};
  const announce: PublishInput[] = [];
  const ledger = Ledger.of(deps);
  for await (const entry of ledger.linkEntries(job.connectionId, job.linkId)) {
    if (entry.lastJobId !== job.id || entry.lastStep !== job.pages || !entry.lastOutcome) continue;
    add[entry.lastOutcome] = (add[entry.lastOutcome] ?? 0) + 1;
    add.listed = (add.listed ?? 0) + 1;
    const again = await ingestAgain(deps, job, entry);
    if (again) announce.push(again);
  }
  await publishEvents(deps, announce);
  return add;
}

/** The vault.ingest.completed event of a document stored by `stored` (the ledger's record of it). */
function ingestEvent(
  link: Pick<ImportLinkItem, 'vaultId' | 'organizationId'>,
  stored: { objectId: string; vaultVersion: number; chunkCount: number },
  durationMs: number,
): PublishInput {
  return {
    id: ingestEventId(link.vaultId, stored.objectId, stored.vaultVersion),
    organizationId: link.organizationId,
    type: 'vault.ingest.completed',
    data: {
      vaultId: link.vaultId,
      objectId: stored.objectId,
      durationMs,
      chunkCount: stored.chunkCount,
    },
  };
}

/**
 * The event of a document an earlier attempt of this run stored, from its ledger entry (undefined when
 * the entry records no content stored): the same event id, so fan-out and receivers keep one. The
 * download's duration is not known to a later attempt (0); the chunk count is the vault document's.
 */
async function ingestAgain(
  deps: Deps,
  job: Pick<SyncJobRecord, 'vaultId' | 'organizationId'>,
  entry: LedgerEntryItem,
): Promise<PublishInput | undefined> {
  if (
    entry.vaultVersion === undefined ||
    (entry.lastOutcome !== 'imported' && entry.lastOutcome !== 'updated')
  )
    return undefined;
  const document = await deps.vault.get({
    organizationId: entry.organizationId,
    vaultId: entry.vaultId,
    objectId: entry.objectId,
  });
  return ingestEvent(
    job,
    { objectId: entry.objectId, vaultVersion: entry.vaultVersion, chunkCount: document?.chunkCount ?? 0 },
    0,
  );
}

/** One page of the changes feed: each file imported, updated, counted unchanged or failed. */
async function syncPage(ctx: ConnectorContext, job: SyncJobRecord, limits: StepLimits): Promise<StepResult> {
  const { deps, config, log } = ctx;
  const link = await Links.of(deps).get(job.linkId);
  // Ending here, the run counts what earlier attempts of this step stored.
  const endWith = async (outcome: JobOutcome): Promise<StepResult> => ({
    add: await storedInStep(deps, job),
    outcome,
  });
  const refused = linkRefusal(link, job.id);
  if (refused || !link) return endWith(refused!);
  const connection = await ConnectionRepository.of(deps).get(link.connectionId);
  if (!connection) return endWith({ status: 'failed', reason: 'connection_revoked' });
  if (await purgeBegan(deps, link.connectionId)) return endWith(PURGED);
  if (job.phase === 'reconcile') return reconcile(deps, link, job);
  const api = await contentFor(config, connection);
  // One token read for the step's calls (the feed page and each download), renewed as the context says.
  const { call } = ctx.connection(link.connectionId);
  // The linked container first, once a run: gone (a 404) or out of the grant's reach (a 403 that is not
  // a rate limit), the run fails as source_not_found and its finish shows the link as source_missing.
  // A feed alone may not say so (Graph's delta reports the
  // folder's files deleted; a matter's listing of a deleted matter may be empty).
  if (firstStep(job)) {
    try {
      await call((token) => api.checkContainer(token, link.sourceId));
    } catch (error) {
      const gone = error instanceof ProviderApiError ? containerRefused(error) : undefined;
      if (!gone) throw error;
      return endWith(gone);
    }
  }
  // A full run walks the source from the start: every file it holds now.
  const position = passPosition(job, link.cursor);
  let page;
  try {
    page = await call((token) => api.changes(token, link.sourceId, position, SYNC_PAGE_SIZE));
  } catch (error) {
    const becomesFull = error instanceof FeedRestartError ? feedRestarted(job) : undefined;
    if (!becomesFull) throw error;
    log.warn('provider feed restarted: the run becomes a full run', {
      jobId: job.id,
      linkId: link.id,
      detail: (error as FeedRestartError).detail,
    });
    return becomesFull;
  }

  const deadline = limits.deadline ?? deps.clock.now() + DEFAULT_STEP_BUDGET_MS;
  const maxFileBytes = limits.maxFileBytes ?? MAX_FILE_BYTES;
  const context: ImportContext = { api, call, link, job, log, maxFileBytes, announce: [] };
  let taken;
  try {
    taken = await importFiles(deps, context, page.files, deadline);
  } catch (error) {
    await publishEvents(deps, context.announce);
    throw error;
  }
  // The page's documents are announced in one batch, before the step returns and so before its commit:
  // an attempt that stops before this (a crash) leaves the step to run again, and that attempt
  // announces them again as it meets them (importFile), or as it ends the run (storedInStep).
  await publishEvents(deps, context.announce);
  if (taken.fenced) return endWith(PURGED); // what this step stored before the fence counts
  if (taken.outOfTime) return { again: true };
  const outcomes = taken.outcomes;
  outcomes.push(...(await subtreesDeleted(deps, context, page.files, outcomes)));

  const add: Record<string, number> = { listed: page.files.length, pages: 1, ...countOutcomes(outcomes) };
  const failures = [...job.failures, ...outcomes.flatMap((o) => (o.failure ? [o.failure] : []))].slice(
    0,
    MAX_RECORDED_FAILURES,
  );
  return pageTaken(job, add, { failures }, page.next);
}

interface ImportContext {
  api: ContentApi;
  call: <T>(run: (token: string) => Promise<T>) => Promise<T>;
  link: ImportLinkItem;
  job: SyncJobRecord;
  log: Logger;
  maxFileBytes: number;
  /** The vault.ingest.completed events of the documents this attempt stored (or found stored by an earlier one). */
  announce: PublishInput[];
}

interface FileOutcome {
  outcome: ImportOutcome | 'deleted';
  failure?: ItemFailure;
}

/** A run stops once a purge of its connection began: nothing more is stored. */
const PURGED: JobOutcome = { status: 'failed', reason: 'connection_purged' };

function countOutcomes(outcomes: (FileOutcome | undefined)[]): Record<string, number> {
  const add: Record<string, number> = {};
  for (const taken of outcomes) if (taken) add[taken.outcome] = (add[taken.outcome] ?? 0) + 1;
  return add;
}

/**
 * Imports a page's files a few at a time. `outOfTime`: the deadline came before every file was taken
 * (the step runs again; the files already stored count as they did, through the ledger). `fenced`: a
 * purge began (the outcomes of the files stored before are kept). Any other error is thrown, but only
 * once every file in flight has settled: nothing of this step writes after it returned.
 */
async function importFiles(
  deps: Deps,
  context: ImportContext,
  files: ChangedFile[],
  deadline: number,
): Promise<{ outcomes: FileOutcome[]; outOfTime: boolean; fenced: boolean }> {
  const outcomes: FileOutcome[] = new Array(files.length);
  // The page's ledger entries in one read. A file listed twice in a page is taken a second time only
  // after its first has settled, from its entry as that left it (read again): the page's read is of
  // before either.
  const ledger = Ledger.of(deps);
  const entries = await ledger.entriesFor(
    context.link,
    files.map((file) => file.id),
  );
  const taking = new Map<string, Promise<FileOutcome>>();
  const take = (file: ChangedFile): Promise<FileOutcome> => {
    const earlier = taking.get(file.id);
    const afresh = async () =>
      importFile(deps, context, file, await ledger.entryFor(context.link, file.id).get());
    const taken = earlier
      ? earlier.then(afresh, afresh)
      : importFile(deps, context, file, entries.get(file.id));
    taking.set(file.id, taken);
    return taken;
  };
  let next = 0;
  let outOfTime = false;
  let fenced = false;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < files.length && !fenced && !failure) {
      if (deps.clock.now() > deadline) {
        outOfTime = true;
        return;
      }
      const index = next++;
      try {
        outcomes[index] = await take(files[index]!);
      } catch (error) {
        if (error instanceof ImportFencedError) fenced = true;
        else failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(SYNC_CONCURRENCY, files.length) }, worker));
  if (failure && !fenced) throw failure.error;
  return { outcomes, outOfTime, fenced };
}

/**
 * `body` cut off at `maxBytes` (StreamTooLargeError at the first byte over). A provider body of our
 * HTTP client counts its own bytes; another goes through a ByteLimit joined to it as
 * `pipeline(body, limit)` did (an error or an early end of either destroys the other, a premature
 * close of the body fails the limit) without pipeline's per-call AbortController, whose abort at the
 * end built a DOMException for every file.
 */
function limited(body: Readable, maxBytes: number): Readable {
  if (body instanceof ProviderBody) return body.limitTo(maxBytes);
  const limit = new ByteLimit(maxBytes);
  finished(body, (error) => {
    if (error) limit.destroy(error);
  });
  limit.once('close', () => body.destroy());
  return body.pipe(limit);
}

/** One file of a page, from its ledger entry (`entry`, as the page's read found it; undefined: none). */
async function importFile(
  deps: Deps,
  context: ImportContext,
  file: ChangedFile,
  entry: LedgerEntryItem | undefined,
): Promise<FileOutcome> {
  const { link, job } = context;
  const ledger = Ledger.of(deps);
  // Stored by an earlier attempt of this step, which may have stopped before the page's events left
  // (they leave together, at its end; a committed step's had): announced again, whatever the file is now.
  if (entry?.lastJobId === job.id && (entry.lastStep === undefined || entry.lastStep === job.pages)) {
    const again = await ingestAgain(deps, job, entry);
    if (again) context.announce.push(again);
  }
  if (file.deleted) return sourceDeleted(deps, context, entry);
  // Overlapping links into one vault (a folder and its subfolder): the file is one document, of the
  // link that first imported it; the other link counts it unchanged.
  // The hold also names this run: for a new file it is the record a purge finds until the entry is written.
  if (!entry && (await holderOf(deps, link, file.id, job.id)) !== link.id) return { outcome: 'unchanged' };
  if (entry?.sourceVersion === file.version && !entry.sourceDeletedAt) {
    // A full run marks what it saw; any run takes a new name (a rename keeps the id and the version).
    const unseen = job.mode === 'full' && !storedInPass(entry, job) && entry.seenByJobId !== job.id;
    if (unseen || (file.name && file.name !== entry.name))
      await ledger.markSeen(link.connectionId, entry, { jobId: job.id, name: file.name }, deps.clock.now());
    // Stored by this very run before a retried step: count it as it was counted then.
    return { outcome: entry.lastJobId === job.id && entry.lastOutcome ? entry.lastOutcome : 'unchanged' };
  }
  const failed = (reason: ItemFailure['reason']): FileOutcome => ({
    outcome: 'failed',
    failure: { item_id: file.id, name: file.name, reason },
  });
  if ((file.size ?? 0) > context.maxFileBytes) return failed('too_large');
  // Back at the provider under the same id (deleted and re-created, restored): the same document, new
  // again in the vault when the link's policy had removed it.
  const outcome = entry?.sourceVersion && !entry.removedAt ? 'updated' : 'imported';
  const started = deps.clock.now();
  let download;
  try {
    download = await context.call((token) => context.api.download(token, file.id, file));
  } catch (error) {
    // Deleted at the provider since it was listed: the next pass's feed says so.
    if (error instanceof ProviderApiError && (error.status === 404 || error.status === 410))
      return failed('not_found_at_provider');
    throw error;
  }
  if ((download.size ?? 0) > context.maxFileBytes) {
    download.body.destroy();
    return failed('too_large');
  }
  // A provider that declares no size (or too small a one) is cut off at the limit as it streams.
  const content = limited(download.body, context.maxFileBytes);
  let stored;
  try {
    stored = await importDocument(
      deps,
      link,
      {
        sourceId: file.id,
        name: file.name,
        // What was downloaded, which may be newer than what was listed.
        version: download.version ?? file.version,
        contentType: file.contentType ?? download.contentType,
        content,
      },
      { jobId: job.id, outcome, step: job.pages },
      // The step read the fence at its start (see ./ledger.ts on why once per step is enough), the
      // entry with its page, and took the hold of a new file.
      { entry },
    );
  } catch (error) {
    if (!(error instanceof StreamTooLargeError)) throw error;
    return failed('too_large'); // nothing was stored, and no entry written
  }
  context.announce.push(ingestEvent(link, stored, Math.max(0, deps.clock.now() - started)));
  return { outcome };
}

/**
 * A file deleted at the provider: its document is marked (the ledger entry: the documents list and
 * the change feed show it), removed from the vault when the link's policy says so, and announced. A
 * file this link never imported (or another link holds) is nothing to it. A retried step counts and
 * announces the deletion again as the run did (same event id: the deleted version's).
 */
async function sourceDeleted(
  deps: Deps,
  { link, job }: Pick<ImportContext, 'link' | 'job'>,
  entry: LedgerEntryItem | undefined,
  by: string = job.id,
): Promise<FileOutcome> {
  if (!entry || (entry.sourceDeletedAt !== undefined && entry.deletedByJobId !== by))
    return { outcome: 'unchanged' };
  const removed = entry.removedAt !== undefined || link.onSourceDelete === 'remove';
  if (entry.sourceDeletedAt === undefined) {
    const ref = { organizationId: link.organizationId, vaultId: link.vaultId, objectId: entry.objectId };
    if (removed) await deps.vault.delete(ref);
    await Ledger.of(deps).recordSourceDeleted(
      link.connectionId,
      entry,
      { jobId: by, removed },
      deps.clock.now(),
    );
  }
  await publishEvent(deps, {
    id: derivedId('evt', `source-deleted:${link.vaultId}:${entry.objectId}:${entry.sourceVersion ?? ''}`),
    organizationId: link.organizationId,
    type: 'connector.document.deleted',
    data: {
      connectionId: link.connectionId,
      provider: link.provider,
      linkId: link.id,
      jobId: job.id,
      vaultId: link.vaultId,
      objectId: entry.objectId,
      sourceId: entry.sourceId,
      name: entry.name,
      removedFromVault: removed,
    },
  });
  return { outcome: 'deleted' };
}

/**
 * The deletions of a page that may be folders (a provider reporting a folder deleted or moved away by
 * its path alone): each file the link holds under such a path is marked as a deletion is. One read of
 * the link's ledger per page that has any; a file this step itself stored (listed after the deletion,
 * a path used again) is not.
 */
async function subtreesDeleted(
  deps: Deps,
  { link, job }: Pick<ImportContext, 'link' | 'job'>,
  files: ChangedFile[],
  outcomes: FileOutcome[],
): Promise<FileOutcome[]> {
  const prefixes = files
    .filter((file, i) => file.deleted && file.subtree && outcomes[i]?.outcome !== 'deleted')
    .map((file) => `${file.id}/`);
  if (!prefixes.length) return [];
  const marked: FileOutcome[] = [];
  for await (const entry of Ledger.of(deps).linkEntries(link.connectionId, link.id)) {
    if (!prefixes.some((prefix) => entry.sourceId.startsWith(prefix))) continue;
    if (entry.lastJobId === job.id && entry.lastStep === job.pages) continue;
    if (entry.sourceDeletedAt !== undefined && entry.deletedByJobId !== job.id) continue;
    marked.push(await sourceDeleted(deps, { link, job }, entry));
  }
  return marked;
}

/**
 * One page of a full run's reconcile: each document of the link that the pass neither stored nor saw is
 * gone from the source (deleted, or moved out of it) and is marked as a deletion is. Its marks name the
 * reconcile (`<job>:reconcile`), so a retried page counts them again as it did, and a deletion the pass
 * itself reported is not counted twice. Document ids are the link's and the file's: nothing is minted.
 */
async function reconcile(deps: Deps, link: ImportLinkItem, job: SyncJobRecord): Promise<StepResult> {
  const by = `${job.id}:reconcile`;
  const page = await Ledger.of(deps).linkPage(link.connectionId, link.id, job.reconcilePage);
  const add: Record<string, number> = { pages: 1 };
  for (const entry of page.items) {
    const stale = entry.sourceDeletedAt === undefined || entry.deletedByJobId === by;
    if (!stale || storedInPass(entry, job) || entry.seenByJobId === job.id) continue;
    const { outcome } = await sourceDeleted(deps, { link, job }, entry, by);
    add[outcome] = (add[outcome] ?? 0) + 1;
  }
  return reconcileTaken(job, add, page.cursor);
}

/** The run's outcome on its link (the cursor moves only after a complete pass) and its event. */
async function finishRun(
  deps: Deps,
  job: SyncJobRecord & { outcome: JobOutcome },
  log: Logger,
): Promise<void> {
  const { outcome } = job;
  const now = deps.clock.now();
  const counts = countsOf(job);
  const link = await Links.of(deps).get(job.linkId);
  // The linked container gone (source_not_found) shows on the link until a run finds it again.
  const onLink = finishOnLink(link, job, outcome, now);
  await Links.of(deps).update(
    job.linkId,
    {
      set: {
        ...onLink.set,
        lastRun: {
          jobId: job.id,
          status: outcome.status,
          ...(outcome.reason ? { reason: outcome.reason } : {}),
          finishedAt: now,
          counts,
        },
      },
      remove: onLink.remove,
    },
    { attr: 'activeRunId', op: '=', value: onLink.guard },
  );
  const common = { ...(await finishedEventFields(deps, job)), linkId: job.linkId };
  if (onLink.event)
    await publishEvent(deps, {
      id: derivedId('evt', `${onLink.event}:${job.id}`),
      organizationId: job.organizationId,
      type: onLink.event,
      data: { ...common, sourceId: link!.sourceId },
    });
  await publishEvent(deps, {
    id: derivedId('evt', `sync:${job.id}:${outcome.status}`),
    organizationId: job.organizationId,
    ...(outcome.status === 'succeeded'
      ? {
          type: 'connector.sync.completed',
          data: {
            ...common,
            mode: job.mode ?? 'changes',
            ...(job.modeReason ? { modeReason: job.modeReason } : {}),
            ...counts,
          },
        }
      : {
          type: 'connector.sync.failed',
          data: { ...common, ...failedEventFields(outcome, 'The run failed') },
        }),
  });
  emitMetrics(
    {
      SyncRuns: 1,
      SyncRunsFailed: outcome.status === 'failed' ? 1 : 0,
      ImportedDocuments: counts.imported + counts.updated,
      SyncItemFailures: counts.failed,
    },
    { status: outcome.status, provider: common.provider },
  );
  log.info('import run finished', {
    jobId: job.id,
    linkId: job.linkId,
    status: outcome.status,
    reason: outcome.reason,
    ...counts,
  });
}
