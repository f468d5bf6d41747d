// Delivery history as the API shows it: an endpoint's deliveries newest first (optionally one status),
// and one delivery with every attempt. Organization-scoped: another organization's is not found.
import type { Deps } from '../../platform/ports';
import { NotFoundError } from '../../platform/errors';
import { isId } from '../../platform/ids';
import type { Pagination, Window } from '../../platform/pagination';
import { queryAll, queryWindow } from '../../platform/pagination';
import { loadEndpoint } from './endpoints';
import type { AttemptItem, DeliveryItem } from '../domain/records';
import type { DeliveryView } from '../api/views';
import { toAttemptView, toDeliveryView } from '../api/views';
import type { DeliveryWithAttempts } from '../api/views';
import { deliveryKey, endpointDeliveries } from '../domain/records';
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
  const window = await queryWindow<DeliveryItem>(
    deps.tables.webhooks,
    { index: 'gsi1', partition: endpointDeliveries(endpointId), descending: true },
    page,
    (item) => item.organizationId === organizationId && (status === undefined || item.status === status),
  );
  return { items: window.items.map(toDeliveryView), hasMore: window.hasMore };
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
  const attempts = (items.filter((i) => i.sk.startsWith('ATT#')) as AttemptItem[]).map(toAttemptView);
  return { ...toDeliveryView(delivery), attempts };
}
