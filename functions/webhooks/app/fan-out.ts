// Fan-out: one event to every endpoint of its organization that subscribes to it. Enabled endpoints
// get a pending delivery and a queue message; disabled ones a skipped_disabled record. Idempotent under
// redelivery: delivery ids are derived from event + endpoint, puts are conditional, and a pending
// delivery that never got its first attempt has its message sent again once the fan-out that made it
// can no longer be sending it (an event published twice at once is fanned out twice: the second leaves
// the first's message alone). One younger than that is unsettled: the event's message is looked at
// again later (the caller retries it), never taken as done, since the fan-out that made it may have
// died between the put and the send.
import type { WebhookEvent } from '../../events';
import { receiverBody } from '../../events';
import type { Deps } from '../../platform/ports';
import type { Logger } from '../../platform/logger';
import { QUEUE_WORKERS } from '../../platform/workers';
import { cacheEndpointList, cacheEpoch, cachedEndpointList } from './endpoint-cache';
import type { EndpointItem } from './endpoints';
import { listEndpointItems } from './endpoints';
import { subscriptionMatches } from '../domain/filters';
import { attemptBody } from '../domain/messages';
import type { DeliveryItem } from '../domain/records';
import { createdFields, newDelivery } from '../domain/records';
import { createDelivery, getDelivery } from '../infra/repositories/deliveries';
import { endpointScope, endpointsRevision } from '../infra/repositories/endpoints';

export type FanOutDeps = Pick<Deps, 'tables' | 'queues' | 'clock'>;

/**
 * How old a pending delivery without an attempt must be before a fan-out takes its first message for
 * lost: the fan-out function's timeout, after which the fan-out that made it has ended, sent or not.
 * Its own message comes back only after the queue's visibility timeout (longer still), so a message
 * lost to a crash is always sent again; one merely in flight is not sent twice.
 */
export const FIRST_MESSAGE_LOST_AFTER_MS = QUEUE_WORKERS.events.timeoutSeconds * 1000;

export interface FanOutResult {
  queued: number;
  skippedDisabled: number;
  alreadyDone: number;
  /**
   * Pending deliveries without an attempt, younger than FIRST_MESSAGE_LOST_AFTER_MS: their first
   * message is in flight from the fan-out that made them, or was lost with it. The event is not done
   * until they are settled: its message must be looked at again once they are old enough to tell.
   */
  unsettled: number;
}

export interface FanOutOptions {
  /**
   * This is the event message's last receive (the redrive policy moves it to the dead letters next):
   * an unsettled delivery's first message is sent again now, a possible duplicate rather than a loss.
   */
  lastReceive?: boolean;
}

/**
 * Reads of an organization's endpoint list under way, per scope: the records of a batch (or several
 * batches at once) that miss the cache together share one read instead of each querying.
 */
const reading = new WeakMap<object, Map<string, { epoch: number; read: Promise<EndpointItem[]> }>>();

/**
 * The organization's endpoints: the list this worker read, while the organization's endpoint revision
 * is unchanged (one strongly consistent item read, shared by the records of a batch), else read again.
 * An endpoint created in another container a moment before an event is never missed.
 */
async function organizationEndpoints(deps: FanOutDeps, organizationId: string): Promise<EndpointItem[]> {
  const scope = endpointScope(deps);
  let inFlight = reading.get(scope);
  if (!inFlight) reading.set(scope, (inFlight = new Map()));
  const epoch = cacheEpoch(scope);
  // Joined only while no endpoint was changed in this process since it began (the cache's own rule).
  const pending = inFlight.get(organizationId);
  if (pending?.epoch === epoch) return pending.read;
  const read = (async () => {
    const revision = await endpointsRevision(deps, organizationId);
    const now = deps.clock.now();
    const cached = cachedEndpointList(scope, organizationId, now);
    if (cached?.revision === revision) return cached.items;
    const items = await listEndpointItems(deps, organizationId);
    cacheEndpointList(scope, organizationId, { revision, items }, now, epoch);
    return items;
  })();
  const entry = { epoch, read };
  inFlight.set(organizationId, entry);
  const settled = () => {
    if (inFlight.get(organizationId) === entry) inFlight.delete(organizationId);
  };
  read.then(settled, settled);
  return read;
}

export async function fanOut(
  deps: FanOutDeps,
  event: WebhookEvent,
  log: Logger,
  options: FanOutOptions = {},
): Promise<FanOutResult> {
  const endpoints = (await organizationEndpoints(deps, event.organizationId)).filter((endpoint) =>
    subscriptionMatches(endpoint, event),
  );
  const now = deps.clock.now();
  const body = receiverBody(event); // once per event: every delivery stores, signs and sends these bytes
  // A new delivery's first message carries it (its first receive reads nothing); one sent again for a
  // delivery found pending is read by the worker, which then sees whatever became of it.
  const toSend: { delivery: DeliveryItem; created: boolean }[] = [];
  const result: FanOutResult = { queued: 0, skippedDisabled: 0, alreadyDone: 0, unsettled: 0 };
  const unsettled: DeliveryItem[] = [];
  for (const endpoint of endpoints) {
    const item = newDelivery(
      event,
      body,
      endpoint.id,
      endpoint.enabled ? 'pending' : 'skipped_disabled',
      now,
    );
    if (await createDelivery(deps, item)) {
      if (item.status === 'pending') toSend.push({ delivery: item, created: true });
      else result.skippedDisabled++;
      continue;
    }
    const existing = await getDelivery(deps, item.id);
    if (existing?.status !== 'pending' || existing.attemptCount !== 0 || existing.cycle !== 0)
      result.alreadyDone++;
    // A first message lost to a crash between the put and the send: send it again.
    else if (now - existing.createdAt >= FIRST_MESSAGE_LOST_AFTER_MS)
      toSend.push({ delivery: existing, created: false });
    else unsettled.push(existing);
  }
  if (options.lastReceive) {
    for (const delivery of unsettled) toSend.push({ delivery, created: false });
  } else result.unsettled = unsettled.length;
  await deps.queues.deliveries.sendBatch(
    toSend.map(({ delivery, created }) => {
      const carried = created ? createdFields(delivery) : undefined;
      return {
        body: attemptBody({
          deliveryId: delivery.id,
          cycle: 0,
          attempt: 1,
          dueAt: now,
          ...(carried ? { created: carried } : {}),
        }),
      };
    }),
  );
  result.queued = toSend.length;
  log.info('event fanned out', { eventId: event.id, type: event.type, matched: endpoints.length, ...result });
  return result;
}
