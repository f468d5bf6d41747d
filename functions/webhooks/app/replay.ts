// Replay: the same event (same id) sent again now, as a new cycle of the delivery's state machine.
// Recover: every failed or skipped delivery of an endpoint in a time window replayed, as a job.
import { isoTime } from '../../platform/clock';
import type { Deps } from '../../platform/ports';
import {
  ConditionFailedError,
  ConflictError,
  InvalidRequestError,
  NotFoundError,
} from '../../platform/errors';
import { isId, newId } from '../../platform/ids';
import type { Logger } from '../../platform/logger';
import type { Item } from '../../platform/ports';
import { loadEndpoint } from './endpoints';
import type { RecoverMessage } from '../domain/messages';
import { attemptBody } from '../domain/messages';
import type { DeliveryItem, DeliveryView } from '../domain/records';
import type { WebhookJob } from '../domain/views';
import {
  deliveryKey,
  deliveryView,
  endpointDeliveries,
  loadDelivery,
  retentionExpiry,
} from '../domain/records';

type ReplayDeps = Pick<Deps, 'tables' | 'queues' | 'clock'>;

/** The most deliveries one recover job replays. */
export const MAX_RECOVER_DELIVERIES = 10_000;

async function startCycle(deps: ReplayDeps, delivery: DeliveryItem): Promise<DeliveryItem> {
  const now = deps.clock.now();
  const attempt = delivery.attemptCount + 1;
  const cycle = delivery.cycle + 1;
  const updated = await deps.tables.webhooks.update<DeliveryItem>(
    deliveryKey(delivery.id),
    {
      set: {
        status: 'pending',
        cycle,
        cycleStart: attempt,
        scheduledAttempt: attempt,
        nextAttemptAt: now,
        updatedAt: now,
        ttl: retentionExpiry(now),
      },
      remove: ['failureReason'],
    },
    { attr: 'cycle', op: '=', value: delivery.cycle },
  );
  await deps.queues.deliveries.send({
    body: attemptBody({ deliveryId: delivery.id, cycle, attempt, dueAt: now }),
  });
  return updated;
}

export async function replayDelivery(
  deps: ReplayDeps,
  organizationId: string,
  id: string,
): Promise<DeliveryView> {
  const delivery = isId('dlv', id) ? await loadDelivery(deps.tables.webhooks, organizationId, id) : undefined;
  if (!delivery) throw new NotFoundError('Delivery not found');
  try {
    return deliveryView(await startCycle(deps, delivery));
  } catch (error) {
    if (error instanceof ConditionFailedError)
      throw new ConflictError('The delivery was replayed at the same time; retry');
    throw error;
  }
}

export type JobStatus = WebhookJob['status'];

export interface JobItem extends Item {
  id: string;
  organizationId: string;
  type: 'webhooks.endpoint.recover';
  endpointId: string;
  /** The window, epoch ms. */
  since: number;
  until: number;
  status: JobStatus;
  counts: { matched: number; replayed: number; failed: number };
  error?: string;
  createdAt: number;
  updatedAt: number;
}

export type JobView = WebhookJob;

const jobKey = (id: string) => ({ pk: `JOB#${id}`, sk: 'JOB' });

const jobView = (job: JobItem): JobView => ({
  id: job.id,
  type: job.type,
  status: job.status,
  endpointId: job.endpointId,
  since: isoTime(job.since),
  until: isoTime(job.until),
  counts: job.counts,
  error: job.error ?? null,
  createdAt: isoTime(job.createdAt),
  updatedAt: isoTime(job.updatedAt),
});

export async function startRecovery(
  deps: ReplayDeps & Pick<Deps, 'keys'>,
  organizationId: string,
  endpointId: string,
  window: { since: string; until?: string },
): Promise<JobView> {
  await loadEndpoint(deps, organizationId, endpointId);
  const now = deps.clock.now();
  const since = Date.parse(window.since);
  const until = window.until === undefined ? now : Date.parse(window.until);
  if (since >= until) throw new InvalidRequestError('since: must be before until');
  const id = newId('job');
  const job: JobItem = {
    ...jobKey(id),
    id,
    organizationId,
    type: 'webhooks.endpoint.recover',
    endpointId,
    since,
    until,
    status: 'processing',
    counts: { matched: 0, replayed: 0, failed: 0 },
    createdAt: now,
    updatedAt: now,
  };
  await deps.tables.webhooks.put(job, { itemExists: false });
  await deps.queues.deliveries.send({
    body: JSON.stringify({ kind: 'recover', organizationId, jobId: id } satisfies RecoverMessage),
  });
  return jobView(job);
}

export async function getJob(
  deps: Pick<Deps, 'tables'>,
  organizationId: string,
  id: string,
): Promise<JobView> {
  const job = isId('job', id) ? await deps.tables.webhooks.get<JobItem>(jobKey(id)) : undefined;
  if (!job || job.organizationId !== organizationId) throw new NotFoundError('Job not found');
  return jobView(job);
}

/**
 * A pending or retrying delivery whose next step is this long overdue has lost its queue message (a
 * message that reached a dead-letter queue, or a runtime that lost it): recover starts it again.
 */
export const STUCK_AFTER_MS = 15 * 60_000;

/** What a recover job replays: failed and skipped deliveries, and those stuck past their due time. */
export function recoverable(delivery: DeliveryItem, now: number): boolean {
  if (delivery.status === 'failed' || delivery.status === 'skipped_disabled') return true;
  if (delivery.status === 'retrying')
    return (delivery.nextAttemptAt ?? delivery.updatedAt) + STUCK_AFTER_MS < now;
  if (delivery.status === 'pending') return delivery.updatedAt + STUCK_AFTER_MS < now;
  return false;
}

/** Runs a recover job: newest first through the endpoint's deliveries until `since`. */
export async function runRecovery(deps: ReplayDeps, message: RecoverMessage, log: Logger): Promise<void> {
  const job = await deps.tables.webhooks.get<JobItem>(jobKey(message.jobId));
  if (!job || job.status !== 'processing') return; // finished: a redelivered message
  const counts = { matched: 0, replayed: 0, failed: 0 };
  const finish = (status: JobStatus, error?: string) =>
    deps.tables.webhooks.update(jobKey(job.id), {
      set: { status, counts, updatedAt: deps.clock.now(), ...(error ? { error } : {}) },
    });
  try {
    let cursor: string | undefined;
    scan: do {
      const page = await deps.tables.webhooks.query<DeliveryItem>({
        index: 'gsi1',
        partition: endpointDeliveries(job.endpointId),
        descending: true,
        limit: 200,
        cursor,
      });
      for (const delivery of page.items) {
        if (delivery.createdAt < job.since) break scan;
        if (delivery.createdAt > job.until || !recoverable(delivery, deps.clock.now())) continue;
        if (++counts.matched > MAX_RECOVER_DELIVERIES) break scan;
        try {
          await startCycle(deps, delivery);
          counts.replayed++;
        } catch (error) {
          if (!(error instanceof ConditionFailedError)) throw error;
          counts.failed++; // replayed concurrently by someone else
        }
      }
      cursor = page.cursor;
    } while (cursor);
    await finish('succeeded');
    log.info('recover job finished', { jobId: job.id, endpointId: job.endpointId, ...counts });
  } catch (error) {
    log.error('recover job failed', { jobId: job.id, error });
    await finish('failed', 'The job stopped on an internal error; deliveries replayed so far stay replayed');
  }
}
