// The stepped job (an import run, an export) as a state machine in pure functions: given the job as
// stored and what just happened, each says what to write and what comes next; the engine
// (app/job-steps.ts, app/sync-runs.ts) only loads, calls one of these, writes and sends.
//
//  happened                 | applies when                                  | decision
//  -------------------------|-----------------------------------------------|-----------------------------------------
//  message(ticket)          | job gone, other kind, not processing,          | drop (a duplicate or superseded message)
//                           |   or another ticket                           |
//                           | an outcome is recorded                        | finish (again: finishing is idempotent)
//                           | this ticket committed, next not queued        | queue now
//                           | waiting (throttle, backoff) not over          | queue: the next hop of the wait
//                           | otherwise                                     | work
//  worked(result)           | out of time before its piece was done         | queue the same step (nothing committed)
//                           | otherwise                                     | commit over the ticket; finish when it
//                           |                                               |   carries an outcome, else queue
//  failed(failure)          | throttled                                     | queue after the wait, waiting: throttled
//                           | passing, attempts left                        | queue after backoff (or Retry-After)
//                           | otherwise                                     | outcome failed with the reason
//
// An import run's own phases, decided on the same job:
//  page listed              | more pages                                    | stay in the pass at the next page
//                           | end of a changes pass                         | succeeded, the link's cursor moves
//                           | end of a full pass                            | the reconcile phase (cursor kept aside)
//  feed refused the cursor  | a changes run, or a full one past its start   | the run becomes full from this step
//                           | a full run at its start                       | nothing to fall back on: the failure
//  reconcile page           | more of the ledger                            | the next ledger page
//                           | the ledger's end                              | succeeded with the pass's cursor
//
// And on the link: at most one run is active (`activeRunId`, claimed by a conditional write), released
// by the run's finish only while it still names that run; a run whose link names another is superseded.
import type { RunFailure } from './sync-policy';
import { MAX_QUEUE_DELAY_SECONDS, hopDelaySeconds, timerDue } from '../../platform/durable-timer';
import { TRANSIENT_ATTEMPTS, backoffSeconds, reconcileDue } from './sync-policy';

export type JobStatus = 'processing' | 'succeeded' | 'failed' | 'skipped';

export interface RunOutcome {
  status: 'succeeded' | 'failed';
  /** A failure's code (RUN_FAILURE_MESSAGES names them). */
  reason?: string;
  /** Anything the finish needs (an import's new cursor). */
  cursor?: string;
}

/** The fields of a stepped job the machine reads. */
export interface StepState {
  kind: string;
  status: JobStatus | string;
  ticket: number;
  committedTicket?: number;
  attempts: number;
  waitUntil?: number;
  outcome?: RunOutcome;
}

/** What a step's work did: progress to commit, and whether the job is done. */
export interface StepResult {
  add?: Record<string, number>;
  set?: Record<string, unknown>;
  remove?: string[];
  /** Set: the job is done (it finishes after the commit). */
  outcome?: RunOutcome;
  /** Out of time before finishing its piece: run the same step again (nothing committed). */
  again?: boolean;
}

export type StepDecision =
  | { kind: 'drop' }
  | { kind: 'finish' }
  | { kind: 'work' }
  /** Queue the job's next message after `delaySeconds` under a new ticket, writing `set` with it. */
  | { kind: 'queue'; delaySeconds: number; set?: Record<string, unknown> }
  /** Commit the step's progress over its ticket (then finish, or queue the next step). */
  | {
      kind: 'commit';
      add?: Record<string, number>;
      set: Record<string, unknown>;
      remove: string[];
      outcome?: RunOutcome;
    }
  /** An outcome decided outside a step's work (a failure): recorded with what the step did, then finished. */
  | { kind: 'fail'; outcome: RunOutcome };

/** A step message for `ticket` of a job of `kind` arrived. */
export function onMessage(
  job: StepState | undefined,
  kind: string,
  ticket: number,
  now: number,
): StepDecision {
  if (!job || job.kind !== kind || job.status !== 'processing' || job.ticket !== ticket)
    return { kind: 'drop' };
  if (job.outcome) return { kind: 'finish' };
  // This step committed, and its worker died before queueing the next.
  if (job.committedTicket === job.ticket) return { kind: 'queue', delaySeconds: 0 };
  if (!timerDue(job.waitUntil, now))
    return { kind: 'queue', delaySeconds: hopDelaySeconds(job.waitUntil!, now) };
  return { kind: 'work' };
}

/** The step's work returned `result`. */
export function onWorked(result: StepResult, now: number): StepDecision {
  if (result.again) return { kind: 'queue', delaySeconds: 0 };
  return {
    kind: 'commit',
    ...(result.add ? { add: result.add } : {}),
    set: {
      ...result.set,
      attempts: 0,
      updatedAt: now,
      ...(result.outcome ? { outcome: result.outcome } : {}),
    },
    remove: [...(result.remove ?? []), 'waitUntil', 'waitReason'],
    ...(result.outcome ? { outcome: result.outcome } : {}),
  };
}

/** The step's work failed as `failure` says (undefined: an error of ours, not the provider's). */
export function onFailed(job: StepState, failure: RunFailure | undefined, now: number): StepDecision {
  if (failure?.kind === 'throttled')
    return {
      kind: 'queue',
      delaySeconds: hopDelaySeconds(failure.until, now),
      set: { waitUntil: failure.until, waitReason: 'throttled' },
    };
  if (!failure || failure.kind === 'transient') {
    const attempts = job.attempts + 1;
    if (attempts < TRANSIENT_ATTEMPTS) {
      // A 503's Retry-After, when the provider gave one (within SQS's limit), else our backoff.
      const retryAfter = failure?.retryAfterSeconds;
      const delay =
        retryAfter !== undefined
          ? Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(1, Math.ceil(retryAfter)))
          : backoffSeconds(attempts);
      return {
        kind: 'queue',
        delaySeconds: delay,
        set: { attempts, waitUntil: now + delay * 1000, waitReason: 'retrying' },
      };
    }
  }
  const reason =
    failure?.kind === 'unusable' || failure?.kind === 'fatal'
      ? failure.reason
      : failure
        ? 'provider_unavailable'
        : 'internal_error';
  return { kind: 'fail', outcome: { status: 'failed', reason } };
}

/** The fields of the job record that close it, once its outcome was applied outside it. */
export const closing = (outcome: RunOutcome, now: number) => ({
  set: {
    status: outcome.status,
    updatedAt: now,
    finishedAt: now,
    ...(outcome.reason ? { reason: outcome.reason } : {}),
  },
  remove: ['outcome', 'waitUntil', 'waitReason'],
});

// ---- An import run's phases ----

export type FullRunReason = 'requested' | 'feed_restarted' | 'reconcile_due';

/** The fields of an import run the phases read. */
export interface RunPhaseState {
  id: string;
  mode?: 'full';
  modeReason?: FullRunReason;
  phase?: 'reconcile';
  page?: string;
  pages: number;
  passFrom?: number;
  passCursor?: string;
}

/** The mode a new run of a link takes: full when asked, or when the link's reconcile period ran out. */
export function startMode(
  asked: 'changes' | 'full',
  link: { reconcileEveryHours?: number; reconciledAt?: number; createdAt: number },
  now: number,
): { mode?: 'full'; modeReason?: FullRunReason } {
  if (asked === 'full') return { mode: 'full', modeReason: 'requested' };
  // The feed's blind spots (a restore it does not report, a file leaving the matter) last at most this long.
  return reconcileDue(link, now) ? { mode: 'full', modeReason: 'reconcile_due' } : {};
}

/** Where a step of the run starts: its pass's next page, or from the link's cursor (none in a full pass). */
export const passPosition = (
  run: Pick<RunPhaseState, 'page' | 'mode'>,
  linkCursor: string | undefined,
): { page: string } | { cursor: string | undefined } =>
  run.page ? { page: run.page } : { cursor: run.mode === 'full' ? undefined : linkCursor };

/** Whether the step is the run's first (it checks the linked container before anything). */
export const firstStep = (run: Pick<RunPhaseState, 'pages' | 'page' | 'passFrom'>): boolean =>
  run.pages === 0 && !run.page && !run.passFrom;

/** A page of the pass was listed and taken; `next` is the feed's next page or the cursor past its end. */
export function pageTaken(
  run: RunPhaseState,
  add: Record<string, number>,
  set: Record<string, unknown>,
  next: { page: string } | { cursor: string },
): StepResult {
  if ('page' in next) return { add, set: { ...set, page: next.page } };
  // A full pass is not the end: what it did not see is gone from the source, which the reconcile marks.
  if (run.mode === 'full')
    return { add, set: { ...set, phase: 'reconcile', passCursor: next.cursor }, remove: ['page'] };
  return { add, set, remove: ['page'], outcome: { status: 'succeeded', cursor: next.cursor } };
}

/**
 * The provider will not go on from the run's position: what changed since cannot be listed, so the run
 * becomes a full one from this step (a pass from no cursor, then its reconcile). Undefined for a full
 * run at its pass's start: it has nothing to fall back on, and the refusal is its failure.
 */
export function feedRestarted(run: RunPhaseState): StepResult | undefined {
  if (run.mode === 'full' && !run.page) return undefined;
  return {
    set: { mode: 'full', modeReason: run.modeReason ?? 'feed_restarted', passFrom: run.pages },
    remove: ['page'],
  };
}

/** A page of the reconcile was marked; `nextPage` is the ledger's next page, if any. */
export function reconcileTaken(
  run: RunPhaseState,
  add: Record<string, number>,
  nextPage: string | undefined,
): StepResult {
  if (nextPage) return { add, set: { reconcilePage: nextPage } };
  return {
    add,
    remove: ['phase', 'reconcilePage', 'passCursor'],
    outcome: { status: 'succeeded', ...(run.passCursor ? { cursor: run.passCursor } : {}) },
  };
}

/**
 * What a provider's refusal of the linked container itself (the run's first call) means for the run:
 * the container gone (404), or out of the grant's reach (a 403 that is neither a rate limit in the
 * provider's words, as Google's userRateLimitExceeded, nor a missing scope of the whole grant), ends
 * the run as source_not_found, which shows the link source_missing until a run finds it again.
 * Undefined: the failure means what it means for any call.
 */
export function containerRefused(answer: {
  status?: number;
  throttled?: boolean;
  providerError?: string;
}): RunOutcome | undefined {
  const revoked = answer.status === 403 && !answer.throttled && answer.providerError !== 'insufficient_scope';
  return answer.status === 404 || revoked ? { status: 'failed', reason: 'source_not_found' } : undefined;
}

// ---- The run on its link ----

export interface LinkRunState {
  activeRunId?: string;
  sourceMissingAt?: number;
  pausedAt?: number;
}

/** Why a step of the run cannot go on, from its link alone (undefined: it can). */
export function linkRefusal(link: LinkRunState | undefined, runId: string): RunOutcome | undefined {
  if (!link) return { status: 'failed', reason: 'link_deleted' };
  if (link.activeRunId !== runId) return { status: 'failed', reason: 'superseded' };
  return undefined;
}

/**
 * The link's claim on `activeRunId` as its run stands: `keep` while the run is processing, `release`
 * (over the same id) once it is gone or finished, nothing to do without a claim.
 */
export function claimState(
  link: LinkRunState,
  run: { status: string } | undefined,
): 'none' | 'keep' | 'release' {
  if (!link.activeRunId) return 'none';
  return run?.status === 'processing' ? 'keep' : 'release';
}

export type SourceEvent = 'connector.link.source_missing' | 'connector.link.source_restored';

/**
 * What a run's outcome writes on its link, over `activeRunId` still naming the run (a link claimed by
 * another run since, or deleted, takes nothing): the claim released, the cursor moved after a complete
 * pass, the reconcile time after a full run, the linked container's state; and the event of a change
 * of that state.
 */
export function finishOnLink(
  link: LinkRunState | undefined,
  run: { id: string; mode?: 'full'; createdAt: number },
  outcome: RunOutcome,
  now: number,
): { set: Record<string, unknown>; remove: string[]; guard: string; event?: SourceEvent } {
  const missing = outcome.status === 'failed' && outcome.reason === 'source_not_found';
  const set: Record<string, unknown> = {
    ...(missing ? { sourceMissingAt: link?.sourceMissingAt ?? now } : {}),
    ...(outcome.cursor ? { cursor: outcome.cursor } : {}),
    // A full run's listing began no later than the run: the source as of then is what it holds.
    ...(outcome.status === 'succeeded' && run.mode === 'full' ? { reconciledAt: run.createdAt } : {}),
    updatedAt: now,
  };
  const event: SourceEvent | undefined =
    missing && link?.sourceMissingAt === undefined
      ? 'connector.link.source_missing'
      : outcome.status === 'succeeded' && link?.sourceMissingAt !== undefined
        ? 'connector.link.source_restored'
        : undefined;
  return {
    set,
    remove: ['activeRunId', ...(outcome.status === 'succeeded' ? ['sourceMissingAt'] : [])],
    guard: run.id,
    ...(event ? { event } : {}),
  };
}
