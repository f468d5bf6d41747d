import { apiRoute } from '../../platform/http';
import { isId } from '../../platform/ids';
import { assertMayReadDelivery } from '../../webhooks/access';
import { DELIVERY_ROUTE } from '../routes';
import { loadDelivery } from '../records';
import { replayDelivery } from '../replay';

export const handler = apiRoute(DELIVERY_ROUTE.replayWebhookDelivery, async ({ deps, principal, path }) => {
  const delivery = isId('dlv', path.id)
    ? await loadDelivery(deps.tables.webhooks, principal.organizationId, path.id)
    : undefined;
  if (delivery) await assertMayReadDelivery(deps, principal, delivery);
  return { status: 202, body: await replayDelivery(deps, principal.organizationId, path.id) };
});
