import { apiRoute } from '../../../platform/http';
import { endpointForCaller } from '../../app/access';
import { DELIVERY_ROUTE } from '../delivery-routes';
import { listDeliveries } from '../../app/history';
import type { DeliveryStatus } from '../../domain/retry-policy';

export const create = apiRoute(
  DELIVERY_ROUTE.listWebhookDeliveries,
  async ({ deps, principal, path, query }) => {
    await endpointForCaller(deps, principal, path.id);
    const { limit, offset, status } = query;
    const window = await listDeliveries(
      deps,
      principal.organizationId,
      path.id,
      { limit, offset },
      status as DeliveryStatus | undefined,
    );
    return { status: 200, body: { data: window.items, limit, offset, hasMore: window.hasMore } };
  },
);
