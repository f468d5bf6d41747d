// Fan-out: one event to every endpoint of its organization that subscribes to it. Enabled endpoints
// get a pending delivery and a queue message; disabled ones a skipped_disabled record. Idempotent under
// redelivery: delivery ids are derived from event + endpoint, puts are conditional, and a pending
// delivery that never got its first attempt has its message sent again.
import type { WebhookEvent } from '../../events';
import { receiverBody } from '../../events';
import type { Deps } from '../../platform/ports';
import { ConditionFailedError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { cacheEndpointList, cacheEpoch, cachedEndpointList } from './endpoint-cache';
import type { EndpointItem } from './endpoints';
import { listEndpointItems } from './endpoints';
import { subscriptionMatches } from '../domain/filters';
import { attemptBody } from '../domain/messages';
import type { DeliveryItem } from '../domain/records';
import { deliveryKey, newDelivery } from '../domain/records';

export type FanOutDeps = Pick<Deps, 'tables' | 'queues' | 'clock'>;

export interface FanOutResult {
  queued: number;
  skippedDisabled: number;
  alreadyDone: number;
}

/** The organization's endpoints, as this worker read them within ENDPOINT_CACHE_TTL_MS. */
async function organizationEndpoints(deps: FanOutDeps, organizationId: string): Promise<EndpointItem[]> {
  const table = deps.tables.webhooks;
  const now = deps.clock.now();
  const cached = cachedEndpointList(table, organizationId, now);
  if (cached) return cached;
  const epoch = cacheEpoch(table);
  const items = await listEndpointItems(deps, organizationId);
  cacheEndpointList(table, organizationId, items, now, epoch);
  return items;
}

export async function fanOut(deps: FanOutDeps, event: WebhookEvent, log: Logger): Promise<FanOutResult> {
  const endpoints = (await organizationEndpoints(deps, event.organizationId)).filter((endpoint) =>
    subscriptionMatches(endpoint, event),
  );
  const now = deps.clock.now();
  const body = receiverBody(event); // once per event: every delivery stores, signs and sends these bytes
  const toSend: DeliveryItem[] = [];
  const result: FanOutResult = { queued: 0, skippedDisabled: 0, alreadyDone: 0 };
  for (const endpoint of endpoints) {
    const item = newDelivery(
      event,
      body,
      endpoint.id,
      endpoint.enabled ? 'pending' : 'skipped_disabled',
      now,
    );
    try {
      await deps.tables.webhooks.put(item, { itemExists: false });
      if (item.status === 'pending') toSend.push(item);
      else result.skippedDisabled++;
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
      const existing = await deps.tables.webhooks.get<DeliveryItem>(deliveryKey(item.id));
      // A first message lost to a crash between the put and the send: send it again.
      if (existing?.status === 'pending' && existing.attemptCount === 0 && existing.cycle === 0)
        toSend.push(existing);
      else result.alreadyDone++;
    }
  }
  await deps.queues.deliveries.sendBatch(
    toSend.map((d) => ({ body: attemptBody({ deliveryId: d.id, cycle: 0, attempt: 1, dueAt: now }) })),
  );
  result.queued = toSend.length;
  log.info('event fanned out', { eventId: event.id, type: event.type, matched: endpoints.length, ...result });
  return result;
}
