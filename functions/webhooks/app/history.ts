// Delivery history as the API shows it: an endpoint's deliveries newest first (optionally one status),
// and one delivery with every attempt. Organization-scoped: another organization's is not found.
import type { Deps } from '../../platform/ports';
import { NotFoundError } from '../../platform/errors';
import { isId } from '../../platform/ids';
import type { Pagination, Window } from '../../platform/pagination';
import { loadEndpoint } from './endpoints';
import type { DeliveryView } from '../domain/records';
import type { DeliveryWithAttempts } from '../domain/views';
import { attemptView, deliveryView } from '../domain/records';
import { deliveryWithAttempts, endpointDeliveryWindow } from '../infra/repositories/deliveries';
import type { DeliveryStatus } from '../domain/retry-policy';

type HistoryDeps = Pick<Deps, 'tables' | 'keys' | 'clock'>;

export async function listDeliveries(
  deps: HistoryDeps,
  organizationId: string,
  endpointId: string,
  page: Pagination,
  status?: DeliveryStatus,
): Promise<Window<DeliveryView>> {
  await loadEndpoint(deps, organizationId, endpointId);
  const window = await endpointDeliveryWindow(
    deps,
    endpointId,
    page,
    (item) => item.organizationId === organizationId && (status === undefined || item.status === status),
  );
  return { items: window.items.map(deliveryView), hasMore: window.hasMore };
}

export async function getDeliveryWithAttempts(
  deps: Pick<Deps, 'tables'>,
  organizationId: string,
  id: string,
): Promise<DeliveryWithAttempts> {
  if (!isId('dlv', id)) throw new NotFoundError('Delivery not found');
  const { delivery, attempts } = await deliveryWithAttempts(deps, id);
  if (!delivery || delivery.organizationId !== organizationId) throw new NotFoundError('Delivery not found');
  return { ...deliveryView(delivery), attempts: attempts.map(attemptView) };
}
