// The endpoint repository: the only code that knows how endpoints are keyed in the webhooks table.
// An endpoint lives in its organization's partition (fan-out reads them all in one query); gsi1 lists
// them newest first for the API.
import { isoTime } from '../../../platform/clock';
import { ConditionFailedError, won } from '../../../platform/errors';
import type { Pagination, Window } from '../../../platform/pagination';
import { queryAll, queryWindow } from '../../../platform/pagination';
import type { Deps, Item } from '../../../platform/ports';
import type { OutboxEvent } from '../../../events';
import { outboxAttributes, outboxRemoval } from '../../../events';
import type { EndpointItem } from '../../domain/endpoint';

type TableDeps = Pick<Deps, 'tables'>;

const endpointKey = (organizationId: string, id: string) => ({
  pk: `ORG#${organizationId}`,
  sk: `WEP#${id}`,
});
const listPartition = (organizationId: string) => `ORG#${organizationId}#WEBHOOK_ENDPOINTS`;
/** Counts every change to the organization's endpoints (not WEP#: the endpoints' query skips it). */
const revisionKey = (organizationId: string) => ({ pk: `ORG#${organizationId}`, sk: 'WEP_REVISION' });

/**
 * The organization's endpoint revision: a warm fan-out worker keeps its endpoint list only while this
 * is unchanged, so an endpoint created (or changed) in another container counts for the next event.
 */
export async function endpointsRevision(deps: TableDeps, organizationId: string): Promise<number> {
  const item = await deps.tables.webhooks.get<Item>(revisionKey(organizationId));
  return Number(item?.revision ?? 0);
}

/** After the change itself, so a reader that sees the new revision reads the changed list. */
async function changed<T>(deps: TableDeps, organizationId: string, write: Promise<T>): Promise<T> {
  const result = await write;
  if (result !== false && result !== undefined)
    await deps.tables.webhooks.update(revisionKey(organizationId), { add: { revision: 1 } });
  return result;
}

const endpointItem = (endpoint: EndpointItem): Item => ({
  ...endpoint,
  ...endpointKey(endpoint.organizationId, endpoint.id),
  gsi1pk: listPartition(endpoint.organizationId),
  gsi1sk: `${isoTime(endpoint.createdAt)}#${endpoint.id}`,
});

const asEndpoint = (item: Item): EndpointItem => item as unknown as EndpointItem;

/**
 * What this process's caches of endpoints are kept per (app/endpoint-cache.ts): one per composition
 * (a Lambda container, a test's deps), so two compositions never share what they read.
 */
export const endpointScope = (deps: TableDeps): object => deps.tables.webhooks;

export async function getEndpoint(
  deps: TableDeps,
  organizationId: string,
  id: string,
): Promise<EndpointItem | undefined> {
  const item = await deps.tables.webhooks.get<Item>(endpointKey(organizationId, id));
  return item && asEndpoint(item);
}

export async function createEndpoint(deps: TableDeps, endpoint: EndpointItem): Promise<void> {
  await changed(
    deps,
    endpoint.organizationId,
    deps.tables.webhooks.put(endpointItem(endpoint), { itemExists: false }).then(() => true),
  );
}

/** Updates an existing endpoint: the endpoint afterwards, or undefined when it was gone. */
export async function updateEndpoint(
  deps: TableDeps,
  organizationId: string,
  id: string,
  set: Partial<EndpointItem>,
  remove: (keyof EndpointItem)[] = [],
): Promise<EndpointItem | undefined> {
  try {
    const updated = await changed(
      deps,
      organizationId,
      deps.tables.webhooks.update<Item>(
        endpointKey(organizationId, id),
        { set, ...(remove.length ? { remove } : {}) },
        { itemExists: true },
      ),
    );
    return asEndpoint(updated);
  } catch (error) {
    if (error instanceof ConditionFailedError) return undefined;
    throw error;
  }
}

/** Writes `next` over the endpoint if its secret version is still `secretVersion`; false otherwise. */
export function replaceEndpoint(
  deps: TableDeps,
  next: EndpointItem,
  secretVersion: number,
): Promise<boolean> {
  return changed(
    deps,
    next.organizationId,
    won(
      deps.tables.webhooks.put(endpointItem(next), { attr: 'secretVersion', op: '=', value: secretVersion }),
    ),
  );
}

/**
 * Disables an enabled endpoint, with the events of that change in its outbox, in one conditional
 * write: of several workers exactly one gets true; false when it was gone or already disabled.
 */
export function disableEnabledEndpoint(
  deps: TableDeps,
  endpoint: Pick<EndpointItem, 'organizationId' | 'id'>,
  set: Pick<EndpointItem, 'disabledAt' | 'disabledReason' | 'updatedAt'>,
  events: readonly OutboxEvent[],
): Promise<boolean> {
  return changed(
    deps,
    endpoint.organizationId,
    won(
      deps.tables.webhooks.update(
        endpointKey(endpoint.organizationId, endpoint.id),
        { set: { ...set, enabled: false, ...outboxAttributes(events) } },
        { and: [{ itemExists: true }, { attr: 'enabled', op: '=', value: true }] },
      ),
    ),
  );
}

/** Takes a published event off the endpoint (unless a concurrent flush took it first). */
export function removeOutboxEvent(
  deps: TableDeps,
  endpoint: Pick<EndpointItem, 'organizationId' | 'id'>,
  eventId: string,
): Promise<boolean> {
  const { update, condition } = outboxRemoval(eventId);
  return won(
    deps.tables.webhooks.update(endpointKey(endpoint.organizationId, endpoint.id), update, condition),
  );
}

/** Deletes the endpoint; false when it was gone. */
export function deleteEndpoint(deps: TableDeps, organizationId: string, id: string): Promise<boolean> {
  return changed(
    deps,
    organizationId,
    won(deps.tables.webhooks.delete(endpointKey(organizationId, id), { itemExists: true })),
  );
}

/** A window of the organization's endpoints, newest first, keeping those `keep` accepts. */
export async function endpointWindow(
  deps: TableDeps,
  organizationId: string,
  page: Pagination,
  keep: (endpoint: EndpointItem) => boolean,
): Promise<Window<EndpointItem>> {
  const window = await queryWindow<Item>(
    deps.tables.webhooks,
    { index: 'gsi1', partition: listPartition(organizationId), descending: true },
    page,
    (item) => keep(asEndpoint(item)),
  );
  return { items: window.items.map(asEndpoint), hasMore: window.hasMore };
}

/** Every endpoint of an organization as stored (a consistent read: fan-out matches on it). */
export async function allEndpoints(deps: TableDeps, organizationId: string): Promise<EndpointItem[]> {
  const items = await queryAll<Item>(deps.tables.webhooks, {
    partition: `ORG#${organizationId}`,
    beginsWith: 'WEP#',
    // Fan-out reads it (kept while the revision holds): an endpoint created or disabled just before an
    // event counts.
    consistent: true,
  });
  return items.map(asEndpoint);
}
