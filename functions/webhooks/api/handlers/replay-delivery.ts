import { apiRoute } from '../../../platform/http';
import { DELIVERY_ROUTE } from '../delivery-routes';
import { replayDelivery } from '../../app/replay';

export const create = apiRoute(DELIVERY_ROUTE.replayWebhookDelivery, async ({ deps, principal, path }) => ({
  status: 202,
  body: await replayDelivery(deps, principal.organizationId, path.id),
}));
