// Endpoint health for the auto-disable policy: the last success and when the current failing streak
// began, in one small item per endpoint (apart from the endpoint item, which the endpoints API rewrites).
import { publishEvent } from '../../events';
import { isoTime } from '../../platform/clock';
import type { Deps } from '../../platform/ports';
import { ConditionFailedError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import type { Item, Table } from '../../platform/ports';
import type { EndpointItem } from './endpoints';
import { disableEndpoint } from './endpoints';
import { healthKey } from '../domain/records';
import type { EndpointHealth } from '../domain/retry-policy';
import { autoDisableReason, shouldAutoDisable } from '../domain/retry-policy';

type HealthDeps = Pick<Deps, 'tables' | 'queues' | 'clock'>;

/**
 * A healthy endpoint's success is written at most this often per worker: the auto-disable policy
 * counts in days, so a minute-old lastSuccessAt changes nothing, and a busy endpoint is spared a
 * health write per delivery. Any failure seen here makes the next success write again at once.
 */
export const SUCCESS_WRITE_INTERVAL_MS = 60_000;

// Per table (one per worker process or test composition): when this worker last wrote a success.
const successWritten = new WeakMap<Table, Map<string, number>>();

function writtenAt(deps: Pick<Deps, 'tables'>): Map<string, number> {
  let map = successWritten.get(deps.tables.webhooks);
  if (!map) successWritten.set(deps.tables.webhooks, (map = new Map()));
  return map;
}

export async function recordSuccess(deps: HealthDeps, endpoint: EndpointItem, now: number): Promise<void> {
  const written = writtenAt(deps);
  const last = written.get(endpoint.id);
  if (last !== undefined && now >= last && now - last < SUCCESS_WRITE_INTERVAL_MS) return;
  await deps.tables.webhooks.update(healthKey(endpoint.id), {
    set: { endpointId: endpoint.id, lastSuccessAt: now },
    remove: ['failingSinceAt'],
  });
  written.delete(endpoint.id); // re-inserted last, so the oldest entries go first
  written.set(endpoint.id, now);
  if (written.size > 2_000) written.delete(written.keys().next().value!);
}

/** Starts the failing streak at the first failure after a success; later failures leave it. */
export async function recordFailure(deps: HealthDeps, endpoint: EndpointItem, now: number): Promise<void> {
  writtenAt(deps).delete(endpoint.id);
  try {
    await deps.tables.webhooks.update(
      healthKey(endpoint.id),
      { set: { endpointId: endpoint.id, failingSinceAt: now } },
      { attr: 'failingSinceAt', exists: false },
    );
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}

export async function endpointHealth(
  deps: Pick<Deps, 'tables'>,
  endpointId: string,
): Promise<EndpointHealth> {
  const item = await deps.tables.webhooks.get<Item & EndpointHealth>(healthKey(endpointId));
  return { lastSuccessAt: item?.lastSuccessAt, failingSinceAt: item?.failingSinceAt };
}

/**
 * After a delivery failed for good: disable the endpoint when the policy says so, record why on the
 * endpoint, start a fresh streak (so re-enabling gives it a new window) and publish
 * webhook.endpoint.disabled. Only one worker wins the conditional write, so the event is published once.
 */
export async function afterPermanentFailure(
  deps: HealthDeps,
  endpoint: EndpointItem,
  log: Logger,
): Promise<boolean> {
  const now = deps.clock.now();
  const health = await endpointHealth(deps, endpoint.id);
  if (!shouldAutoDisable(health, now)) return false;
  const reason = autoDisableReason(health.failingSinceAt!);
  if (!(await disableEndpoint(deps, endpoint, reason))) return false; // deleted, or already disabled
  await deps.tables.webhooks.update(healthKey(endpoint.id), { remove: ['failingSinceAt'] });
  log.warn('endpoint disabled automatically', {
    endpointId: endpoint.id,
    failingSince: isoTime(health.failingSinceAt!),
  });
  await publishEvent(deps, {
    organizationId: endpoint.organizationId,
    type: 'webhook.endpoint.disabled',
    data: { endpointId: endpoint.id, url: endpoint.url, reason },
  });
  return true;
}
