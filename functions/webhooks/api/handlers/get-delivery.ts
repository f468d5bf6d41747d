import { apiRoute } from '../../../platform/http';
import { DELIVERY_ROUTE } from '../delivery-routes';
import { getDeliveryWithAttempts } from '../../app/history';

export const create = apiRoute(DELIVERY_ROUTE.getWebhookDelivery, async ({ deps, principal, path }) => ({
  status: 200,
  body: await getDeliveryWithAttempts(deps, principal.organizationId, path.id),
}));
