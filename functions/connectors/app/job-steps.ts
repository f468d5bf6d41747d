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
import { STALE_JOB_MS, failureMessage } from '../domain/sync-policy';
import type { RunFailure } from '../domain/sync-policy';
import type { RunOutcome, StepDecision, StepResult } from '../domain/run-decide';
import { closing, onFailed, onMessage, onWorked } from '../domain/run-decide';
import { heartbeatAt } from '../../platform/durable-timer';
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

export type JobOutcome = RunOutcome;
export type { StepResult };

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
  // The sync sweep re-drives the job if nothing advanced it by its heartbeat (a lost message).
  const moved = await JobRepository.of(deps).nextTicket(
    job.id,
    job.ticket,
    { ...set, updatedAt: now },
    heartbeatAt(now, delaySeconds, STALE_JOB_MS),
  );
  if (moved) {
    await deps.queues.syncs.send({
      body: JSON.stringify({ kind: job.kind, jobId: job.id, ticket }),
      delaySeconds,
    });
  }
  return moved;
}

/** Runs the step a message asks for, if it is still the job's current one (run-decide says what to do). */
export async function advanceJob<J extends SteppedJob>(
  deps: StepDeps,
  message: StepMessage,
  spec: StepSpec<J>,
  log: Logger,
): Promise<void> {
  const jobs = JobRepository.of(deps);
  const job = await jobs.get<J>(message.jobId);
  const next = onMessage(job, spec.kind, message.ticket, deps.clock.now());
  if (next.kind === 'drop') {
    log.info('stale job message dropped', { jobId: message.jobId, ticket: message.ticket });
    return;
  }
  if (next.kind === 'finish')
    return finishJob(jobs, deps.clock.now(), job as J & { outcome: JobOutcome }, spec);
  if (next.kind === 'queue') {
    await queueStep(deps, job!, next.delaySeconds, next.set);
    return;
  }
  let result: StepResult;
  try {
    result = await spec.work(job!);
  } catch (error) {
    await afterFailure(deps, job!, spec, error, log);
    return;
  }
  await apply(deps, jobs, job!, onWorked(result, deps.clock.now()), spec);
}

/** Writes what run-decide decided after a step's work or failure, then queues or finishes. */
async function apply<J extends SteppedJob>(
  deps: StepDeps,
  jobs: JobRepository,
  job: J,
  decision: StepDecision,
  spec: StepSpec<J>,
): Promise<void> {
  if (decision.kind === 'queue') {
    await queueStep(deps, job, decision.delaySeconds, decision.set);
    return;
  }
  if (decision.kind === 'fail') {
    // What the failed step already stored stays done: counted in the write that records the failure.
    const add = spec.doneSoFar ? await spec.doneSoFar(job) : undefined;
    decision = onWorked({ outcome: decision.outcome, ...(add ? { add } : {}) }, deps.clock.now());
  }
  if (decision.kind !== 'commit') return;
  const { add, set, remove } = decision;
  // One write, conditional on the ticket the step ran under: undefined when a duplicate committed first.
  const committed = await jobs.commitStep<J>(job.id, job.ticket, { add, set, remove });
  if (!committed) return;
  if (committed.outcome)
    return finishJob(jobs, deps.clock.now(), committed as J & { outcome: JobOutcome }, spec);
  await queueStep(deps, committed);
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
  const decision = onFailed(job, failure, now);
  if (decision.kind === 'queue' && decision.set?.waitReason === 'throttled')
    log.info('job waits for the provider rate limit', { jobId: job.id, until: decision.set.waitUntil });
  else if (decision.kind === 'queue')
    log.warn('job step will be retried', {
      jobId: job.id,
      attempts: decision.set?.attempts,
      delaySeconds: decision.delaySeconds,
    });
  await apply(deps, JobRepository.of(deps), job, decision, spec);
}

async function finishJob<J extends SteppedJob>(
  jobs: JobRepository,
  now: number,
  job: J & { outcome: JobOutcome },
  spec: StepSpec<J>,
): Promise<void> {
  await spec.finish(job);
  const { set, remove } = closing(job.outcome, now);
  await jobs.finish(
    job.id,
    { ...set, ...(set.reason ? { message: failureMessage(set.reason, 'The job failed') } : {}) },
    remove,
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
