// The endpoint-health repository: one small item per endpoint (apart from the endpoint item, which
// the endpoints API rewrites) with the last success and when the current failing streak began.
import { ConditionFailedError } from '../../../platform/errors';
import type { Deps, Item } from '../../../platform/ports';
import type { EndpointHealth } from '../../domain/retry-policy';

type TableDeps = Pick<Deps, 'tables'>;

const healthKey = (endpointId: string) => ({ pk: `WEP#${endpointId}`, sk: 'HEALTH' });

/** What this process's memory of success writes is kept per (one per composition). */
export const healthScope = (deps: TableDeps): object => deps.tables.webhooks;

export async function getHealth(deps: TableDeps, endpointId: string): Promise<EndpointHealth> {
  const item = await deps.tables.webhooks.get<Item & EndpointHealth>(healthKey(endpointId));
  return { lastSuccessAt: item?.lastSuccessAt, failingSinceAt: item?.failingSinceAt };
}

/** A success ends the failing streak. */
export async function writeSuccess(deps: TableDeps, endpointId: string, at: number): Promise<void> {
  await deps.tables.webhooks.update(healthKey(endpointId), {
    set: { endpointId, lastSuccessAt: at },
    remove: ['failingSinceAt'],
  });
}

/** Starts the failing streak at `at` unless one is under way. */
export async function startFailingStreak(deps: TableDeps, endpointId: string, at: number): Promise<void> {
  try {
    await deps.tables.webhooks.update(
      healthKey(endpointId),
      { set: { endpointId, failingSinceAt: at } },
      { attr: 'failingSinceAt', exists: false },
    );
  } catch (error) {
    if (!(error instanceof ConditionFailedError)) throw error;
  }
}

/** Ends the failing streak without a success (an endpoint disabled: re-enabling gives a new window). */
export async function endFailingStreak(deps: TableDeps, endpointId: string): Promise<void> {
  await deps.tables.webhooks.update(healthKey(endpointId), { remove: ['failingSinceAt'] });
}
