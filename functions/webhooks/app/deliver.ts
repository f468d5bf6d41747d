// The delivery worker's core: one queue message is one step of a delivery's state machine. It makes
// the attempt (and the inline retry), records every attempt, schedules the next one (in queue hops
// when the wait is longer than SQS allows) or settles the delivery, and keeps the endpoint's health
// for the auto-disable policy. Redelivered and stale messages are recognised and do no second attempt.
import { epochSeconds, wallTime } from '../../platform/clock';
import type { Deps } from '../../platform/ports';
import { ConditionFailedError, NotFoundError, won } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { emitMetrics } from '../../platform/metrics';
import type { Update } from '../../platform/ports';
import { cacheEndpoint, cacheEpoch, cachedEndpoint, forgetEndpoint } from './endpoint-cache';
import type { EndpointItem } from './endpoints';
import { activeSigningSecrets, loadEndpoint } from './endpoints';
import { afterPermanentFailure, recordFailure, recordSuccess } from './health';
import type { AttemptMessage } from '../domain/messages';
import { attemptBody } from '../domain/messages';
import type { AttemptItem, DeliveryItem } from '../domain/records';
import { attemptKey, current, deliveryKey, retentionExpiry } from '../domain/records';
import type { NextStep } from '../domain/retry-policy';
import { INLINE_RETRY_PAUSE_MS, hopDelaySeconds, nextStep } from '../domain/retry-policy';
import type { AttemptOutcome, SendInput, SendOptions } from '../infra/send';
import { sendWebhook } from '../infra/send';

export type DeliverDeps = Pick<Deps, 'tables' | 'queues' | 'keys' | 'clock'>;

export interface DeliverOptions {
  allowLoopback: boolean;
  /** Per-attempt timeout; 15 s unless a test shortens it. */
  timeoutMs?: number;
  inlinePauseMs?: number;
  /** Jitter source in [0, 1). */
  random?: () => number;
  /** Test seams. */
  send?: (input: SendInput, options: SendOptions) => Promise<AttemptOutcome>;
  resolve?: SendOptions['resolve'];
  sleep?: (ms: number) => Promise<void>;
}

/** done: acknowledge the message. dead_letter: report it failed, so the queue's redrive moves it to the DLQ. */
export type StepResult = 'done' | 'dead_letter';

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The endpoint as a warm worker knows it (ENDPOINT_CACHE_TTL_MS); undefined once it is deleted. */
async function findEndpoint(deps: DeliverDeps, delivery: DeliveryItem): Promise<EndpointItem | undefined> {
  const table = deps.tables.webhooks;
  const now = deps.clock.now();
  const cached = cachedEndpoint(table, delivery.endpointId, now);
  if (cached?.organizationId === delivery.organizationId) return cached;
  const epoch = cacheEpoch(table);
  try {
    const item = await loadEndpoint(deps, delivery.organizationId, delivery.endpointId);
    cacheEndpoint(table, item, now, epoch);
    return item;
  } catch (error) {
    if (error instanceof NotFoundError) {
      forgetEndpoint(table, delivery.organizationId, delivery.endpointId);
      return undefined;
    }
    throw error;
  }
}

interface AttemptTimes {
  /** When the attempt began (the attempt's attemptedAt). */
  startedAt: number;
  /** When its answer, error or timeout came. */
  finishedAt: number;
}

/** The delivery update that records attempt `attempt` and the step that follows it. */
function recordUpdate(attempt: number, outcome: AttemptOutcome, step: NextStep, times: AttemptTimes): Update {
  const now = times.finishedAt;
  const at = now;
  // lastAttemptAt matches the attempt's attemptedAt (its start); the rest count from its end.
  const set: Record<string, unknown> = {
    attemptCount: attempt,
    lastAttemptAt: times.startedAt,
    lastLatencyMs: outcome.latencyMs,
    updatedAt: at,
  };
  // A recorded attempt replaces a dead_lettered mark of its message's last receive.
  const remove: string[] = ['strandedFrom'];
  if (outcome.statusCode !== undefined) set.lastStatusCode = outcome.statusCode;
  else remove.push('lastStatusCode');
  if (outcome.errorKind) set.lastError = `${outcome.errorKind}: ${outcome.errorMessage ?? ''}`.slice(0, 500);
  else remove.push('lastError');
  if (step.kind === 'delivered') {
    Object.assign(set, { status: 'delivered', deliveredAt: at });
    remove.push('nextAttemptAt', 'failureReason');
  } else if (step.kind === 'failed') {
    Object.assign(set, { status: 'failed', failureReason: step.reason });
    remove.push('nextAttemptAt');
  } else {
    Object.assign(set, { status: 'retrying', nextAttemptAt: now + step.waitMs });
    remove.push('failureReason');
  }
  return { set, remove };
}

/** Settles the delivery without an attempt (endpoint deleted or disabled since the event). */
async function settleWithoutAttempt(
  deps: DeliverDeps,
  delivery: DeliveryItem,
  set: Record<string, unknown>,
): Promise<void> {
  await deps.tables.webhooks
    .update(
      deliveryKey(delivery.id),
      {
        set: { ...set, updatedAt: deps.clock.now() },
        remove: ['nextAttemptAt', 'strandedFrom', ...(set.failureReason ? [] : ['failureReason'])],
      },
      {
        and: [
          { attr: 'cycle', op: '=', value: delivery.cycle },
          { attr: 'attemptCount', op: '=', value: delivery.attemptCount },
        ],
      },
    )
    .catch((error: unknown) => {
      if (!(error instanceof ConditionFailedError)) throw error;
    });
}

async function scheduleNext(
  deps: DeliverDeps,
  delivery: DeliveryItem,
  attempt: number,
  dueAt: number,
): Promise<void> {
  const delaySeconds = hopDelaySeconds(dueAt, deps.clock.now());
  await deps.queues.deliveries.send({
    body: attemptBody({ deliveryId: delivery.id, cycle: delivery.cycle, attempt, dueAt }),
    ...(delaySeconds ? { delaySeconds } : {}),
  });
  await deps.tables.webhooks
    .update(
      deliveryKey(delivery.id),
      { set: { scheduledAttempt: attempt } },
      { attr: 'cycle', op: '=', value: delivery.cycle },
    )
    .catch((error: unknown) => {
      if (!(error instanceof ConditionFailedError)) throw error;
    });
}

/** A message whose attempt was already made: finish what a crash may have left, attempt nothing. */
async function settleRedelivered(
  deps: DeliverDeps,
  delivery: DeliveryItem,
  message: AttemptMessage,
): Promise<StepResult> {
  if (delivery.status === 'failed' && delivery.failureReason === 'exhausted') {
    return message.attempt === delivery.attemptCount ? 'dead_letter' : 'done';
  }
  if (delivery.status === 'retrying' && delivery.scheduledAttempt !== delivery.attemptCount + 1) {
    await scheduleNext(deps, delivery, delivery.attemptCount + 1, delivery.nextAttemptAt!);
  }
  return 'done';
}

/** What one attempt left behind: its outcome, what follows it, and the delivery as now recorded. */
interface Attempted {
  endpoint: EndpointItem;
  outcome: AttemptOutcome;
  step: NextStep;
  /** When the answer (or the timeout) came; the schedule counts from here. */
  finishedAt: number;
  delivery: DeliveryItem;
}

/**
 * Still to be attempted: pending or retrying, or marked dead_lettered by its message's last receive
 * (that receive itself, or the message redriven from the dead-letter queue by an operator).
 */
const live = (delivery: DeliveryItem): boolean =>
  delivery.status === 'pending' ||
  delivery.status === 'retrying' ||
  (delivery.status === 'failed' && delivery.failureReason === 'dead_lettered');

/** Checks a message before any attempt: undefined to go on, or the result that ends the step. */
async function screen(
  deps: DeliverDeps,
  delivery: DeliveryItem | undefined,
  message: AttemptMessage,
): Promise<StepResult | undefined> {
  if (!delivery || delivery.cycle !== message.cycle) return 'done'; // gone, or replayed since: stale
  if (delivery.attemptCount >= message.attempt) return settleRedelivered(deps, delivery, message);
  if (!live(delivery)) return 'done';
  const hop = hopDelaySeconds(message.dueAt, deps.clock.now());
  if (hop > 0) {
    await deps.queues.deliveries.send({ body: attemptBody(message), delaySeconds: hop });
    return 'done';
  }
  return undefined;
}

function attemptItem(
  delivery: DeliveryItem,
  attempt: number,
  outcome: AttemptOutcome,
  startedAt: number,
): AttemptItem {
  return {
    ...attemptKey(delivery.id, attempt),
    deliveryId: delivery.id,
    attempt,
    cycle: delivery.cycle,
    attemptedAt: startedAt, // when the attempt began; latencyMs says how long it took
    outcome: outcome.kind,
    ...(outcome.statusCode !== undefined ? { statusCode: outcome.statusCode } : {}),
    ...(outcome.errorKind ? { errorKind: outcome.errorKind, errorMessage: outcome.errorMessage ?? '' } : {}),
    latencyMs: outcome.latencyMs,
    responseBody: outcome.responseBody,
    ...(outcome.requestHeaders ? { requestHeaders: outcome.requestHeaders } : {}),
    ...(outcome.responseHeaders ? { responseHeaders: outcome.responseHeaders } : {}),
    ttl: retentionExpiry(startedAt),
  };
}

/**
 * Records the attempt and the delivery's new state. The two writes go out together: the attempt item
 * is keyed by attempt number, so a duplicate message writing it too writes the same record, and the
 * conditional delivery update decides which message owns the step. undefined when another did.
 */
async function recordAttempt(
  deps: DeliverDeps,
  delivery: DeliveryItem,
  attempt: number,
  outcome: AttemptOutcome,
  step: NextStep,
  times: AttemptTimes,
): Promise<DeliveryItem | undefined> {
  const table = deps.tables.webhooks;
  const update = table
    .update<DeliveryItem>(deliveryKey(delivery.id), recordUpdate(attempt, outcome, step, times), {
      and: [
        { attr: 'cycle', op: '=', value: delivery.cycle },
        { attr: 'attemptCount', op: '=', value: attempt - 1 },
      ],
    })
    .catch((error: unknown) => {
      if (error instanceof ConditionFailedError) return undefined; // a duplicate message recorded it first
      throw error;
    });
  const [, updated] = await Promise.all([
    table.put(attemptItem(delivery, attempt, outcome, times.startedAt)),
    update,
  ]);
  return updated;
}

/** Signs and sends the stored body to the endpoint, then records what happened. */
async function attemptOnce(
  deps: DeliverDeps,
  delivery: DeliveryItem,
  endpoint: EndpointItem,
  attempt: number,
  options: DeliverOptions,
): Promise<Attempted | undefined> {
  const secrets = await activeSigningSecrets(deps, endpoint);
  const startedAt = deps.clock.now();
  const outcome = await (options.send ?? sendWebhook)(
    {
      url: endpoint.url,
      eventId: delivery.eventId,
      body: delivery.body,
      secrets,
      timestampSeconds: epochSeconds(wallTime(deps.clock)),
    },
    { allowLoopback: options.allowLoopback, timeoutMs: options.timeoutMs, resolve: options.resolve },
  );
  const finishedAt = deps.clock.now();
  const random = (options.random ?? Math.random)();
  const pause = options.inlinePauseMs ?? INLINE_RETRY_PAUSE_MS;
  const step = nextStep(attempt - delivery.cycleStart + 1, outcome, random, pause);
  const recorded = await recordAttempt(deps, delivery, attempt, outcome, step, { startedAt, finishedAt });
  return recorded && { endpoint, outcome, step, finishedAt, delivery: current(recorded) };
}

function report(attempted: Attempted, attempt: number, log: Logger): void {
  const { endpoint, outcome, step, finishedAt, delivery } = attempted;
  log.info('delivery attempt', {
    deliveryId: delivery.id,
    eventId: delivery.eventId,
    endpointId: endpoint.id,
    attempt,
    outcome: outcome.kind,
    statusCode: outcome.statusCode,
    errorKind: outcome.errorKind,
    latencyMs: outcome.latencyMs,
    next: step.kind,
  });
  emitMetrics(
    {
      DeliveryAttempts: 1,
      AttemptLatency: outcome.latencyMs,
      ...(step.kind === 'delivered'
        ? { DeliveriesDelivered: 1, DeliveryLatency: finishedAt - delivery.occurredAt }
        : step.kind === 'failed'
          ? { DeliveriesFailed: 1 }
          : { DeliveriesRetried: 1 }),
    },
    { eventId: delivery.eventId, deliveryId: delivery.id, endpointId: endpoint.id, attempt },
  );
}

/** After a recorded attempt: health, then settle, schedule the next attempt, or retry inline ('inline'). */
async function follow(
  deps: DeliverDeps,
  attempted: Attempted,
  attempt: number,
  log: Logger,
): Promise<StepResult | 'inline'> {
  const { endpoint, step, finishedAt, delivery } = attempted;
  if (step.kind === 'delivered') {
    await recordSuccess(deps, endpoint, finishedAt);
    return 'done';
  }
  await recordFailure(deps, endpoint, finishedAt);
  if (step.kind === 'failed') {
    await afterPermanentFailure(deps, endpoint, log);
    return step.reason === 'exhausted' ? 'dead_letter' : 'done';
  }
  if (step.inline) return 'inline';
  await scheduleNext(deps, delivery, attempt + 1, finishedAt + step.waitMs);
  return 'done';
}

export async function processAttempt(
  deps: DeliverDeps,
  message: AttemptMessage,
  options: DeliverOptions,
  log: Logger,
): Promise<StepResult> {
  const stored = await deps.tables.webhooks.get<DeliveryItem>(deliveryKey(message.deliveryId));
  let delivery = stored && current(stored);
  const screened = await screen(deps, delivery, message);
  if (screened || !delivery) return screened ?? 'done';
  for (let attempt = message.attempt; ; attempt++) {
    const endpoint = await findEndpoint(deps, delivery);
    if (!endpoint || !endpoint.enabled) {
      await settleWithoutAttempt(
        deps,
        delivery,
        endpoint ? { status: 'skipped_disabled' } : { status: 'failed', failureReason: 'endpoint_deleted' },
      );
      return 'done';
    }
    const attempted = await attemptOnce(deps, delivery, endpoint, attempt, options);
    if (!attempted) return 'done'; // a duplicate message recorded this attempt first
    report(attempted, attempt, log);
    const next = await follow(deps, attempted, attempt, log);
    if (next !== 'inline') return next;
    delivery = attempted.delivery;
    await (options.sleep ?? realSleep)(attempted.step.kind === 'retry' ? attempted.step.waitMs : 0);
  }
}

/**
 * Marks the delivery failed (dead_lettered) ahead of its message's last receive, when the step is
 * still to be made. True when this call set the mark.
 */
async function markDeadLettered(deps: DeliverDeps, message: AttemptMessage, log: Logger): Promise<boolean> {
  const delivery = await deps.tables.webhooks.get<DeliveryItem>(deliveryKey(message.deliveryId));
  if (!delivery || delivery.cycle !== message.cycle || delivery.attemptCount >= message.attempt) return false;
  if (delivery.status !== 'pending' && delivery.status !== 'retrying') return false;
  const marked = await won(
    deps.tables.webhooks.update(
      deliveryKey(delivery.id),
      {
        set: {
          status: 'failed',
          failureReason: 'dead_lettered',
          strandedFrom: delivery.status,
          updatedAt: deps.clock.now(),
        },
      },
      {
        and: [
          { attr: 'cycle', op: '=', value: delivery.cycle },
          { attr: 'attemptCount', op: '=', value: delivery.attemptCount },
          { attr: 'status', op: '=', value: delivery.status },
        ],
      },
    ),
  );
  if (marked)
    log.warn('last receive of a delivery step: marked dead_lettered until it ends', {
      deliveryId: delivery.id,
      attempt: message.attempt,
    });
  return marked;
}

/** Takes the mark back when the last receive ended without recording an attempt (a hop, a settled step). */
async function unmarkDeadLettered(deps: DeliverDeps, message: AttemptMessage): Promise<void> {
  const delivery = await deps.tables.webhooks.get<DeliveryItem>(deliveryKey(message.deliveryId));
  if (delivery?.failureReason !== 'dead_lettered' || !delivery.strandedFrom) return;
  await won(
    deps.tables.webhooks.update(
      deliveryKey(delivery.id),
      {
        set: { status: delivery.strandedFrom, updatedAt: deps.clock.now() },
        remove: ['failureReason', 'strandedFrom'],
      },
      {
        and: [
          { attr: 'cycle', op: '=', value: delivery.cycle },
          { attr: 'attemptCount', op: '=', value: delivery.attemptCount },
          { attr: 'failureReason', op: '=', value: 'dead_lettered' },
        ],
      },
    ),
  );
}

/**
 * A step's message on its last receive before the queue's redrive moves it to the dead-letter queue.
 * Nothing runs after a crash or a timeout, so the delivery is marked failed (dead_lettered) first: if
 * this receive fails too, the delivery does not stay pending or retrying forever with no message left
 * to move it (recover and replay restart it; a redriven message resumes it). If the step ends, its
 * recorded attempt replaces the mark, or the mark is taken back.
 */
export async function processLastAttempt(
  deps: DeliverDeps,
  message: AttemptMessage,
  options: DeliverOptions,
  log: Logger,
): Promise<StepResult> {
  const marked = await markDeadLettered(deps, message, log);
  const result = await processAttempt(deps, message, options, log);
  if (marked) await unmarkDeadLettered(deps, message);
  return result;
}
