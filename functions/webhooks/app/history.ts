// Delivery history as the API shows it: an endpoint's deliveries newest first (optionally one status),
// and one delivery with every attempt. Organization-scoped: another organization's is not found.
import type { Deps } from '../../platform/ports';
import { NotFoundError } from '../../platform/errors';
import { isId } from '../../platform/ids';
import type { Pagination, Window } from '../../platform/pagination';
import { queryAll, queryWindow } from '../../platform/pagination';
import { loadEndpoint } from './endpoints';
import type { AttemptItem, DeliveryItem, DeliveryView } from '../domain/records';
import type { DeliveryWithAttempts } from '../domain/views';
import { attemptView, deliveryKey, deliveryView, endpointDeliveries } from '../domain/records';
import type { DeliveryStatus } from '../domain/retry-policy';

type HistoryDeps = Pick<Deps, 'tables' | 'keys' | 'clock'>;

/** What a delivery list may be narrowed to; every field optional, all given must hold. */
export interface DeliveryFilter {
  status?: DeliveryStatus;
  eventType?: string;
  eventId?: string;
  /** Epoch ms: created at or after. */
  since?: number;
  /** Epoch ms: created before. */
  until?: number;
}

export function matchesFilter(item: DeliveryItem, filter: DeliveryFilter): boolean {
  return (
    (filter.status === undefined || item.status === filter.status) &&
    (filter.eventType === undefined || item.eventType === filter.eventType) &&
    (filter.eventId === undefined || item.eventId === filter.eventId) &&
    (filter.since === undefined || item.createdAt >= filter.since) &&
    (filter.until === undefined || item.createdAt < filter.until)
  );
}

export async function listDeliveries(
  deps: HistoryDeps,
  organizationId: string,
  endpointId: string,
  page: Pagination,
  filter: DeliveryFilter = {},
): Promise<Window<DeliveryView>> {
  await loadEndpoint(deps, organizationId, endpointId);
  const window = await queryWindow<DeliveryItem>(
    deps.tables.webhooks,
    { index: 'gsi1', partition: endpointDeliveries(endpointId), descending: true },
    page,
    (item) => item.organizationId === organizationId && matchesFilter(item, filter),
  );
  return { items: window.items.map(deliveryView), hasMore: window.hasMore };
}

export async function getDeliveryWithAttempts(
  deps: Pick<Deps, 'tables'>,
  organizationId: string,
  id: string,
): Promise<DeliveryWithAttempts> {
  if (!isId('dlv', id)) throw new NotFoundError('Delivery not found');
  // Read right after a replay or an attempt: show the delivery as it now is.
  const items = await queryAll(deps.tables.webhooks, { partition: deliveryKey(id).pk, consistent: true });
  const delivery = items.find((i) => i.sk === 'DELIVERY') as DeliveryItem | undefined;
  if (!delivery || delivery.organizationId !== organizationId) throw new NotFoundError('Delivery not found');
  const attempts = (items.filter((i) => i.sk.startsWith('ATT#')) as AttemptItem[]).map(attemptView);
  return { ...deliveryView(delivery), attempts };
}
