import { apiRoute } from '../../../platform/http';
import { assertMayReadDelivery } from '../../app/access';
import { DELIVERY_ROUTE } from '../delivery-routes';
import { getDeliveryWithAttempts } from '../../app/history';

export const create = apiRoute(DELIVERY_ROUTE.getWebhookDelivery, async ({ deps, principal, path }) => {
  const delivery = await getDeliveryWithAttempts(deps, principal.organizationId, path.id);
  await assertMayReadDelivery(deps, principal, delivery);
  return { status: 200, body: delivery };
});
