// The run state machine (functions/connectors/domain/run-decide.ts): tables of plain values for each
// decision, and generated sequences (fast-check, fixed seed) of starts, at-least-once message
// deliveries, step results, provider failures and time passing, driven through a small engine that
// only loads, decides and writes as app/job-steps.ts does. Invariants after every event:
//  - one active run per link: a processing run is the one the link's activeRunId names, and the
//    link names no run that is not processing;
//  - a finished run never reopens (its status and outcome stay as they were decided);
//  - a full run succeeds only after its reconcile phase reached the ledger's end; a changes run never
//    enters the reconcile phase unless it became full;
//  - no step works while its wait (throttle, backoff) is not over;
//  - the link's cursor moves only with a succeeded run's outcome;
//  - passing failures in a row are bounded (TRANSIENT_ATTEMPTS), then the run fails;
//  - delivering every message with time enough finishes every run (nothing is stranded).
import * as fc from 'fast-check';
import type { RunFailure } from '../../functions/connectors/domain/sync-policy';
import { TRANSIENT_ATTEMPTS, backoffSeconds } from '../../functions/connectors/domain/sync-policy';
import type {
  RunPhaseState,
  StepDecision,
  StepResult,
  StepState,
} from '../../functions/connectors/domain/run-decide';
import {
  claimState,
  closing,
  containerRefused,
  feedRestarted,
  finishOnLink,
  linkRefusal,
  onFailed,
  onMessage,
  onWorked,
  pageTaken,
  reconcileTaken,
  startMode,
} from '../../functions/connectors/domain/run-decide';
import { MAX_QUEUE_DELAY_SECONDS } from '../../functions/platform/durable-timer';

const SEED = Number(process.env.RUN_DECIDE_SEED ?? 20261127);
const HOUR = 3_600_000;

describe('run-decide: one step at a time', () => {
  const job = (over: Partial<StepState> = {}): StepState => ({
    kind: 'sync',
    status: 'processing',
    ticket: 3,
    attempts: 0,
    ...over,
  });

  it('drops a message of another ticket, kind or a finished job', () => {
    expect(onMessage(undefined, 'sync', 3, 0)).toEqual({ kind: 'drop' });
    expect(onMessage(job(), 'sync', 2, 0)).toEqual({ kind: 'drop' });
    expect(onMessage(job(), 'export', 3, 0)).toEqual({ kind: 'drop' });
    expect(onMessage(job({ status: 'succeeded' }), 'sync', 3, 0)).toEqual({ kind: 'drop' });
  });

  it('finishes a decided outcome again, queues past a committed step, hops a wait, else works', () => {
    expect(onMessage(job({ outcome: { status: 'succeeded' } }), 'sync', 3, 0)).toEqual({ kind: 'finish' });
    expect(onMessage(job({ committedTicket: 3 }), 'sync', 3, 0)).toEqual({ kind: 'queue', delaySeconds: 0 });
    expect(onMessage(job({ waitUntil: 2 * HOUR }), 'sync', 3, 0)).toEqual({
      kind: 'queue',
      delaySeconds: MAX_QUEUE_DELAY_SECONDS,
    });
    expect(onMessage(job({ waitUntil: 2_500 }), 'sync', 3, 0)).toEqual({ kind: 'queue', delaySeconds: 3 });
    expect(onMessage(job({ waitUntil: 2_500 }), 'sync', 3, 2_500)).toEqual({ kind: 'work' });
  });

  it('waits out a throttle, backs off passing failures, then fails; other failures end the run', () => {
    expect(onFailed(job(), { kind: 'throttled', until: 60_000 }, 0)).toEqual({
      kind: 'queue',
      delaySeconds: 60,
      set: { waitUntil: 60_000, waitReason: 'throttled' },
    });
    expect(onFailed(job({ attempts: 1 }), { kind: 'transient' }, 0)).toEqual({
      kind: 'queue',
      delaySeconds: backoffSeconds(2),
      set: { attempts: 2, waitUntil: backoffSeconds(2) * 1000, waitReason: 'retrying' },
    });
    expect(onFailed(job(), { kind: 'transient', retryAfterSeconds: 7200 }, 0)).toMatchObject({
      delaySeconds: MAX_QUEUE_DELAY_SECONDS,
    });
    expect(onFailed(job({ attempts: TRANSIENT_ATTEMPTS - 1 }), { kind: 'transient' }, 0)).toEqual({
      kind: 'fail',
      outcome: { status: 'failed', reason: 'provider_unavailable' },
    });
    expect(onFailed(job({ attempts: TRANSIENT_ATTEMPTS - 1 }), undefined, 0)).toEqual({
      kind: 'fail',
      outcome: { status: 'failed', reason: 'internal_error' },
    });
    expect(onFailed(job(), { kind: 'fatal', reason: 'source_not_found' }, 0)).toEqual({
      kind: 'fail',
      outcome: { status: 'failed', reason: 'source_not_found' },
    });
  });

  it('commits a step with its outcome and clears any wait; runs an unfinished piece again', () => {
    expect(onWorked({ again: true }, 5)).toEqual({ kind: 'queue', delaySeconds: 0 });
    expect(onWorked({ add: { listed: 2 }, set: { page: 'p' }, outcome: { status: 'succeeded' } }, 5)).toEqual(
      {
        kind: 'commit',
        add: { listed: 2 },
        set: { page: 'p', attempts: 0, updatedAt: 5, outcome: { status: 'succeeded' } },
        remove: ['waitUntil', 'waitReason'],
        outcome: { status: 'succeeded' },
      },
    );
    expect(closing({ status: 'failed', reason: 'superseded' }, 9)).toEqual({
      set: { status: 'failed', updatedAt: 9, finishedAt: 9, reason: 'superseded' },
      remove: ['outcome', 'waitUntil', 'waitReason'],
    });
  });
});

describe('run-decide: an import run and its link', () => {
  const run = (over: Partial<RunPhaseState> = {}): RunPhaseState => ({ id: 'job_a', pages: 2, ...over });

  it('starts full when asked or when the reconcile period ran out', () => {
    const link = { createdAt: 0, reconcileEveryHours: 24 };
    expect(startMode('full', link, 0)).toEqual({ mode: 'full', modeReason: 'requested' });
    expect(startMode('changes', link, 23 * HOUR)).toEqual({});
    expect(startMode('changes', link, 24 * HOUR)).toEqual({ mode: 'full', modeReason: 'reconcile_due' });
    expect(startMode('changes', { ...link, reconciledAt: 10 * HOUR }, 24 * HOUR)).toEqual({});
  });

  it('ends a changes pass with the cursor, a full pass with its reconcile, then succeeds', () => {
    expect(pageTaken(run(), {}, {}, { page: 'p2' })).toEqual({ add: {}, set: { page: 'p2' } });
    expect(pageTaken(run(), {}, {}, { cursor: 'c' })).toMatchObject({
      outcome: { status: 'succeeded', cursor: 'c' },
    });
    expect(pageTaken(run({ mode: 'full' }), {}, {}, { cursor: 'c' })).toEqual({
      add: {},
      set: { phase: 'reconcile', passCursor: 'c' },
      remove: ['page'],
    });
    expect(reconcileTaken(run({ passCursor: 'c' }), {}, 'l2')).toEqual({
      add: {},
      set: { reconcilePage: 'l2' },
    });
    expect(reconcileTaken(run({ passCursor: 'c' }), {}, undefined)).toMatchObject({
      outcome: { status: 'succeeded', cursor: 'c' },
    });
  });

  it('becomes full when the feed refuses the cursor, except a full run at its start', () => {
    expect(feedRestarted(run({ page: 'p' }))).toEqual({
      set: { mode: 'full', modeReason: 'feed_restarted', passFrom: 2 },
      remove: ['page'],
    });
    expect(feedRestarted(run({ mode: 'full', modeReason: 'reconcile_due', page: 'p' }))).toMatchObject({
      set: { modeReason: 'reconcile_due' },
    });
    expect(feedRestarted(run({ mode: 'full' }))).toBeUndefined();
  });

  it('refuses a step of a deleted link or of a run the link no longer names', () => {
    expect(linkRefusal(undefined, 'job_a')).toEqual({ status: 'failed', reason: 'link_deleted' });
    expect(linkRefusal({ activeRunId: 'job_b' }, 'job_a')).toEqual({
      status: 'failed',
      reason: 'superseded',
    });
    expect(linkRefusal({ activeRunId: 'job_a' }, 'job_a')).toBeUndefined();
    expect(claimState({}, undefined)).toBe('none');
    expect(claimState({ activeRunId: 'job_a' }, { status: 'processing' })).toBe('keep');
    expect(claimState({ activeRunId: 'job_a' }, { status: 'failed' })).toBe('release');
    expect(claimState({ activeRunId: 'job_a' }, undefined)).toBe('release');
  });

  it('takes the linked container for gone on a 404 or a 403 of access, not on a rate limit or a missing scope', () => {
    const gone = { status: 'failed', reason: 'source_not_found' };
    expect(containerRefused({ status: 404 })).toEqual(gone);
    expect(containerRefused({ status: 403, providerError: 'accessDenied' })).toEqual(gone);
    expect(containerRefused({ status: 403, providerError: 'insufficientFilePermissions' })).toEqual(gone);
    expect(
      containerRefused({ status: 403, providerError: 'userRateLimitExceeded', throttled: true }),
    ).toBeUndefined();
    expect(containerRefused({ status: 403, providerError: 'insufficient_scope' })).toBeUndefined();
    expect(containerRefused({ status: 500 })).toBeUndefined();
    expect(containerRefused({ status: 401 })).toBeUndefined();
  });

  it('shows the linked container missing once, and restored by the next success', () => {
    const job = { id: 'job_a', createdAt: 1, mode: 'full' as const };
    const gone = finishOnLink(
      { activeRunId: 'job_a' },
      job,
      { status: 'failed', reason: 'source_not_found' },
      5,
    );
    expect(gone).toMatchObject({
      set: { sourceMissingAt: 5 },
      event: 'connector.link.source_missing',
      guard: 'job_a',
    });
    expect(
      finishOnLink({ sourceMissingAt: 5 }, job, { status: 'failed', reason: 'source_not_found' }, 9),
    ).toEqual({
      set: { sourceMissingAt: 5, updatedAt: 9 },
      remove: ['activeRunId'],
      guard: 'job_a',
    });
    expect(finishOnLink({ sourceMissingAt: 5 }, job, { status: 'succeeded', cursor: 'c' }, 9)).toEqual({
      set: { cursor: 'c', reconciledAt: 1, updatedAt: 9 },
      remove: ['activeRunId', 'sourceMissingAt'],
      guard: 'job_a',
      event: 'connector.link.source_restored',
    });
  });
});

// ---- Generated sequences through a model engine ----

interface Job extends StepState, RunPhaseState {
  createdAt: number;
  reconcilePage?: string;
  /** Bookkeeping of the test (not the machine's): the reconcile reached the ledger's end. */
  reconcileEnded?: boolean;
  reason?: string;
}
interface Link {
  activeRunId?: string;
  cursor?: string;
  reconciledAt?: number;
  createdAt: number;
  reconcileEveryHours: number;
}
type Work = 'more' | 'end' | 'restart' | 'throttle' | 'transient' | 'fatal' | 'again' | 'crash';
type Event =
  | { kind: 'start'; mode: 'changes' | 'full' }
  | { kind: 'deliver'; pick: number; duplicate: boolean; work: Work }
  | { kind: 'tick'; ms: number };

const eventArbitrary: fc.Arbitrary<Event> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('start' as const),
      mode: fc.constantFrom('changes' as const, 'full' as const),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('deliver' as const),
      pick: fc.nat(),
      duplicate: fc.boolean(),
      work: fc.constantFrom<Work>(
        'more',
        'end',
        'end',
        'restart',
        'throttle',
        'transient',
        'fatal',
        'again',
        'crash',
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 30 * HOUR }) }),
  },
);

class Model {
  now = 0;
  link: Link = { createdAt: 0, reconcileEveryHours: 24 };
  jobs = new Map<string, Job>();
  queue: { jobId: string; ticket: number; at: number }[] = [];
  decided = new Map<string, string>();
  cursorMoves: string[] = [];
  private ids = 0;
  private pages = 0;

  start(mode: 'changes' | 'full') {
    const active = this.link.activeRunId ? this.jobs.get(this.link.activeRunId) : undefined;
    const claim = claimState(this.link, active);
    if (claim === 'keep') return;
    if (claim === 'release') delete this.link.activeRunId;
    const job: Job = {
      id: `job_${++this.ids}`,
      kind: 'sync',
      status: 'processing',
      ticket: 0,
      attempts: 0,
      pages: 0,
      createdAt: this.now,
      ...startMode(mode, this.link, this.now),
    };
    this.jobs.set(job.id, job);
    this.link.activeRunId = job.id;
    this.queueStep(job, 0);
  }

  private queueStep(job: Job, delaySeconds: number, set: Record<string, unknown> = {}) {
    Object.assign(job, set);
    job.ticket += 1;
    this.queue.push({ jobId: job.id, ticket: job.ticket, at: this.now + delaySeconds * 1000 });
  }

  private write(
    job: Job,
    change: { add?: Record<string, number>; set?: Record<string, unknown>; remove?: string[] },
  ) {
    for (const [key, n] of Object.entries(change.add ?? {}))
      (job as unknown as Record<string, number>)[key] =
        ((job as unknown as Record<string, number>)[key] ?? 0) + n;
    Object.assign(job, change.set);
    for (const key of change.remove ?? []) delete (job as unknown as Record<string, unknown>)[key];
  }

  private finish(job: Job) {
    const outcome = job.outcome!;
    const onLink = finishOnLink(this.link, job, outcome, this.now);
    if (this.link.activeRunId === onLink.guard) {
      if (onLink.set.cursor !== undefined && onLink.set.cursor !== this.link.cursor)
        this.cursorMoves.push(job.id);
      this.write(this.link as unknown as Job, { set: onLink.set, remove: onLink.remove });
    }
    const { set, remove } = closing(outcome, this.now);
    this.write(job, { set, remove });
    this.decided.set(job.id, `${outcome.status}:${outcome.reason ?? ''}`);
  }

  private work(job: Job, work: Work): StepResult | RunFailure | 'crash' {
    const refused = linkRefusal(this.link, job.id);
    if (refused) return { outcome: refused };
    if (job.waitUntil !== undefined && job.waitUntil > this.now)
      throw new Error(`${job.id} worked while waiting`);
    if (work === 'crash') return 'crash';
    if (work === 'again') return { again: true };
    if (work === 'throttle') return { kind: 'throttled', until: this.now + 90 * 60_000 };
    if (work === 'transient') return { kind: 'transient' };
    if (work === 'fatal') return { kind: 'fatal', reason: 'source_not_found' };
    if (job.phase === 'reconcile') {
      const result = reconcileTaken(job, { pages: 1 }, work === 'more' ? `l${++this.pages}` : undefined);
      if (result.outcome) job.reconcileEnded = true;
      return result;
    }
    if (work === 'restart') return feedRestarted(job) ?? { kind: 'fatal', reason: 'provider_refused' };
    return pageTaken(
      job,
      { pages: 1 },
      {},
      work === 'more' ? { page: `p${++this.pages}` } : { cursor: `c${++this.pages}` },
    );
  }

  deliver(pick: number, duplicate: boolean, work: Work) {
    const due = this.queue.filter((m) => m.at <= this.now);
    if (!due.length) return;
    const message = due[pick % due.length]!;
    if (!duplicate) this.queue.splice(this.queue.indexOf(message), 1);
    const job = this.jobs.get(message.jobId);
    const next = onMessage(job, 'sync', message.ticket, this.now);
    if (next.kind === 'drop') return;
    if (next.kind === 'finish') return this.finish(job!);
    if (next.kind === 'queue') return this.queueStep(job!, next.delaySeconds, next.set);
    if (next.kind !== 'work') throw new Error(`unexpected ${next.kind}`);
    const done = this.work(job!, work);
    if (done === 'crash') {
      // The worker died mid-step: SQS redelivers the same message.
      if (duplicate) return;
      this.queue.push(message);
      return;
    }
    const decision: StepDecision =
      'kind' in done ? onFailed(job!, done as RunFailure, this.now) : onWorked(done as StepResult, this.now);
    this.apply(job!, decision);
  }

  private apply(job: Job, decision: StepDecision) {
    if (decision.kind === 'queue') return this.queueStep(job, decision.delaySeconds, decision.set);
    if (decision.kind === 'fail') decision = onWorked({ outcome: decision.outcome }, this.now);
    if (decision.kind !== 'commit') throw new Error(`unexpected ${decision.kind}`);
    if (job.committedTicket === job.ticket) return;
    this.write(job, {
      add: decision.add,
      set: { ...decision.set, committedTicket: job.ticket },
      remove: decision.remove,
    });
    if (job.outcome) return this.finish(job);
    this.queueStep(job, 0);
  }

  check(history: Event[]) {
    const where = JSON.stringify(history);
    const processing = [...this.jobs.values()].filter((j) => j.status === 'processing');
    expect({ where, processing: processing.length <= 1 }).toEqual({ where, processing: true });
    if (processing[0])
      expect({ where, claim: this.link.activeRunId }).toEqual({ where, claim: processing[0].id });
    if (this.link.activeRunId)
      expect({ where, status: this.jobs.get(this.link.activeRunId)?.status }).toEqual({
        where,
        status: 'processing',
      });
    for (const job of this.jobs.values()) {
      const decided = this.decided.get(job.id);
      if (decided) {
        expect({ where, job: job.id, now: `${job.status}:${job.reason ?? ''}` }).toEqual({
          where,
          job: job.id,
          now: decided,
        });
      }
      if (job.status === 'succeeded' && job.mode === 'full')
        expect({ where, job: job.id, reconciled: job.reconcileEnded }).toEqual({
          where,
          job: job.id,
          reconciled: true,
        });
      if (job.phase === 'reconcile') expect({ where, mode: job.mode }).toEqual({ where, mode: 'full' });
      expect(job.attempts).toBeLessThan(TRANSIENT_ATTEMPTS);
    }
    for (const id of this.cursorMoves)
      expect({ where, id, status: this.jobs.get(id)!.status }).toEqual({ where, id, status: 'succeeded' });
  }

  /** Every message delivered, with time enough, each step listing its last page. */
  drain() {
    for (let i = 0; i < 10_000 && this.queue.length; i++) {
      const at = Math.min(...this.queue.map((m) => m.at));
      this.now = Math.max(this.now, at);
      this.deliver(0, false, 'end');
    }
  }
}

describe('run-decide: generated sequences', () => {
  it(`holds its invariants after every event and finishes every run (seed ${SEED})`, () => {
    fc.assert(
      fc.property(fc.array(eventArbitrary, { minLength: 1, maxLength: 60 }), (events) => {
        const model = new Model();
        const history: Event[] = [];
        for (const event of events) {
          history.push(event);
          if (event.kind === 'start') model.start(event.mode);
          else if (event.kind === 'tick') model.now += event.ms;
          else model.deliver(event.pick, event.duplicate, event.work);
          model.check(history);
        }
        model.drain();
        model.check(history);
        expect([...model.jobs.values()].filter((j) => j.status === 'processing')).toEqual([]);
        expect(model.link.activeRunId).toBeUndefined();
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});
