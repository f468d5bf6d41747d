// Endpoint health for the auto-disable policy: the last success and when the current failing streak
// began (infra/repositories/health.ts), and the auto-disable itself.
import { outboxEvent, outboxAttributes } from '../../events';
import { isoTime } from '../../platform/clock';
import type { Deps } from '../../platform/ports';
import type { Logger } from '../../platform/logger';
import type { EndpointItem } from './endpoints';
import { forgetEndpoint } from './endpoint-cache';
import { flushEndpointOutbox } from './outbox';
import { disableEnabledEndpoint, endpointScope } from '../infra/repositories/endpoints';
import {
  endFailingStreak,
  getHealth,
  healthScope,
  startFailingStreak,
  writeSuccess,
} from '../infra/repositories/health';
import { autoDisableReason, shouldAutoDisable } from '../domain/retry-policy';

type HealthDeps = Pick<Deps, 'tables' | 'queues' | 'clock'>;

/**
 * A healthy endpoint's success is written at most this often per worker: the auto-disable policy
 * counts in days, so a minute-old lastSuccessAt changes nothing, and a busy endpoint is spared a
 * health write per delivery. Any failure seen here makes the next success write again at once.
 */
export const SUCCESS_WRITE_INTERVAL_MS = 60_000;

// Per composition (one per worker process or test composition): when this worker last wrote a success.
const successWritten = new WeakMap<object, Map<string, number>>();

function writtenAt(deps: Pick<Deps, 'tables'>): Map<string, number> {
  const scope = healthScope(deps);
  let map = successWritten.get(scope);
  if (!map) successWritten.set(scope, (map = new Map()));
  return map;
}

export async function recordSuccess(deps: HealthDeps, endpoint: EndpointItem, now: number): Promise<void> {
  const written = writtenAt(deps);
  const last = written.get(endpoint.id);
  if (last !== undefined && now >= last && now - last < SUCCESS_WRITE_INTERVAL_MS) return;
  await writeSuccess(deps, endpoint.id, now);
  written.delete(endpoint.id); // re-inserted last, so the oldest entries go first
  written.set(endpoint.id, now);
  if (written.size > 2_000) written.delete(written.keys().next().value!);
}

/** Starts the failing streak at the first failure after a success; later failures leave it. */
export async function recordFailure(deps: HealthDeps, endpoint: EndpointItem, now: number): Promise<void> {
  writtenAt(deps).delete(endpoint.id);
  await startFailingStreak(deps, endpoint.id, now);
}

/**
 * After a delivery failed for good: disable the endpoint when the policy says so, with the reason and
 * webhook.endpoint.disabled (in its outbox) in one conditional write, start a fresh streak (so
 * re-enabling gives it a new window) and publish the event. Only one worker wins the write, so the
 * event exists once; its publication may be repeated (after a crash), with the same id.
 */
export async function afterPermanentFailure(
  deps: HealthDeps,
  endpoint: EndpointItem,
  log: Logger,
): Promise<boolean> {
  const now = deps.clock.now();
  const health = await getHealth(deps, endpoint.id);
  if (!shouldAutoDisable(health, now)) return false;
  const reason = autoDisableReason(health.failingSinceAt!);
  const event = outboxEvent(
    {
      organizationId: endpoint.organizationId,
      type: 'webhook.endpoint.disabled',
      data: { endpointId: endpoint.id, url: endpoint.url, reason },
    },
    now,
  );
  const disabled = await disableEnabledEndpoint(
    deps,
    endpoint,
    { disabledAt: now, disabledReason: reason, updatedAt: now },
    [event],
  ).finally(() => forgetEndpoint(endpointScope(deps), endpoint.organizationId, endpoint.id));
  if (!disabled) return false; // deleted, or already disabled
  await endFailingStreak(deps, endpoint.id);
  log.warn('endpoint disabled automatically', {
    endpointId: endpoint.id,
    failingSince: isoTime(health.failingSinceAt!),
  });
  await flushEndpointOutbox(deps, { ...endpoint, ...outboxAttributes([event]) });
  return true;
}
