// The local server runs the event pipeline too: the fan-out and delivery handlers consume the in-process
// events and deliveries queues exactly as the SQS event sources feed them in AWS (batches, partial
// failures, visibility re-delivery, dead letters). On the aws adapters (emulators) nothing is attached.
import { LocalQueue } from '../adapters/local/local-queue';
import type { Deps } from '../platform/ports';
import { createDeliveryWorker as deliveryWorker } from '../webhooks';
import { createSyncWorker as syncWorker } from '../connectors';
import { createFanOutWorker as fanOutWorker } from '../webhooks';

export function attachLocalWorkers(deps: Deps): boolean {
  const { events, deliveries, syncs } = deps.queues;
  if (
    !(events instanceof LocalQueue) ||
    !(deliveries instanceof LocalQueue) ||
    !(syncs instanceof LocalQueue)
  )
    return false;
  events.attach(fanOutWorker(deps), { batchSize: 10, visibilityTimeoutMs: 30_000, maxReceiveCount: 5 });
  deliveries.attach(deliveryWorker(deps), { batchSize: 10, visibilityTimeoutMs: 60_000, maxReceiveCount: 3 });
  syncs.attach(syncWorker(deps), { batchSize: 2, visibilityTimeoutMs: 30 * 60_000, maxReceiveCount: 5 });
  return true;
}
