// The delivery worker's core: one queue message is one step of a delivery's state machine. It makes
// the attempt (and the inline retry), records every attempt, schedules the next one (in queue hops
// when the wait is longer than SQS allows) or settles the delivery, and keeps the endpoint's health
// for the auto-disable policy. Redelivered and stale messages are recognised and do no second attempt.
import { epochSeconds, isoTime } from '../../platform/clock';
import type { Deps } from '../../platform/ports';
import { ConditionFailedError, NotFoundError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { emitMetrics } from '../../platform/metrics';
import type { Update } from '../../platform/ports';
import type { EndpointItem } from './endpoints';
import { activeSigningSecrets, loadEndpoint } from './endpoints';
import { afterPermanentFailure, recordFailure, recordSuccess } from './health';
import type { AttemptMessage } from '../domain/messages';
import { attemptBody } from '../domain/messages';
import type { AttemptItem, DeliveryItem } from '../domain/records';
import { attemptKey, deliveryKey, retentionExpiry } from '../domain/records';
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

async function findEndpoint(deps: DeliverDeps, delivery: DeliveryItem): Promise<EndpointItem | undefined> {
  try {
    return await loadEndpoint(deps, delivery.organizationId, delivery.endpointId);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/** The delivery update that records attempt `attempt` and the step that follows it. */
function recordUpdate(attempt: number, outcome: AttemptOutcome, step: NextStep, now: number): Update {
  const at = isoTime(now);
  const set: Record<string, unknown> = { attemptCount: attempt, lastAttemptAt: at, updatedAt: at };
  const remove: string[] = [];
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
    Object.assign(set, { status: 'retrying', nextAttemptAt: isoTime(now + step.waitMs) });
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
      { set: { ...set, updatedAt: isoTime(deps.clock.now()) }, remove: ['nextAttemptAt'] },
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
    await scheduleNext(deps, delivery, delivery.attemptCount + 1, Date.parse(delivery.nextAttemptAt!));
  }
  return 'done';
}

export async function processAttempt(
  deps: DeliverDeps,
  message: AttemptMessage,
  options: DeliverOptions,
  log: Logger,
): Promise<StepResult> {
  const table = deps.tables.webhooks;
  let delivery = await table.get<DeliveryItem>(deliveryKey(message.deliveryId));
  if (!delivery || delivery.cycle !== message.cycle) return 'done'; // gone, or replayed since: stale
  if (delivery.attemptCount >= message.attempt) return settleRedelivered(deps, delivery, message);
  if (!['pending', 'retrying'].includes(delivery.status)) return 'done';
  const hop = hopDelaySeconds(message.dueAt, deps.clock.now());
  if (hop > 0) {
    await deps.queues.deliveries.send({ body: attemptBody(message), delaySeconds: hop });
    return 'done';
  }
  const send = options.send ?? sendWebhook;
  const random = options.random ?? Math.random;
  const pause = options.inlinePauseMs ?? INLINE_RETRY_PAUSE_MS;
  for (let attempt = message.attempt; ; attempt++) {
    const endpoint = await findEndpoint(deps, delivery);
    if (!endpoint) {
      await settleWithoutAttempt(deps, delivery, { status: 'failed', failureReason: 'endpoint_deleted' });
      return 'done';
    }
    if (!endpoint.enabled) {
      await settleWithoutAttempt(deps, delivery, { status: 'skipped_disabled' });
      return 'done';
    }
    const secrets = await activeSigningSecrets(deps, endpoint);
    const outcome = await send(
      { url: endpoint.url, event: delivery.event, secrets, timestampSeconds: epochSeconds(deps.clock.now()) },
      { allowLoopback: options.allowLoopback, timeoutMs: options.timeoutMs, resolve: options.resolve },
    );
    const now = deps.clock.now();
    const step = nextStep(attempt - delivery.cycleStart + 1, outcome, random(), pause);
    const attemptItem: AttemptItem = {
      ...attemptKey(delivery.id, attempt),
      deliveryId: delivery.id,
      attempt,
      cycle: delivery.cycle,
      attemptedAt: isoTime(now),
      outcome: outcome.kind,
      ...(outcome.statusCode !== undefined ? { statusCode: outcome.statusCode } : {}),
      ...(outcome.errorKind
        ? { errorKind: outcome.errorKind, errorMessage: outcome.errorMessage ?? '' }
        : {}),
      latencyMs: outcome.latencyMs,
      responseBody: outcome.responseBody,
      expiresAt: retentionExpiry(now),
    };
    await table.put(attemptItem);
    try {
      delivery = await table.update<DeliveryItem>(
        deliveryKey(delivery.id),
        recordUpdate(attempt, outcome, step, now),
        {
          and: [
            { attr: 'cycle', op: '=', value: delivery.cycle },
            { attr: 'attemptCount', op: '=', value: attempt - 1 },
          ],
        },
      );
    } catch (error) {
      if (error instanceof ConditionFailedError) return 'done'; // a duplicate message recorded it first
      throw error;
    }
    log.info('delivery attempt', {
      deliveryId: delivery.id,
      eventId: delivery.event.id,
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
          ? { DeliveriesDelivered: 1, DeliveryLatency: now - Date.parse(delivery.event.occurred_at) }
          : step.kind === 'failed'
            ? { DeliveriesFailed: 1 }
            : { DeliveriesRetried: 1 }),
      },
      { eventId: delivery.event.id, deliveryId: delivery.id, endpointId: endpoint.id, attempt },
    );
    if (step.kind === 'delivered') {
      await recordSuccess(deps, endpoint, now);
      return 'done';
    }
    await recordFailure(deps, endpoint, now);
    if (step.kind === 'failed') {
      await afterPermanentFailure(deps, endpoint, log);
      return step.reason === 'exhausted' ? 'dead_letter' : 'done';
    }
    if (!step.inline) {
      await scheduleNext(deps, delivery, attempt + 1, now + step.waitMs);
      return 'done';
    }
    await (options.sleep ?? realSleep)(step.waitMs);
  }
}
