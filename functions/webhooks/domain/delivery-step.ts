// The delivery state machine in one pure function: given the delivery as stored, the queue message at
// hand and what just happened, step() says what to write (and over which stored values), which queue
// messages to send, how the message ends, or why nothing is to be done. The worker (app/deliver.ts),
// replay and recover only load, call step, write and send; every rule of the machine is here.
//
//  happened            | applies when                                    | change (guard)                         | sends, then
//  --------------------|-------------------------------------------------|----------------------------------------|------------------------------
//  received            | no delivery / other cycle                       | refused: gone / stale                  | done
//                      | attempt already made, failed exhausted          | refused: already_made                  | dead_letter if it was this attempt's message, else done
//                      | attempt already made, retrying, next not sent   | -                                      | next attempt's message; done
//                      | attempt already made, otherwise                 | refused: already_made                  | done
//                      | delivered, failed, skipped                      | refused: settled                       | done
//                      | not due yet                                     | -                                      | the message again, delayed; done
//                      | due                                             | -                                      | attempt
//  endpoint_gone       | (deleted since the event)                       | failed endpoint_deleted (cycle, count) | done
//  endpoint_disabled   |                                                 | skipped_disabled (cycle, count)        | done
//  attempted           | delivered                                       | delivered (cycle, count = attempt - 1) | done
//                      | refused by the receiver / retries ran out       | failed rejected / exhausted (same)     | done / dead_letter
//                      | retry within the inline pause                   | retrying (same)                        | retry_inline
//                      | retry later                                     | retrying (same)                        | next attempt's message; done
//  scheduled           | the next attempt's message was sent             | scheduledAttempt (cycle)               | done
//  last_receive        | the step is still to be made, pending/retrying  | failed dead_lettered (cycle,count,status) | (the step goes on)
//  last_receive_ended  | the mark is still there                         | back to strandedFrom (cycle, count, reason) | done
//  replay              | always                                          | pending in a new cycle (cycle)         | the new cycle's first message; done
//
// A first attempt's message may carry its delivery as fan-out created it (`created`); on its first
// receive the worker decides on that instead of a read, and the endpoint_gone, endpoint_disabled and
// attempted changes are then guarded on the status too (overCarriedStatus).
//
// A guard is the stored values the change must be applied over; a change whose guard no longer holds
// was made by another message first (a duplicate, a replay) and is dropped.
import type { AttemptOutcome } from './attempt';
import type { AttemptMessage } from './messages';
import type { AttemptRecord, DeliveryItem } from './records';
import { retentionExpiry } from './records';
import type { DeliveryStatus, FailureReason, NextStep } from './retry-policy';
import { DUE_TOLERANCE_MS, nextStep } from './retry-policy';
import { hopDelaySeconds } from '../../platform/durable-timer';

export type StepOutcome =
  /** A queue message is at hand, before any attempt. */
  | { kind: 'received' }
  /** The endpoint was deleted, or disabled, since the event: no attempt is made. */
  | { kind: 'endpoint_gone' }
  | { kind: 'endpoint_disabled' }
  /** The message's attempt was made (startedAt .. now); `random` in [0, 1) jitters the schedule. */
  | { kind: 'attempted'; result: AttemptOutcome; startedAt: number; random: number; inlinePauseMs: number }
  /** The next attempt's message (attempt `attempt`) is on the queue. */
  | { kind: 'scheduled'; attempt: number }
  /** The message is on its last receive before the dead-letter queue; and that receive ended. */
  | { kind: 'last_receive' }
  | { kind: 'last_receive_ended' }
  /** Send the event again now (the API, or a recover job naming itself). */
  | { kind: 'replay'; recoveredBy?: string };

/** The stored values a change is applied over. */
export interface Guard {
  cycle: number;
  attemptCount?: number;
  status?: DeliveryStatus;
  failureReason?: FailureReason;
}

export type DeliveryField = Exclude<keyof DeliveryItem, 'id'>;

export interface Change {
  set: Partial<Record<DeliveryField, unknown>>;
  remove: DeliveryField[];
  over: Guard;
}

/** A message for the deliveries queue, delayed (SQS allows up to 15 minutes; longer waits hop). */
export interface Send {
  message: Omit<AttemptMessage, 'kind'>;
  delaySeconds: number;
  /**
   * The next attempt's message: once sent, step `scheduled` records it (after the send, so a crash in
   * between leaves it unrecorded and the redelivered message sends it again).
   */
  schedules: boolean;
}

/**
 * How the message ends. done: acknowledge it; dead_letter: report it failed, so the queue's redrive
 * moves it to the dead-letter queue; attempt: make the attempt now; retry_inline: wait `waitMs` and
 * attempt again in this receive.
 */
export type Then = 'done' | 'dead_letter' | 'attempt' | 'retry_inline';

/** How the attempt bears on the endpoint's health (the auto-disable policy). */
export type HealthEffect = 'success' | 'failure' | 'final_failure';

export interface Decision {
  kind: 'apply';
  change?: Change;
  /** The attempt's own record (attempted only). */
  record?: AttemptRecord;
  send: Send[];
  then: Then;
  next?: NextStep;
  health?: HealthEffect;
}

export type RefusalReason = 'gone' | 'stale' | 'already_made' | 'settled' | 'not_marked';

export interface Refusal {
  kind: 'refuse';
  reason: RefusalReason;
  then: 'done' | 'dead_letter';
}

export type Step = Decision | Refusal;

const refuse = (reason: RefusalReason, then: Refusal['then'] = 'done'): Refusal => ({
  kind: 'refuse',
  reason,
  then,
});

const apply = (decision: Omit<Decision, 'kind' | 'send'> & { send?: Send[] }): Decision => ({
  kind: 'apply',
  send: [],
  ...decision,
});

/**
 * Still to be attempted: pending or retrying, or marked dead_lettered by its message's last receive
 * (that receive itself, or the message redriven from the dead-letter queue by an operator).
 */
export const live = (delivery: DeliveryItem): boolean =>
  delivery.status === 'pending' ||
  delivery.status === 'retrying' ||
  (delivery.status === 'failed' && delivery.failureReason === 'dead_lettered');

const attemptMessage = (
  delivery: DeliveryItem,
  attempt: number,
  dueAt: number,
  now: number,
  schedules: boolean,
): Send => ({
  message: { deliveryId: delivery.id, cycle: delivery.cycle, attempt, dueAt },
  delaySeconds: hopDelaySeconds(dueAt, now, DUE_TOLERANCE_MS),
  schedules,
});

function received(delivery: DeliveryItem | undefined, message: AttemptMessage, now: number): Step {
  if (!delivery) return refuse('gone');
  if (delivery.cycle !== message.cycle) return refuse('stale'); // replayed since
  if (delivery.attemptCount >= message.attempt) {
    // A redelivered message: finish what a crash may have left, attempt nothing.
    if (delivery.status === 'failed' && delivery.failureReason === 'exhausted')
      return refuse('already_made', message.attempt === delivery.attemptCount ? 'dead_letter' : 'done');
    const next = delivery.attemptCount + 1;
    if (delivery.status === 'retrying' && delivery.scheduledAttempt !== next)
      return apply({
        send: [attemptMessage(delivery, next, delivery.nextAttemptAt!, now, true)],
        then: 'done',
      });
    return refuse('already_made');
  }
  if (!live(delivery)) return refuse('settled');
  if (hopDelaySeconds(message.dueAt, now, DUE_TOLERANCE_MS) > 0)
    return apply({
      send: [attemptMessage(delivery, message.attempt, message.dueAt, now, false)],
      then: 'done',
    });
  return apply({ then: 'attempt' });
}

/** Settles the delivery without an attempt (endpoint deleted or disabled since the event). */
function settleWithoutAttempt(delivery: DeliveryItem, deleted: boolean, now: number): Decision {
  return apply({
    change: {
      set: deleted
        ? { status: 'failed', failureReason: 'endpoint_deleted', updatedAt: now }
        : { status: 'skipped_disabled', updatedAt: now },
      remove: ['nextAttemptAt', 'strandedFrom', ...(deleted ? [] : (['failureReason'] as const))],
      over: { cycle: delivery.cycle, attemptCount: delivery.attemptCount },
    },
    then: 'done',
  });
}

function attempted(
  delivery: DeliveryItem,
  attempt: number,
  outcome: Extract<StepOutcome, { kind: 'attempted' }>,
  now: number,
): Decision {
  const { result, startedAt } = outcome;
  const next = nextStep(attempt - delivery.cycleStart + 1, result, outcome.random, outcome.inlinePauseMs);
  // lastAttemptAt matches the attempt's attemptedAt (its start); the rest count from its end (now).
  const set: Change['set'] = {
    attemptCount: attempt,
    lastAttemptAt: startedAt,
    lastLatencyMs: result.latencyMs,
    updatedAt: now,
  };
  // A recorded attempt replaces a dead_lettered mark of its message's last receive.
  const remove: DeliveryField[] = ['strandedFrom'];
  if (result.statusCode !== undefined) set.lastStatusCode = result.statusCode;
  else remove.push('lastStatusCode');
  if (result.errorKind) set.lastError = `${result.errorKind}: ${result.errorMessage ?? ''}`.slice(0, 500);
  else remove.push('lastError');
  let then: Then = 'done';
  const send: Send[] = [];
  if (next.kind === 'delivered') {
    Object.assign(set, { status: 'delivered', deliveredAt: now });
    remove.push('nextAttemptAt', 'failureReason');
  } else if (next.kind === 'failed') {
    Object.assign(set, { status: 'failed', failureReason: next.reason });
    remove.push('nextAttemptAt');
    if (next.reason === 'exhausted') then = 'dead_letter';
  } else {
    Object.assign(set, { status: 'retrying', nextAttemptAt: now + next.waitMs });
    remove.push('failureReason');
    if (next.inline) then = 'retry_inline';
    else send.push(attemptMessage(delivery, attempt + 1, now + next.waitMs, now, true));
  }
  return apply({
    change: { set, remove, over: { cycle: delivery.cycle, attemptCount: attempt - 1 } },
    record: {
      deliveryId: delivery.id,
      attempt,
      cycle: delivery.cycle,
      attemptedAt: startedAt, // when the attempt began; latencyMs says how long it took
      outcome: result.kind,
      ...(result.statusCode !== undefined ? { statusCode: result.statusCode } : {}),
      ...(result.errorKind ? { errorKind: result.errorKind, errorMessage: result.errorMessage ?? '' } : {}),
      latencyMs: result.latencyMs,
      responseBody: result.responseBody,
      ...(result.requestHeaders ? { requestHeaders: result.requestHeaders } : {}),
      ...(result.responseHeaders ? { responseHeaders: result.responseHeaders } : {}),
      ttl: retentionExpiry(startedAt),
    },
    send,
    then,
    next,
    health: next.kind === 'delivered' ? 'success' : next.kind === 'failed' ? 'final_failure' : 'failure',
  });
}

function markDeadLettered(delivery: DeliveryItem | undefined, message: AttemptMessage, now: number): Step {
  if (!delivery) return refuse('gone');
  if (delivery.cycle !== message.cycle) return refuse('stale');
  if (delivery.attemptCount >= message.attempt) return refuse('already_made');
  if (delivery.status !== 'pending' && delivery.status !== 'retrying') return refuse('settled');
  return apply({
    change: {
      set: {
        status: 'failed',
        failureReason: 'dead_lettered',
        strandedFrom: delivery.status,
        updatedAt: now,
      },
      remove: [],
      over: { cycle: delivery.cycle, attemptCount: delivery.attemptCount, status: delivery.status },
    },
    then: 'attempt',
  });
}

function unmarkDeadLettered(delivery: DeliveryItem | undefined, now: number): Step {
  if (!delivery) return refuse('gone');
  if (delivery.failureReason !== 'dead_lettered' || !delivery.strandedFrom) return refuse('not_marked');
  return apply({
    change: {
      set: { status: delivery.strandedFrom, updatedAt: now },
      remove: ['failureReason', 'strandedFrom'],
      over: { cycle: delivery.cycle, attemptCount: delivery.attemptCount, failureReason: 'dead_lettered' },
    },
    then: 'done',
  });
}

function replay(delivery: DeliveryItem, recoveredBy: string | undefined, now: number): Decision {
  const attempt = delivery.attemptCount + 1;
  const cycle = delivery.cycle + 1;
  return apply({
    change: {
      set: {
        status: 'pending',
        cycle,
        cycleStart: attempt,
        scheduledAttempt: attempt,
        nextAttemptAt: now,
        updatedAt: now,
        ttl: retentionExpiry(now),
        ...(recoveredBy ? { recoveredBy } : {}),
      },
      remove: ['failureReason'],
      over: { cycle: delivery.cycle },
    },
    // scheduledAttempt is written with the new cycle: a replay's message is sent after its write.
    send: [
      { message: { deliveryId: delivery.id, cycle, attempt, dueAt: now }, delaySeconds: 0, schedules: false },
    ],
    then: 'done',
  });
}

/**
 * One step of a delivery. `message` is the queue message at hand (absent for a replay); for
 * `attempted` its attempt is the one just made. `now` is when the step is decided (for `attempted`,
 * when the answer, error or timeout came: the schedule counts from there).
 */
export function step(
  delivery: DeliveryItem | undefined,
  message: AttemptMessage | undefined,
  outcome: StepOutcome,
  now: number,
): Step {
  // Steps about the delivery alone.
  switch (outcome.kind) {
    case 'replay':
      return delivery ? replay(delivery, outcome.recoveredBy, now) : refuse('gone');
    case 'last_receive_ended':
      return unmarkDeadLettered(delivery, now);
    case 'scheduled':
      if (!delivery) return refuse('gone');
      return apply({
        change: { set: { scheduledAttempt: outcome.attempt }, remove: [], over: { cycle: delivery.cycle } },
        then: 'done',
      });
    default:
  }
  // Steps of the queue message at hand.
  if (!message) throw new TypeError(`step ${outcome.kind} needs the queue message`);
  switch (outcome.kind) {
    case 'received':
      return received(delivery, message, now);
    case 'last_receive':
      return markDeadLettered(delivery, message, now);
    default:
  }
  if (!delivery) return refuse('gone');
  const decided =
    outcome.kind === 'attempted'
      ? attempted(delivery, message.attempt, outcome, now)
      : settleWithoutAttempt(delivery, outcome.kind === 'endpoint_gone', now);
  return message.created ? overCarriedStatus(decided, delivery) : decided;
}

/**
 * A message that carries its delivery (a first attempt's, on its first receive) was decided on the
 * delivery as fan-out created it, not on a read: the change is applied over that status too, so a
 * delivery that moved on without an attempt since (settled by a duplicate message, marked
 * dead-lettered by another receive) is never overwritten. Cycle and attemptCount alone are what a
 * read delivery's changes are guarded on.
 */
function overCarriedStatus(decided: Decision, delivery: DeliveryItem): Decision {
  if (!decided.change) return decided;
  return {
    ...decided,
    change: { ...decided.change, over: { ...decided.change.over, status: delivery.status } },
  };
}
