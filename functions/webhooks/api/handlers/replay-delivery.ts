import { apiRoute } from '../../../platform/http';
import { isId } from '../../../platform/ids';
import { assertMayReadDelivery } from '../../app/access';
import { DELIVERY_ROUTE } from '../delivery-routes';
import { findDelivery } from '../../infra/repositories/deliveries';
import { replayDelivery } from '../../app/replay';

export const create = apiRoute(DELIVERY_ROUTE.replayWebhookDelivery, async ({ deps, principal, path }) => {
  const delivery = isId('dlv', path.id)
    ? await findDelivery(deps, principal.organizationId, path.id)
    : undefined;
  if (delivery) await assertMayReadDelivery(deps, principal, delivery);
  return { status: 202, body: await replayDelivery(deps, principal.organizationId, path.id) };
});
