// Purge on disconnect: a job record (with the page being deleted, while it is), the durable workflow
// that deletes every vault document in the connection's ledgers page by page, then every document its
// file holds name (a new file's record until its entry is written: ./ledger.ts), and the tasks it runs.
// The connection's current purge job is recorded too: a repeated DELETE returns it
// (infra/repositories/jobs.ts stores both).
import type { Deps } from '../../platform/ports';
import { ConflictError, NotFoundError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import type { Logger } from '../../platform/logger';
import { emitMetrics } from '../../platform/metrics';
import type { VaultDocuments, Workflows } from '../../platform/ports';
import { PURGE_REFUSED } from '../infra/purge-definition';
import type { JobBase, JobItem } from './jobs';
import { jobViewBase } from './jobs';
import { JobRepository } from '../infra/repositories/jobs';
import type { LedgerEntryRef } from '../infra/repositories/ledger';
import { Ledger } from '../infra/repositories/ledger';
import { FileHolds } from '../infra/repositories/file-holds';
import { Links } from '../infra/repositories/import-links';
import { StepLeases } from '../infra/repositories/step-leases';
import { importedObjectId } from '../domain/sync-policy';
import { ConnectionRepository } from '../infra/repositories/connections';
import type { JobStarted, PurgeJob } from '../api/views';

/** Ledger entries per page: a page is one task, and an execution has room for about 1,700 of them. */
export const PURGE_PAGE_SIZE = 500;
/** Vault deletions in flight at once within a page. */
const DELETE_CONCURRENCY = 16;

export interface JobRecord extends JobBase {
  kind: 'purge';
  /** Ledger entries purged (their documents deleted), committed page by page. */
  deleted: number;
  pages: number;
  executionId?: string;
  /** The page being deleted: its start cursor, its entries and the cursor after it (a retry reuses them). */
  pageStart?: string;
  pageEntries?: PurgeEntry[];
  pageNext?: string | null;
}

/**
 * What a purge page read: a ledger entry (which document, the revision read, the run writing it, on
 * entries of earlier versions), or a file hold (`hold`: the document of its link, the run named on it).
 */
export type PurgeEntry =
  | (LedgerEntryRef & { hold?: undefined; rev?: number; pendingJobId?: string })
  | { hold: true; linkId: string; vaultId: string; sourceId: string; jobId?: string };

/** Cursors of the second part of a pass (the holds) start with this; the ledger's never do. */
const HOLDS = 'holds:';

type PurgeJobItem = JobItem<JobRecord>;

export type JobView = PurgeJob;

/** A task input retrying cannot fix: the workflow's Retry skips this error name. */
export class PurgeRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = PURGE_REFUSED;
  }
}

/** The start of the ledger, as a page's start cursor. */
const FIRST_PAGE = '^';

export function jobView(job: JobRecord): JobView {
  return { ...jobViewBase(job), kind: 'purge', counts: { deleted: job.deleted, pages: job.pages } };
}

export type PurgeDeps = Pick<Deps, 'tables' | 'clock'> & { workflows: Workflows; vault: VaultDocuments };

async function ensureStarted(
  deps: Pick<PurgeDeps, 'tables' | 'clock' | 'workflows'>,
  job: JobRecord,
  pageSize: number,
): Promise<void> {
  if (job.executionId) return;
  const input = {
    jobId: job.id,
    organizationId: job.organizationId,
    connectionId: job.connectionId,
    cursor: null,
    pageSize,
    pages: 0,
  };
  try {
    // The job id names the execution: starting twice (a repeated DELETE after a crash) starts it once.
    const executionId = await deps.workflows.start('purge', input, job.id);
    await JobRepository.of(deps).setExecution(job.id, executionId);
  } catch (error) {
    await failProcessingJob(deps, job.id, 'The purge workflow could not be started');
    throw error;
  }
}

/** Marks a job failed with its reason, unless it already reached an outcome. */
async function failProcessingJob(
  deps: Pick<PurgeDeps, 'tables' | 'clock'>,
  jobId: string,
  reason: string,
): Promise<void> {
  await JobRepository.of(deps).failProcessing(jobId, reason, deps.clock.now());
}

const ENDED_UNMARKED = (status: string) =>
  `The purge workflow ended (${status}) before it could record an outcome`;

/**
 * A processing job whose execution ended without marking it (its last step kept failing), or is
 * unknown (the local runtime restarted): marks it failed, so asking again starts a new purge.
 */
async function abandoned(
  deps: Pick<PurgeDeps, 'tables' | 'clock' | 'workflows'>,
  job: JobRecord,
): Promise<boolean> {
  if (job.status !== 'processing' || !job.executionId) return false;
  const execution = await deps.workflows.describe(job.executionId);
  if (execution && (execution.status === 'RUNNING' || execution.status === 'SUCCEEDED')) return false;
  await failProcessingJob(deps, job.id, ENDED_UNMARKED(execution?.status.toLowerCase() ?? 'lost'));
  return true;
}

/**
 * Starts purging a revoked connection's imported documents; returns the job at once. A connection has
 * one purge at a time: while one is processing or after it succeeded, asking again returns that job; after
 * a failure (or a workflow that ended without marking its job), asking again starts a new one.
 */
export async function startPurge(
  deps: Deps,
  organizationId: string,
  connectionId: string,
  options: { pageSize?: number } = {},
): Promise<JobStarted> {
  const ports: Pick<PurgeDeps, 'tables' | 'clock' | 'workflows'> = deps;
  const jobs = JobRepository.of(deps);
  const connection = await ConnectionRepository.of(deps).get(connectionId);
  if (!connection || connection.organizationId !== organizationId)
    throw new NotFoundError('Connection not found');
  if (connection.status !== 'revoked') {
    throw new ConflictError('Only a revoked connection can be purged: disconnect it first');
  }
  const pageSize = options.pageSize ?? PURGE_PAGE_SIZE;
  for (let attempt = 0; attempt < 3; attempt++) {
    const pointer = await jobs.purgeOf(connectionId);
    const current = pointer ? await jobs.get<JobRecord>(pointer) : undefined;
    if (pointer && !current) return { id: pointer, status: 'processing' }; // its creator is writing it
    if (
      current &&
      current.status !== 'failed' &&
      !(await abandoned(ports, current)) &&
      !(current.status === 'succeeded' && !(await nothingLeft(deps, connectionId)))
    ) {
      if (current.status === 'processing') await ensureStarted(ports, current, pageSize);
      return { id: current.id, status: current.status };
    }
    const now = deps.clock.now();
    const job: JobRecord = {
      id: newId('job'),
      organizationId,
      kind: 'purge',
      connectionId,
      status: 'processing',
      deleted: 0,
      pages: 0,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await jobs.claimPurge(connectionId, job.id, pointer))) continue; // a concurrent request started one
    await jobs.create(job);
    await ensureStarted(ports, job, pageSize);
    return { id: job.id, status: job.status };
  }
  throw new ConflictError('The connection is being purged by concurrent requests; retry');
}

/** A purge job as its reader sees it: with the workflow's state when it ended without marking the job. */
export async function purgeJobView(deps: Pick<Deps, 'workflows'>, job: JobRecord): Promise<JobView> {
  if (job.status === 'processing' && job.executionId) {
    const execution = await deps.workflows.describe(job.executionId);
    if (execution && execution.status !== 'RUNNING' && execution.status !== 'SUCCEEDED') {
      return jobView({
        ...job,
        status: 'failed',
        reason: ENDED_UNMARKED(execution.status.toLowerCase()),
      });
    }
  }
  return jobView(job);
}

async function jobFor(
  jobs: JobRepository,
  input: { jobId: string; organizationId: string; connectionId?: string },
): Promise<PurgeJobItem> {
  const job = await jobs.find<JobRecord>(input.organizationId, input.jobId);
  if (!job || job.kind !== 'purge') {
    throw new PurgeRefusedError(`No purge job ${input.jobId} for this organization`);
  }
  if (input.connectionId !== undefined && job.connectionId !== input.connectionId) {
    throw new PurgeRefusedError(`Job ${input.jobId} purges another connection`);
  }
  return job;
}

export interface PurgePageInput {
  jobId: string;
  organizationId: string;
  connectionId: string;
  cursor?: string | null;
  pageSize?: number;
}

export interface PurgePageResult {
  count: number;
  cursor: string | null;
  done: boolean;
}

async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(run));
}

/** The run a page's record names as writing its document: a hold's run, or an entry's mark. */
const writerOf = (entry: PurgeEntry): string | undefined => (entry.hold ? entry.jobId : entry.pendingJobId);

/**
 * What a purge does with one record of its page: one whose document a run may still write is left for
 * a later pass, since that run may store its document yet; any other is deleted, with the document.
 * A run may write it while the record names that run and it is in flight (a hold, or an entry an
 * earlier version marked), and while a run of the record's link is in flight at all: a run writes an
 * existing file's new version over its entry unmarked, and a worker that dies between that document
 * and the entry's write (which a purge that removed the entry makes fail, and the run then deletes its
 * document) leaves the document to the pass after its run stopped.
 */
export function entryAction(busy: { writer: boolean; linkRun: boolean }): 'wait' | 'delete' {
  return busy.writer || busy.linkRun ? 'wait' : 'delete';
}

/**
 * Whether a link's run may be storing documents now: processing, and not waiting (for a provider's
 * rate limit, or a retry's backoff) until later. A waiting run runs no step before its time, and its
 * next step reads the purge fence first, so a purge need not wait out a long Retry-After for it.
 */
const runMayWrite = (run: (JobBase & { waitUntil?: number }) | undefined, now: number): boolean =>
  run?.status === 'processing' && !(run.waitUntil !== undefined && run.waitUntil > now);

/**
 * Whether an import run of the connection may be storing documents: a step invocation's lease is live
 * (a copy of a step may still store after its run finished or began to wait), or a link's run, as its
 * claim names it, is in flight.
 */
export async function runsInFlight(
  deps: Pick<Deps, 'tables' | 'clock'>,
  connectionId: string,
): Promise<boolean> {
  if (await StepLeases.of(deps).anyLive(connectionId, deps.clock.now())) return true;
  const jobs = JobRepository.of(deps);
  for (const link of await Links.of(deps).all(connectionId)) {
    if (link.activeRunId && runMayWrite(await jobs.get(link.activeRunId), deps.clock.now())) return true;
  }
  return false;
}

/** Whether the connection has nothing left a purge deletes: no ledger entry, no file hold. */
export async function nothingLeft(deps: Pick<Deps, 'tables'>, connectionId: string): Promise<boolean> {
  return (await Ledger.of(deps).isEmpty(connectionId)) && (await FileHolds.of(deps).isEmpty(connectionId));
}

/**
 * The page task: deletes the vault documents of one page of the ledger, then their entries, each only
 * at the revision read (a run that wrote it since leaves it for the next pass). The page's entries are
 * recorded on the job before anything is deleted, and the count committed with clearing them, in one
 * conditional write: a retry after a crash at any point finishes the same page and the count stays exact.
 */
export async function purgePage(
  deps: Pick<PurgeDeps, 'tables' | 'clock' | 'vault'>,
  input: PurgePageInput,
  log?: Logger,
): Promise<PurgePageResult> {
  const jobs = JobRepository.of(deps);
  const job = await jobFor(jobs, input);
  if (job.status !== 'processing') throw new PurgeRefusedError(`Job ${job.id} is already ${job.status}`);
  const ledger = Ledger.of(deps);
  const holds = FileHolds.of(deps);
  const start = input.cursor ?? FIRST_PAGE;
  const size = input.pageSize ?? PURGE_PAGE_SIZE;

  let entries: PurgeEntry[];
  let next: string | null;
  if (job.pageStart === start && job.pageEntries) {
    entries = job.pageEntries;
    next = job.pageNext ?? null;
    log?.info('resuming an interrupted page', { jobId: job.id, entries: entries.length });
  } else if (start.startsWith(HOLDS)) {
    const cursor = start.slice(HOLDS.length) || undefined;
    const page = await holds.page(input.connectionId, { cursor, limit: size });
    entries = page.items.map((hold) => ({ hold: true, ...hold }));
    next = page.cursor ? `${HOLDS}${page.cursor}` : null;
    if (entries.length === 0) return { count: 0, cursor: null, done: true };
    await jobs.startPage(job.id, start, entries, next);
  } else {
    const page = await ledger.page(input.connectionId, { cursor: input.cursor ?? undefined, limit: size });
    entries = page.items.map(({ linkId, vaultId, objectId, rev, pendingJobId }) => ({
      linkId,
      vaultId,
      objectId,
      ...(rev !== undefined ? { rev } : {}),
      ...(pendingJobId !== undefined ? { pendingJobId } : {}),
    }));
    // After the ledger's last page, its holds.
    next = page.cursor ?? HOLDS;
    if (entries.length === 0) return { count: 0, cursor: HOLDS, done: false };
    await jobs.startPage(job.id, start, entries, next);
  }

  const runs = new Map<string, Promise<boolean>>();
  const inFlight = (jobId: string) => {
    if (!runs.has(jobId))
      runs.set(
        jobId,
        jobs.get(jobId).then((run) => run?.status === 'processing'),
      );
    return runs.get(jobId)!;
  };
  let deleted = 0;
  let waiting = 0;
  const links = new Map<string, Promise<boolean>>();
  const linkRunInFlight = (linkId: string) => {
    if (!links.has(linkId))
      links.set(
        linkId,
        Links.of(deps)
          .get(linkId)
          .then(async (link) =>
            link?.activeRunId ? runMayWrite(await jobs.get(link.activeRunId), deps.clock.now()) : false,
          ),
      );
    return links.get(linkId)!;
  };
  await inBatches(entries, DELETE_CONCURRENCY, async (entry) => {
    const writer = writerOf(entry);
    const busy = {
      writer: writer !== undefined && (await inFlight(writer)),
      linkRun: await linkRunInFlight(entry.linkId),
    };
    if (entryAction(busy) === 'wait') {
      waiting++;
      return;
    }
    if (entry.hold) {
      // A hold's document is counted with its entry, which a file stored whole has: this deletes what
      // a run left without one (stopped between the document and its entry), or did nothing.
      await deps.vault.delete({
        organizationId: job.organizationId,
        vaultId: entry.vaultId,
        objectId: importedObjectId(entry.linkId, entry.sourceId),
      });
      await holds.removeUnchanged(input.connectionId, entry);
      return;
    }
    await deps.vault.delete({
      organizationId: job.organizationId,
      vaultId: entry.vaultId,
      objectId: entry.objectId,
    });
    const ref = { linkId: entry.linkId, vaultId: entry.vaultId, objectId: entry.objectId };
    // Gone already: an earlier attempt of this page removed it (only a purge removes entries now).
    if (
      (await ledger.removeUnchanged(input.connectionId, ref, entry.rev)) ||
      !(await ledger.get(input.connectionId, ref))
    )
      deleted++;
  });

  const committed = await jobs.commitPage(job.id, start, deleted, deps.clock.now());
  // Not committed: a duplicate delivery of this very task committed it first; count it once.
  log?.info('purge page deleted', {
    jobId: job.id,
    count: deleted,
    waiting,
    committed,
    more: next !== null,
  });
  if (!start.startsWith(HOLDS) && entries.length < size) next = HOLDS; // the ledger's last page
  return {
    count: deleted,
    cursor: next,
    done: next === null || (start.startsWith(HOLDS) && entries.length < size),
  };
}

export interface FinishPurgeInput {
  jobId: string;
  organizationId: string;
  outcome: 'succeeded' | 'failed';
  pages: number;
  /** The Catch output of the step that failed: error name and cause. */
  error?: { Error?: string; Cause?: string };
}

/** What a customer reads: our refusals say why; anything else is named, never quoted (it may hold internals). */
export function failureReason(error: FinishPurgeInput['error']): string {
  const name = error?.Error ?? 'unknown';
  if (name === PURGE_REFUSED) {
    let message = error?.Cause ?? '';
    try {
      message = (JSON.parse(message) as { errorMessage?: string }).errorMessage ?? message;
    } catch {
      // a callback worker's cause is the plain message
    }
    return `Purge refused: ${message.slice(0, 300)}`;
  }
  if (name === 'States.Timeout') return 'A purge step timed out on every retry';
  return `Deleting the connection's documents kept failing after retries (${name.slice(0, 100)})`;
}

/**
 * How long after it began a purge keeps passing over the ledger for documents runs were still writing:
 * past the sync sweep's re-drive of a run whose step died (STALE_JOB_MS), which then stops at the fence.
 */
export const PURGE_SETTLE_MS = 30 * 60_000;
/** The pause before another pass over what runs in flight left. */
export const PURGE_RECHECK_MS = 2_000;

export type PurgeEnd = { status: 'succeeded' } | { status: 'again' } | { status: 'failed'; reason: string };

/**
 * How the last step ends a purge: it succeeds only when a final check finds no entry and no file hold
 * left (`ledgerEmpty`) and no import run of the connection in flight (`runsInFlight`: a step that read
 * the fence before the purge began may still store documents, and does so only while its run is in
 * flight); otherwise another pass, until PURGE_SETTLE_MS after the purge began.
 */
export function decidePurgeEnd(state: {
  outcome: FinishPurgeInput['outcome'];
  error?: FinishPurgeInput['error'];
  ledgerEmpty: boolean;
  runsInFlight: boolean;
  startedAt: number;
  now: number;
}): PurgeEnd {
  if (state.outcome === 'failed') return { status: 'failed', reason: failureReason(state.error) };
  if (state.ledgerEmpty && !state.runsInFlight) return { status: 'succeeded' };
  if (state.now - state.startedAt < PURGE_SETTLE_MS) return { status: 'again' };
  return {
    status: 'failed',
    reason: 'Documents of the connection were still being written 30 minutes after the purge began',
  };
}

/**
 * The final task: marks the job succeeded (if the ledger is empty) or failed with a reason, or answers
 * the job still processing (after a pause) for another pass over the ledger. Idempotent.
 */
export async function finishPurge(
  deps: Pick<PurgeDeps, 'tables' | 'clock'>,
  input: FinishPurgeInput,
  log?: Logger,
  options: { recheckMs?: number; sleep?: (ms: number) => Promise<void> } = {},
): Promise<JobView> {
  const jobs = JobRepository.of(deps);
  const job = await jobFor(jobs, input);
  if (job.status !== 'processing') return jobView(job);
  // Runs first, then what is left: a run no longer in flight writes nothing more, so emptiness read
  // after it is final (read before, a run could write and then stop between the two reads).
  const running = input.outcome !== 'failed' && (await runsInFlight(deps, job.connectionId));
  const end = decidePurgeEnd({
    outcome: input.outcome,
    error: input.error,
    runsInFlight: running,
    ledgerEmpty: input.outcome === 'failed' || (!running && (await nothingLeft(deps, job.connectionId))),
    startedAt: job.createdAt,
    now: deps.clock.now(),
  });
  if (end.status === 'again') {
    log?.info('purge passes again over entries runs were writing', { jobId: job.id });
    const sleep = options.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
    await sleep(options.recheckMs ?? PURGE_RECHECK_MS);
    return jobView({ ...job, pages: input.pages });
  }
  if (input.outcome === 'failed') log?.warn('purge failed', { jobId: job.id, error: input.error });
  const now = deps.clock.now();
  const updated = await jobs.finish<PurgeJobItem>(job.id, {
    status: end.status,
    reason: end.status === 'failed' ? end.reason : undefined,
    pages: input.pages,
    updatedAt: now,
    finishedAt: now,
  });
  if (!updated) return jobView((await jobs.get<JobRecord>(job.id))!); // finished by a duplicate task
  emitMetrics({ PurgeJobs: 1, PurgeJobsFailed: end.status === 'failed' ? 1 : 0 }, { jobId: job.id });
  log?.info('purge finished', { jobId: job.id, status: end.status, deleted: updated.deleted });
  return jobView(updated);
}
