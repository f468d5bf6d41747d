// The delivery state machine on plain values: every row of domain/delivery-step.ts's table, with the
// change it writes, the stored values it is written over, the messages it sends and how the message
// ends. No table, no queue, no clock.
import type { AttemptOutcome } from '../../functions/webhooks/domain/attempt';
import type { Decision, Guard, Step, StepOutcome } from '../../functions/webhooks/domain/delivery-step';
import { step } from '../../functions/webhooks/domain/delivery-step';
import type { AttemptMessage } from '../../functions/webhooks/domain/messages';
import type { DeliveryItem } from '../../functions/webhooks/domain/records';
import {
  CARRIED_BODY_MAX_BYTES,
  carriedDelivery,
  createdFields,
  deliveryId,
  retentionExpiry,
} from '../../functions/webhooks/domain/records';
import { MAX_ATTEMPTS } from '../../functions/webhooks/domain/retry-policy';

const NOW = Date.parse('2026-05-01T12:00:00.000Z');
const ID = 'dlv_aaaaaaaaaaaaaaaaaaaa';

const delivery = (fields: Partial<DeliveryItem> = {}): DeliveryItem => ({
  id: ID,
  organizationId: 'org_aaaaaaaaaaaaaaaaaaaa',
  endpointId: 'we_aaaaaaaaaaaaaaaaaaaa',
  eventId: 'evt_aaaaaaaaaaaaaaaaaaaa',
  eventType: 'matter.created',
  occurredAt: NOW - 10_000,
  body: '{}',
  status: 'pending',
  attemptCount: 0,
  cycle: 0,
  cycleStart: 1,
  scheduledAttempt: 1,
  createdAt: NOW - 10_000,
  updatedAt: NOW - 10_000,
  ttl: 0,
  ...fields,
});

const message = (fields: Partial<AttemptMessage> = {}): AttemptMessage => ({
  kind: 'attempt',
  deliveryId: ID,
  cycle: 0,
  attempt: 1,
  dueAt: NOW,
  ...fields,
});

const answer = (fields: Partial<AttemptOutcome>): AttemptOutcome => ({
  kind: 'delivered',
  latencyMs: 20,
  responseBody: '',
  ...fields,
});

const attempted = (result: Partial<AttemptOutcome>): StepOutcome => ({
  kind: 'attempted',
  result: answer(result),
  startedAt: NOW - 20,
  random: 0.5,
  inlinePauseMs: 1_000,
});

/** The parts of a step a row states (what is not stated must be absent). */
const shape = (s: Step) =>
  s.kind === 'refuse'
    ? { refused: s.reason, then: s.then }
    : {
        then: s.then,
        ...(s.change ? { set: s.change.set, remove: s.change.remove, over: s.change.over } : {}),
        send: s.send.map((m) => ({ ...m.message, delay: m.delaySeconds, schedules: m.schedules })),
        ...(s.health ? { health: s.health } : {}),
      };

describe('a message received before any attempt', () => {
  it.each<[string, DeliveryItem | undefined, AttemptMessage, ReturnType<typeof shape>]>([
    ['no delivery: gone', undefined, message(), { refused: 'gone', then: 'done' }],
    ['another cycle: stale', delivery({ cycle: 1 }), message(), { refused: 'stale', then: 'done' }],
    [
      'its attempt made and retries exhausted, this attempt: dead-lettered',
      delivery({ status: 'failed', failureReason: 'exhausted', attemptCount: 12 }),
      message({ attempt: 12 }),
      { refused: 'already_made', then: 'dead_letter' },
    ],
    [
      'exhausted, an older attempt: acknowledged',
      delivery({ status: 'failed', failureReason: 'exhausted', attemptCount: 12 }),
      message({ attempt: 11 }),
      { refused: 'already_made', then: 'done' },
    ],
    [
      'its attempt made, retrying, the next message not recorded as sent: sent again',
      delivery({ status: 'retrying', attemptCount: 3, scheduledAttempt: 3, nextAttemptAt: NOW + 60_000 }),
      message({ attempt: 3 }),
      {
        then: 'done',
        send: [{ deliveryId: ID, cycle: 0, attempt: 4, dueAt: NOW + 60_000, delay: 60, schedules: true }],
      },
    ],
    [
      'its attempt made, the next one sent: nothing',
      delivery({ status: 'retrying', attemptCount: 3, scheduledAttempt: 4, nextAttemptAt: NOW + 60_000 }),
      message({ attempt: 3 }),
      { refused: 'already_made', then: 'done' },
    ],
    [
      'delivered: settled',
      delivery({ status: 'delivered', attemptCount: 0 }),
      message(),
      { refused: 'settled', then: 'done' },
    ],
    [
      'skipped: settled',
      delivery({ status: 'skipped_disabled' }),
      message(),
      { refused: 'settled', then: 'done' },
    ],
    [
      'not due: the same message again, delayed (at most 15 minutes a hop)',
      delivery({ status: 'retrying', attemptCount: 2, scheduledAttempt: 3 }),
      message({ attempt: 3, dueAt: NOW + 3_600_000 }),
      {
        then: 'done',
        send: [
          { deliveryId: ID, cycle: 0, attempt: 3, dueAt: NOW + 3_600_000, delay: 900, schedules: false },
        ],
      },
    ],
    ['due: attempt', delivery(), message(), { then: 'attempt', send: [] }],
    [
      'marked dead_lettered by its last receive: still attempted',
      delivery({ status: 'failed', failureReason: 'dead_lettered', strandedFrom: 'pending' }),
      message(),
      { then: 'attempt', send: [] },
    ],
  ])('%s', (_name, stored, msg, expected) => {
    expect(shape(step(stored, msg, { kind: 'received' }, NOW))).toEqual(expected);
  });
});

describe('an attempt made', () => {
  const over = { cycle: 0, attemptCount: 0 };
  it.each<[string, DeliveryItem, Partial<AttemptOutcome>, ReturnType<typeof shape>]>([
    [
      'delivered',
      delivery(),
      { kind: 'delivered', statusCode: 204 },
      {
        then: 'done',
        set: {
          attemptCount: 1,
          lastAttemptAt: NOW - 20,
          lastLatencyMs: 20,
          updatedAt: NOW,
          lastStatusCode: 204,
          status: 'delivered',
          deliveredAt: NOW,
        },
        remove: ['strandedFrom', 'lastError', 'nextAttemptAt', 'failureReason'],
        over,
        send: [],
        health: 'success',
      },
    ],
    [
      'refused by the receiver: failed, no retry',
      delivery(),
      { kind: 'failed', statusCode: 410, errorKind: 'http_status', errorMessage: 'HTTP 410' },
      {
        then: 'done',
        set: {
          attemptCount: 1,
          lastAttemptAt: NOW - 20,
          lastLatencyMs: 20,
          updatedAt: NOW,
          lastStatusCode: 410,
          lastError: 'http_status: HTTP 410',
          status: 'failed',
          failureReason: 'rejected',
        },
        remove: ['strandedFrom', 'nextAttemptAt'],
        over,
        send: [],
        health: 'final_failure',
      },
    ],
    [
      'the first attempt failing: retried inline after the pause',
      delivery(),
      { kind: 'retry', errorKind: 'timeout', errorMessage: 'no answer' },
      {
        then: 'retry_inline',
        set: {
          attemptCount: 1,
          lastAttemptAt: NOW - 20,
          lastLatencyMs: 20,
          updatedAt: NOW,
          lastError: 'timeout: no answer',
          status: 'retrying',
          nextAttemptAt: NOW + 1_000,
        },
        remove: ['strandedFrom', 'lastStatusCode', 'failureReason'],
        over,
        send: [],
        health: 'failure',
      },
    ],
    [
      'the second attempt failing: the next one scheduled 1 minute on (jitter 0.5)',
      delivery({ status: 'retrying', attemptCount: 1, scheduledAttempt: 1 }),
      { kind: 'retry', statusCode: 503 },
      {
        then: 'done',
        set: {
          attemptCount: 2,
          lastAttemptAt: NOW - 20,
          lastLatencyMs: 20,
          updatedAt: NOW,
          lastStatusCode: 503,
          status: 'retrying',
          nextAttemptAt: NOW + 60_000,
        },
        remove: ['strandedFrom', 'lastError', 'failureReason'],
        over: { cycle: 0, attemptCount: 1 },
        send: [{ deliveryId: ID, cycle: 0, attempt: 3, dueAt: NOW + 60_000, delay: 60, schedules: true }],
        health: 'failure',
      },
    ],
    [
      'the last attempt of its cycle failing: exhausted, dead-lettered',
      delivery({ status: 'retrying', attemptCount: MAX_ATTEMPTS - 1 }),
      { kind: 'retry', statusCode: 500 },
      {
        then: 'dead_letter',
        set: {
          attemptCount: MAX_ATTEMPTS,
          lastAttemptAt: NOW - 20,
          lastLatencyMs: 20,
          updatedAt: NOW,
          lastStatusCode: 500,
          status: 'failed',
          failureReason: 'exhausted',
        },
        remove: ['strandedFrom', 'lastError', 'nextAttemptAt'],
        over: { cycle: 0, attemptCount: MAX_ATTEMPTS - 1 },
        send: [],
        health: 'final_failure',
      },
    ],
    [
      'a replayed cycle counts its attempts from its own start',
      delivery({ status: 'pending', attemptCount: MAX_ATTEMPTS, cycle: 1, cycleStart: MAX_ATTEMPTS + 1 }),
      { kind: 'retry', statusCode: 500 },
      {
        then: 'retry_inline',
        set: {
          attemptCount: MAX_ATTEMPTS + 1,
          lastAttemptAt: NOW - 20,
          lastLatencyMs: 20,
          updatedAt: NOW,
          lastStatusCode: 500,
          status: 'retrying',
          nextAttemptAt: NOW + 1_000,
        },
        remove: ['strandedFrom', 'lastError', 'failureReason'],
        over: { cycle: 1, attemptCount: MAX_ATTEMPTS },
        send: [],
        health: 'failure',
      },
    ],
  ])('%s', (_name, stored, result, expected) => {
    const msg = message({ cycle: stored.cycle, attempt: stored.attemptCount + 1 });
    expect(shape(step(stored, msg, attempted(result), NOW))).toEqual(expected);
  });

  it('records the attempt itself, keyed by its number, kept 30 days from its start', () => {
    const decided = step(
      delivery(),
      message(),
      attempted({ kind: 'retry', statusCode: 429, retryAfterSeconds: 120 }),
      NOW,
    ) as Decision;
    expect(decided.record).toEqual({
      deliveryId: ID,
      attempt: 1,
      cycle: 0,
      attemptedAt: NOW - 20,
      outcome: 'retry',
      statusCode: 429,
      latencyMs: 20,
      responseBody: '',
      ttl: retentionExpiry(NOW - 20),
    });
    // A Retry-After longer than the inline pause sends the retry to the queue instead.
    expect(decided.then).toBe('done');
    expect(decided.send.map((s) => [s.message.attempt, s.message.dueAt])).toEqual([[2, NOW + 120_000]]);
  });
});

describe('a message that carries its delivery (a first attempt, first receive: no read)', () => {
  const carried = message({ created: createdFields(delivery()) });

  it.each<[string, StepOutcome, Guard]>([
    [
      'attempted: over the carried status as well',
      attempted({ statusCode: 204 }),
      { cycle: 0, attemptCount: 0, status: 'pending' },
    ],
    [
      'endpoint deleted: over the carried status as well',
      { kind: 'endpoint_gone' },
      { cycle: 0, attemptCount: 0, status: 'pending' },
    ],
    [
      'endpoint disabled: over the carried status as well',
      { kind: 'endpoint_disabled' },
      { cycle: 0, attemptCount: 0, status: 'pending' },
    ],
  ])('%s', (_name, outcome, over) => {
    expect((step(delivery(), carried, outcome, NOW) as Decision).change!.over).toEqual(over);
  });

  it('carries what makes the delivery again as fan-out created it, and nothing for a large body or a delivery under way', () => {
    const created = delivery({
      ttl: retentionExpiry(NOW - 10_000),
      id: deliveryId('evt_aaaaaaaaaaaaaaaaaaaa', 'we_aaaaaaaaaaaaaaaaaaaa'),
    });
    expect(carriedDelivery(created.id, createdFields(created))).toEqual(created);
    expect(carriedDelivery(ID, createdFields(created))).toBeUndefined(); // fields of another delivery
    expect(carriedDelivery(created.id, undefined)).toBeUndefined();
    expect(createdFields(delivery({ body: 'x'.repeat(CARRIED_BODY_MAX_BYTES + 1) }))).toBeUndefined();
    expect(createdFields(delivery({ status: 'retrying', attemptCount: 1 }))).toBeUndefined();
    expect(createdFields(delivery({ cycle: 1 }))).toBeUndefined();
  });

  it('a read delivery is guarded on cycle and attemptCount only, so a recorded attempt replaces a dead-letter mark', () => {
    const marked = delivery({ status: 'failed', failureReason: 'dead_lettered', strandedFrom: 'pending' });
    expect((step(marked, message(), attempted({ statusCode: 204 }), NOW) as Decision).change!.over).toEqual({
      cycle: 0,
      attemptCount: 0,
    });
  });
});

describe('steps without an attempt', () => {
  it.each<
    [string, DeliveryItem | undefined, StepOutcome, AttemptMessage | undefined, ReturnType<typeof shape>]
  >([
    [
      'endpoint deleted: failed endpoint_deleted',
      delivery({ status: 'retrying', attemptCount: 2 }),
      { kind: 'endpoint_gone' },
      message({ attempt: 3 }),
      {
        then: 'done',
        set: { status: 'failed', failureReason: 'endpoint_deleted', updatedAt: NOW },
        remove: ['nextAttemptAt', 'strandedFrom'],
        over: { cycle: 0, attemptCount: 2 },
        send: [],
      },
    ],
    [
      'endpoint disabled: skipped',
      delivery(),
      { kind: 'endpoint_disabled' },
      message(),
      {
        then: 'done',
        set: { status: 'skipped_disabled', updatedAt: NOW },
        remove: ['nextAttemptAt', 'strandedFrom', 'failureReason'],
        over: { cycle: 0, attemptCount: 0 },
        send: [],
      },
    ],
    [
      'the next message sent: recorded over the cycle only',
      delivery({ cycle: 2 }),
      { kind: 'scheduled', attempt: 5 },
      undefined,
      { then: 'done', set: { scheduledAttempt: 5 }, remove: [], over: { cycle: 2 }, send: [] },
    ],
    [
      'last receive of a due step: marked dead_lettered over cycle, count and status',
      delivery({ status: 'retrying', attemptCount: 2 }),
      { kind: 'last_receive' },
      message({ attempt: 3 }),
      {
        then: 'attempt',
        set: { status: 'failed', failureReason: 'dead_lettered', strandedFrom: 'retrying', updatedAt: NOW },
        remove: [],
        over: { cycle: 0, attemptCount: 2, status: 'retrying' },
        send: [],
      },
    ],
    [
      'last receive of a step already made: no mark',
      delivery({ status: 'retrying', attemptCount: 3 }),
      { kind: 'last_receive' },
      message({ attempt: 3 }),
      { refused: 'already_made', then: 'done' },
    ],
    [
      'last receive of a settled delivery: no mark',
      delivery({ status: 'delivered' }),
      { kind: 'last_receive' },
      message(),
      { refused: 'settled', then: 'done' },
    ],
    [
      'last receive of another cycle: no mark',
      delivery({ cycle: 1 }),
      { kind: 'last_receive' },
      message(),
      { refused: 'stale', then: 'done' },
    ],
    [
      'the last receive ended with the mark still there: taken back',
      delivery({ status: 'failed', failureReason: 'dead_lettered', strandedFrom: 'pending' }),
      { kind: 'last_receive_ended' },
      undefined,
      {
        then: 'done',
        set: { status: 'pending', updatedAt: NOW },
        remove: ['failureReason', 'strandedFrom'],
        over: { cycle: 0, attemptCount: 0, failureReason: 'dead_lettered' },
        send: [],
      },
    ],
    [
      'the last receive ended, an attempt replaced the mark: nothing',
      delivery({ status: 'delivered', attemptCount: 1 }),
      { kind: 'last_receive_ended' },
      undefined,
      { refused: 'not_marked', then: 'done' },
    ],
    [
      'replay: a new cycle from the next attempt, its message sent after the write',
      delivery({ status: 'failed', failureReason: 'exhausted', attemptCount: 12, cycle: 0 }),
      { kind: 'replay', recoveredBy: 'job_aaaaaaaaaaaaaaaaaaaa' },
      undefined,
      {
        then: 'done',
        set: {
          status: 'pending',
          cycle: 1,
          cycleStart: 13,
          scheduledAttempt: 13,
          nextAttemptAt: NOW,
          updatedAt: NOW,
          ttl: retentionExpiry(NOW),
          recoveredBy: 'job_aaaaaaaaaaaaaaaaaaaa',
        },
        remove: ['failureReason'],
        over: { cycle: 0 },
        send: [{ deliveryId: ID, cycle: 1, attempt: 13, dueAt: NOW, delay: 0, schedules: false }],
      },
    ],
    ['replay of nothing: gone', undefined, { kind: 'replay' }, undefined, { refused: 'gone', then: 'done' }],
  ])('%s', (_name, stored, outcome, msg, expected) => {
    expect(shape(step(stored, msg, outcome, NOW))).toEqual(expected);
  });

  it('refuses a message step without its message', () => {
    expect(() => step(delivery(), undefined, { kind: 'received' }, NOW)).toThrow(TypeError);
  });
});
