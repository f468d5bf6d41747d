import { apiRoute } from '../../../platform/http';
import { endpointForCaller } from '../../app/access';
import { DELIVERY_ROUTE } from '../delivery-routes';
import { listDeliveries } from '../../app/history';
import type { DeliveryStatus } from '../../domain/retry-policy';

export const create = apiRoute(
  DELIVERY_ROUTE.listWebhookDeliveries,
  async ({ deps, principal, path, query }) => {
    await endpointForCaller(deps, principal, path.id);
    const { limit, offset, cursor, status, eventType, eventId, since, until } = query;
    const window = await listDeliveries(
      deps,
      principal.organizationId,
      path.id,
      { limit, offset, cursor },
      {
        status: status as DeliveryStatus | undefined,
        eventType,
        eventId,
        since: since === undefined ? undefined : Date.parse(since),
        until: until === undefined ? undefined : Date.parse(until),
      },
    );
    return {
      status: 200,
      body: { data: window.items, limit, offset, hasMore: window.hasMore, nextCursor: window.next ?? null },
    };
  },
);
