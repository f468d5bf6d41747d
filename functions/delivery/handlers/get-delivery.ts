import { apiRoute } from '../../platform/http';
import { assertMayReadDelivery } from '../../webhooks/access';
import { DELIVERY_ROUTE } from '../routes';
import { getDeliveryWithAttempts } from '../history';

export const handler = apiRoute(DELIVERY_ROUTE.getWebhookDelivery, async ({ deps, principal, path }) => {
  const delivery = await getDeliveryWithAttempts(deps, principal.organizationId, path.id);
  await assertMayReadDelivery(deps, principal, delivery);
  return { status: 200, body: delivery };
});
