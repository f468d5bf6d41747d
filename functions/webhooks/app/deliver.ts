// The delivery worker's orchestration: one queue message is one step of a delivery's state machine
// (domain/delivery-step.ts decides every step). Here: load the delivery, ask step(), write its change,
// send its messages, make the attempt (and the inline retry) when it says so, and keep the endpoint's
// health for the auto-disable policy.
import { epochSeconds, wallTime } from '../../platform/clock';
import type { Deps } from '../../platform/ports';
import { NotFoundError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { emitMetrics } from '../../platform/metrics';
import { cacheEndpoint, cacheEpoch, cachedEndpoint, forgetEndpoint } from './endpoint-cache';
import type { EndpointItem } from './endpoints';
import { activeSigningSecrets, loadEndpoint } from './endpoints';
import { afterPermanentFailure, recordFailure, recordSuccess } from './health';
import { flushEndpointOutbox, hasPendingEvents } from './outbox';
import type { Decision, Send, Step, StepOutcome } from '../domain/delivery-step';
import { step } from '../domain/delivery-step';
import type { AttemptMessage } from '../domain/messages';
import { attemptBody } from '../domain/messages';
import type { DeliveryItem } from '../domain/records';
import { carriedDelivery } from '../domain/records';
import { INLINE_RETRY_PAUSE_MS } from '../domain/retry-policy';
import { applyChange, getDelivery, recordAttempt } from '../infra/repositories/deliveries';
import { endpointScope } from '../infra/repositories/endpoints';
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

/**
 * The endpoint as a warm worker knows it (ENDPOINT_CACHE_TTL_MS); undefined once it is deleted. A
 * fresh read that finds events left in the endpoint's outbox publishes them.
 */
async function findEndpoint(deps: DeliverDeps, delivery: DeliveryItem): Promise<EndpointItem | undefined> {
  const scope = endpointScope(deps);
  const now = deps.clock.now();
  const cached = cachedEndpoint(scope, delivery.endpointId, now);
  if (cached?.organizationId === delivery.organizationId) return cached;
  const epoch = cacheEpoch(scope);
  try {
    const item = await loadEndpoint(deps, delivery.organizationId, delivery.endpointId);
    if (hasPendingEvents(item)) await flushEndpointOutbox(deps, item);
    cacheEndpoint(scope, item, now, epoch);
    return item;
  } catch (error) {
    if (error instanceof NotFoundError) {
      forgetEndpoint(scope, delivery.organizationId, delivery.endpointId);
      return undefined;
    }
    throw error;
  }
}

const queueMessage = ({ message, delaySeconds }: Send) => ({
  body: attemptBody(message),
  ...(delaySeconds ? { delaySeconds } : {}),
});

/** Sends a decision's messages; a next attempt's message is then recorded as sent (step `scheduled`). */
async function sendAll(deps: DeliverDeps, delivery: DeliveryItem, decision: Decision): Promise<void> {
  for (const send of decision.send) {
    await deps.queues.deliveries.send(queueMessage(send));
    if (!send.schedules) continue;
    const sent = step(delivery, undefined, { kind: 'scheduled', attempt: send.message.attempt }, 0);
    if (sent.kind === 'apply') await applyChange(deps, delivery.id, sent.change!);
  }
}

/** Writes a decision's change; the delivery afterwards, or undefined when another message made the step. */
async function write(deps: DeliverDeps, delivery: DeliveryItem, decision: Decision) {
  if (!decision.change) return delivery;
  if (!decision.record) return applyChange(deps, delivery.id, decision.change);
  // The attempt record goes in the delivery's own update: the change's guard decides which message
  // owns the step, and only that message's record is kept.
  return recordAttempt(deps, delivery, decision.change, decision.record);
}

/** Signs and sends the stored body to the endpoint: what happened, as a step outcome. */
async function attempt(
  deps: DeliverDeps,
  delivery: DeliveryItem,
  endpoint: EndpointItem,
  options: DeliverOptions,
): Promise<StepOutcome & { kind: 'attempted' }> {
  const secrets = await activeSigningSecrets(deps, endpoint);
  const startedAt = deps.clock.now();
  const result = await (options.send ?? sendWebhook)(
    {
      url: endpoint.url,
      eventId: delivery.eventId,
      body: delivery.body,
      secrets,
      timestampSeconds: epochSeconds(wallTime(deps.clock)),
      clock: deps.clock,
    },
    { allowLoopback: options.allowLoopback, timeoutMs: options.timeoutMs, resolve: options.resolve },
  );
  return {
    kind: 'attempted',
    result,
    startedAt,
    random: (options.random ?? Math.random)(),
    inlinePauseMs: options.inlinePauseMs ?? INLINE_RETRY_PAUSE_MS,
  };
}

function report(
  delivery: DeliveryItem,
  endpoint: EndpointItem,
  message: AttemptMessage,
  result: AttemptOutcome,
  decision: Decision,
  finishedAt: number,
  log: Logger,
): void {
  const next = decision.next!.kind;
  log.info('delivery attempt', {
    deliveryId: delivery.id,
    eventId: delivery.eventId,
    endpointId: endpoint.id,
    attempt: message.attempt,
    outcome: result.kind,
    statusCode: result.statusCode,
    errorKind: result.errorKind,
    latencyMs: result.latencyMs,
    next,
  });
  emitMetrics(
    {
      DeliveryAttempts: 1,
      AttemptLatency: result.latencyMs,
      ...(next === 'delivered'
        ? { DeliveriesDelivered: 1, DeliveryLatency: finishedAt - delivery.occurredAt }
        : next === 'failed'
          ? { DeliveriesFailed: 1 }
          : { DeliveriesRetried: 1 }),
    },
    { eventId: delivery.eventId, deliveryId: delivery.id, endpointId: endpoint.id, attempt: message.attempt },
  );
}

/** The endpoint's health after an attempt: a success, a failure, and after a final one the auto-disable. */
async function keepHealth(
  deps: DeliverDeps,
  endpoint: EndpointItem,
  decision: Decision,
  at: number,
  log: Logger,
): Promise<void> {
  if (decision.health === 'success') return recordSuccess(deps, endpoint, at);
  await recordFailure(deps, endpoint, at);
  if (decision.health === 'final_failure') await afterPermanentFailure(deps, endpoint, log);
}

/** A refused step; a redelivered message of a failed delivery also finishes the endpoint's outbox. */
async function refused(deps: DeliverDeps, delivery: DeliveryItem | undefined, decided: Step) {
  if (delivery?.status === 'failed' && decided.kind === 'refuse' && decided.reason === 'already_made')
    await findEndpoint(deps, delivery);
  return decided.then === 'dead_letter' ? 'dead_letter' : 'done';
}

export async function processAttempt(
  deps: DeliverDeps,
  first: AttemptMessage,
  options: DeliverOptions,
  log: Logger,
): Promise<StepResult> {
  // A first attempt's message on its first receive carries the delivery as fan-out created it: no read
  // (its changes are then guarded on the status it carries; domain/delivery-step.ts).
  let delivery =
    carriedDelivery(first.deliveryId, first.created) ?? (await getDelivery(deps, first.deliveryId));
  const screened = step(delivery, first, { kind: 'received' }, deps.clock.now());
  if (screened.kind === 'refuse') return refused(deps, delivery, screened);
  if (screened.then !== 'attempt') {
    await sendAll(deps, delivery!, screened);
    return 'done';
  }
  for (let message = first; delivery;) {
    const endpoint = await findEndpoint(deps, delivery);
    if (!endpoint || !endpoint.enabled) {
      const outcome: StepOutcome = { kind: endpoint ? 'endpoint_disabled' : 'endpoint_gone' };
      const settled = step(delivery, message, outcome, deps.clock.now());
      if (settled.kind === 'apply') await write(deps, delivery, settled);
      return 'done';
    }
    const attempted = await attempt(deps, delivery, endpoint, options);
    const finishedAt = deps.clock.now();
    const decision = step(delivery, message, attempted, finishedAt);
    if (decision.kind === 'refuse') return decision.then;
    const recorded = await write(deps, delivery, decision);
    if (!recorded) return 'done'; // a duplicate message recorded this attempt first
    report(delivery, endpoint, message, attempted.result, decision, finishedAt, log);
    await keepHealth(deps, endpoint, decision, finishedAt, log);
    await sendAll(deps, recorded, decision);
    if (decision.then !== 'retry_inline') return decision.then === 'dead_letter' ? 'dead_letter' : 'done';
    await (options.sleep ?? realSleep)(decision.next?.kind === 'retry' ? decision.next.waitMs : 0);
    delivery = recorded;
    message = { ...readMessage(message), attempt: message.attempt + 1, dueAt: deps.clock.now() };
  }
  return 'done';
}

/** The message without the delivery it carries: its delivery is then read, as on any later receive. */
export function readMessage(message: AttemptMessage): AttemptMessage {
  if (!message.created) return message;
  const { created: _carried, ...rest } = message;
  return rest;
}

/** Applies a last-receive step (the mark, or taking it back); true when it was written. */
async function lastReceiveStep(
  deps: DeliverDeps,
  message: AttemptMessage,
  outcome: StepOutcome,
): Promise<boolean> {
  const delivery = await getDelivery(deps, message.deliveryId);
  const decided = step(delivery, message, outcome, deps.clock.now());
  return decided.kind === 'apply' && !!(await applyChange(deps, delivery!.id, decided.change!));
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
  const marked = await lastReceiveStep(deps, message, { kind: 'last_receive' });
  if (marked)
    log.warn('last receive of a delivery step: marked dead_lettered until it ends', {
      deliveryId: message.deliveryId,
      attempt: message.attempt,
    });
  const result = await processAttempt(deps, readMessage(message), options, log);
  if (marked) await lastReceiveStep(deps, message, { kind: 'last_receive_ended' });
  return result;
}
