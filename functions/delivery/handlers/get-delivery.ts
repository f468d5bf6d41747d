import { apiRoute } from '../../platform/http';
import { DELIVERY_ROUTE } from '../routes';
import { getDeliveryWithAttempts } from '../history';

export const handler = apiRoute(DELIVERY_ROUTE.getWebhookDelivery, async ({ deps, principal, path }) => ({
  status: 200,
  body: await getDeliveryWithAttempts(deps, principal.organizationId, path.id),
}));
