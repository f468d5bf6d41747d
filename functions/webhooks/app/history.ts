// Delivery history as the API shows it: an endpoint's deliveries newest first (optionally one status),
// and one delivery with every attempt. Organization-scoped: another organization's is not found.
import type { Deps } from '../../platform/ports';
import { NotFoundError } from '../../platform/errors';
import { isId } from '../../platform/ids';
import type { Pagination, Window } from '../../platform/pagination';
import { loadEndpoint } from './endpoints';
import type { DeliveryItem } from '../domain/records';
import type { DeliveryView, DeliveryWithAttempts } from '../api/views';
import { toAttemptView, toDeliveryView } from '../api/views';
import { deliveryWithAttempts, endpointDeliveryWindow } from '../infra/repositories/deliveries';
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
  const window = await endpointDeliveryWindow(
    deps,
    endpointId,
    page,
    (item) => item.organizationId === organizationId && matchesFilter(item, filter),
  );
  return { items: window.items.map(toDeliveryView), hasMore: window.hasMore, next: window.next };
}

export async function getDeliveryWithAttempts(
  deps: Pick<Deps, 'tables'>,
  organizationId: string,
  id: string,
): Promise<DeliveryWithAttempts> {
  if (!isId('dlv', id)) throw new NotFoundError('Delivery not found');
  const { delivery, attempts } = await deliveryWithAttempts(deps, id);
  if (!delivery || delivery.organizationId !== organizationId) throw new NotFoundError('Delivery not found');
  return { ...toDeliveryView(delivery), attempts: attempts.map(toAttemptView) };
}
