// Endpoint health for the auto-disable policy: the last success and when the current failing streak
// began, in one small item per endpoint (apart from the endpoint item, which the endpoints API rewrites).
import { publishEvent } from '../../events';
import { isoTime } from '../../platform/clock';
import type { Deps } from '../../platform/ports';
import { ConditionFailedError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import type { Item } from '../../platform/ports';
import type { EndpointItem } from './endpoints';
import { disableEndpoint } from './endpoints';
import { healthKey } from '../domain/records';
import type { EndpointHealth } from '../domain/retry-policy';
import { autoDisableReason, shouldAutoDisable } from '../domain/retry-policy';

type HealthDeps = Pick<Deps, 'tables' | 'queues' | 'clock'>;

export async function recordSuccess(deps: HealthDeps, endpoint: EndpointItem, now: number): Promise<void> {
  await deps.tables.webhooks.update(healthKey(endpoint.id), {
    set: { endpointId: endpoint.id, lastSuccessAt: now },
    remove: ['failingSince'],
  });
}

/** Starts the failing streak at the first failure after a success; later failures leave it. */
export async function recordFailure(deps: HealthDeps, endpoint: EndpointItem, now: number): Promise<void> {
  try {
    await deps.tables.webhooks.update(
      healthKey(endpoint.id),
      { set: { endpointId: endpoint.id, failingSince: now } },
      { attr: 'failingSince', exists: false },
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
  return { lastSuccessAt: item?.lastSuccessAt, failingSince: item?.failingSince };
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
  const reason = autoDisableReason(health.failingSince!);
  if (!(await disableEndpoint(deps, endpoint, reason))) return false; // deleted, or already disabled
  await deps.tables.webhooks.update(healthKey(endpoint.id), { remove: ['failingSince'] });
  log.warn('endpoint disabled automatically', {
    endpointId: endpoint.id,
    failingSince: isoTime(health.failingSince!),
  });
  await publishEvent(deps, {
    organizationId: endpoint.organizationId,
    type: 'webhook.endpoint.disabled',
    data: { endpointId: endpoint.id, url: endpoint.url, reason },
  });
  return true;
}
