// How a long connector job (an import run, an export) moves: one step per message on the syncs queue.
// A step does a bounded piece of work and commits its progress on the job record in one conditional
// write, then queues the next step. Every message carries the job's current ticket; a message with
// another ticket (a duplicate, a superseded wake-up) does nothing, so at most one step of a job runs
// to its commit. A worker crash redelivers the message (SQS visibility) and the step runs again from the
// last commit: steps must be idempotent, which the ledgers make them. Waits (a provider's rate limit,
// backoff after a passing failure) are delayed messages in hops of at most 15 minutes. A job nobody has
// advanced for STALE_JOB_MS (its message lost) is re-driven by the sync sweep.
import * as z from 'zod/mini';
import { lazy } from '../../platform/lazy';
import type { Deps } from '../../platform/ports';
import type { Logger } from '../../platform/logger';
import { isoTime } from '../../platform/clock';
import {
  MAX_QUEUE_DELAY_SECONDS,
  STALE_JOB_MS,
  TRANSIENT_ATTEMPTS,
  backoffSeconds,
  failureMessage,
  hopDelaySeconds,
} from '../domain/sync-policy';
import type { RunFailure } from '../domain/sync-policy';
import type { JobBase, JobItem } from './jobs';
import { jobViewBase } from './jobs';
import { JobRepository } from '../infra/repositories/jobs';
import { ConnectionRepository } from '../infra/repositories/connections';

export const stepMessageSchema = lazy(() =>
  z.object({
    kind: z.enum(['sync', 'export']),
    jobId: z.string().check(z.minLength(1)).check(z.maxLength(64)),
    ticket: z.int().check(z.gte(0)),
  }),
);

export type StepMessage = z.infer<ReturnType<typeof stepMessageSchema>>;

export interface JobOutcome {
  status: 'succeeded' | 'failed';
  /** A failure's code (RUN_FAILURE_MESSAGES names them). */
  reason?: string;
  /** Anything the finish needs (an import's new cursor). */
  cursor?: string;
}

/** The fields every stepped job keeps beside its own progress. */
export interface SteppedJob extends JobBase {
  kind: 'sync' | 'export';
  /** Bumped at every queued message; only the message carrying the current ticket runs. */
  ticket: number;
  /** The ticket whose step committed (at most one commit per ticket, whatever copies of it run). */
  committedTicket?: number;
  /** Consecutive failed attempts of the current step (passing failures). */
  attempts: number;
  /** Not before then (ms): the provider's rate limit, or backoff. */
  waitUntil?: number;
  waitReason?: 'throttled' | 'retrying';
  /** Decided, not yet finished (the link updated, the event published): finishing is retried until done. */
  outcome?: JobOutcome;
  /** Human-readable reason of a failure. */
  message?: string;
}

/** What a step did: progress to commit, and whether the job is done. */
export interface StepResult {
  add?: Record<string, number>;
  set?: Record<string, unknown>;
  remove?: string[];
  /** Set: the job is done (it finishes after the commit). */
  outcome?: JobOutcome;
  /** Out of time before finishing its piece: run the same step again (nothing committed). */
  again?: boolean;
}

export interface StepSpec<J extends SteppedJob> {
  kind: J['kind'];
  /** The step's work; what it throws is classified by `failureOf`. */
  work(job: J): Promise<StepResult>;
  /**
   * What an error `work` threw means for the job at `now` (a throttle, a transient or fatal failure,
   * an unusable connection); undefined for an unknown error, which is retried as a transient one.
   */
  failureOf(error: unknown, now: number): RunFailure | undefined;
  /** Applies a decided outcome outside the job record (the link, events); idempotent. */
  finish(job: J & { outcome: JobOutcome }): Promise<void>;
  /**
   * What the current step already did that stays done when the job fails at it (an import's documents
   * stored before the failure): counted in the same write that records the failure.
   */
  doneSoFar?(job: J): Promise<Record<string, number>>;
}

type StepDeps = Pick<Deps, 'tables' | 'queues' | 'clock'>;

/** Queues the job's next message after `delaySeconds`, under a new ticket; false when the job moved on. */
export async function queueStep(
  deps: StepDeps,
  job: Pick<SteppedJob, 'id' | 'kind' | 'ticket'>,
  delaySeconds = 0,
  set: Record<string, unknown> = {},
): Promise<boolean> {
  const now = deps.clock.now();
  const ticket = job.ticket + 1;
  // The heartbeat: the sync sweep re-drives the job if nothing advanced it by then (a lost message).
  const heartbeatAt = now + delaySeconds * 1000 + STALE_JOB_MS;
  const moved = await JobRepository.of(deps).nextTicket(
    job.id,
    job.ticket,
    { ...set, updatedAt: now },
    heartbeatAt,
  );
  if (moved) {
    await deps.queues.syncs.send({
      body: JSON.stringify({ kind: job.kind, jobId: job.id, ticket }),
      delaySeconds,
    });
  }
  return moved;
}

/** Runs the step a message asks for, if it is still the job's current one. */
export async function advanceJob<J extends SteppedJob>(
  deps: StepDeps,
  message: StepMessage,
  spec: StepSpec<J>,
  log: Logger,
): Promise<void> {
  const jobs = JobRepository.of(deps);
  const job = await jobs.get<J>(message.jobId);
  if (!job || job.kind !== spec.kind || job.status !== 'processing' || job.ticket !== message.ticket) {
    log.info('stale job message dropped', { jobId: message.jobId, ticket: message.ticket });
    return;
  }
  if (job.outcome) return finishJob(jobs, deps.clock.now(), job as J & { outcome: JobOutcome }, spec);
  if (job.committedTicket === job.ticket) {
    // This step committed, and its worker died before queueing the next: queue it now.
    await queueStep(deps, job);
    return;
  }
  const now = deps.clock.now();
  if (job.waitUntil !== undefined && job.waitUntil > now) {
    await queueStep(deps, job, hopDelaySeconds(job.waitUntil, now)); // another hop of a long wait
    return;
  }
  let result: StepResult;
  try {
    result = await spec.work(job);
  } catch (error) {
    await afterFailure(deps, job, spec, error, log);
    return;
  }
  if (result.again) {
    await queueStep(deps, job);
    return;
  }
  const committed = await commitStep(jobs, deps.clock.now(), job, result);
  if (!committed) return; // a duplicate of this step committed first
  if (committed.outcome)
    return finishJob(jobs, deps.clock.now(), committed as J & { outcome: JobOutcome }, spec);
  await queueStep(deps, committed);
}

/** The step's progress and the next ticket's state in one write, conditional on the ticket it ran under. */
async function commitStep<J extends SteppedJob>(
  jobs: JobRepository,
  now: number,
  job: J,
  result: StepResult,
): Promise<JobItem<J> | undefined> {
  return jobs.commitStep<J>(job.id, job.ticket, {
    add: result.add,
    set: {
      ...result.set,
      attempts: 0,
      updatedAt: now,
      ...(result.outcome ? { outcome: result.outcome } : {}),
    },
    remove: [...(result.remove ?? []), 'waitUntil', 'waitReason'],
  });
}

async function afterFailure<J extends SteppedJob>(
  deps: StepDeps,
  job: JobItem<J>,
  spec: StepSpec<J>,
  error: unknown,
  log: Logger,
): Promise<void> {
  const now = deps.clock.now();
  const failure = spec.failureOf(error, now);
  if (!failure) log.error('job step failed', { jobId: job.id, kind: job.kind, error });
  const kind = failure?.kind ?? 'transient';
  if (failure?.kind === 'throttled') {
    log.info('job waits for the provider rate limit', { jobId: job.id, until: failure.until });
    await queueStep(deps, job, hopDelaySeconds(failure.until, now), {
      waitUntil: failure.until,
      waitReason: 'throttled',
    });
    return;
  }
  if (kind === 'transient') {
    const attempts = job.attempts + 1;
    if (attempts < TRANSIENT_ATTEMPTS) {
      // A 503's Retry-After, when the provider gave one (within SQS's limit), else our backoff.
      const retryAfter = failure?.kind === 'transient' ? failure.retryAfterSeconds : undefined;
      const delay =
        retryAfter !== undefined
          ? Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(1, Math.ceil(retryAfter)))
          : backoffSeconds(attempts);
      log.warn('job step will be retried', { jobId: job.id, attempts, delaySeconds: delay });
      await queueStep(deps, job, delay, { attempts, waitUntil: now + delay * 1000, waitReason: 'retrying' });
      return;
    }
  }
  const reason =
    failure?.kind === 'unusable' || failure?.kind === 'fatal'
      ? failure.reason
      : failure
        ? 'provider_unavailable'
        : 'internal_error';
  await decide(JobRepository.of(deps), now, job, { status: 'failed', reason }, spec);
}

/** Records an outcome decided outside a step's commit (a failure), then finishes the job. */
async function decide<J extends SteppedJob>(
  jobs: JobRepository,
  now: number,
  job: J,
  outcome: JobOutcome,
  spec: StepSpec<J>,
): Promise<void> {
  const add = spec.doneSoFar ? await spec.doneSoFar(job) : undefined;
  const decided = await commitStep(jobs, now, job, { outcome, ...(add ? { add } : {}) });
  if (decided) await finishJob(jobs, now, decided as J & { outcome: JobOutcome }, spec);
}

async function finishJob<J extends SteppedJob>(
  jobs: JobRepository,
  now: number,
  job: J & { outcome: JobOutcome },
  spec: StepSpec<J>,
): Promise<void> {
  await spec.finish(job);
  const { status, reason } = job.outcome;
  await jobs.finish(
    job.id,
    {
      status,
      updatedAt: now,
      finishedAt: now,
      ...(reason ? { reason, message: failureMessage(reason, 'The job failed') } : {}),
    },
    ['outcome', 'waitUntil', 'waitReason'],
  );
}

/** What the views of a run and an export share: the job's fields, its failure message, why it waits. */
export const steppedJobView = (job: SteppedJob) => ({
  ...jobViewBase(job),
  ...(job.message ? { message: job.message } : {}),
  ...(job.waitUntil !== undefined && job.waitReason
    ? { waiting: { reason: job.waitReason, until: isoTime(job.waitUntil) } }
    : {}),
});

/** The fields the event of every finished run or export carries ('unknown' provider once the connection is gone). */
export async function finishedEventFields(deps: Deps, job: SteppedJob & { vaultId: string }) {
  const connection = await ConnectionRepository.of(deps).get(job.connectionId);
  return {
    connectionId: job.connectionId,
    provider: connection?.provider ?? 'unknown',
    jobId: job.id,
    vaultId: job.vaultId,
  };
}

/** What the failed event of a run or export says: the reason's code and what it means. */
export const failedEventFields = (outcome: JobOutcome, fallback: string) => ({
  errorCode: outcome.reason ?? 'internal_error',
  message: failureMessage(outcome.reason, fallback),
});
