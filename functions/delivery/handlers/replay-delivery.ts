import { apiRoute } from '../../platform/http';
import { DELIVERY_ROUTE } from '../routes';
import { replayDelivery } from '../replay';

export const handler = apiRoute(DELIVERY_ROUTE.replayWebhookDelivery, async ({ deps, principal, path }) => ({
  status: 202,
  body: await replayDelivery(deps, principal.organizationId, path.id),
}));
