import { apiRoute } from '../../../platform/http';
import { endpointForCaller } from '../../app/access';
import { DELIVERY_ROUTE } from '../delivery-routes';
import { startRecovery } from '../../app/replay';

export const create = apiRoute(
  DELIVERY_ROUTE.recoverWebhookEndpoint,
  async ({ deps, principal, path, body }) => {
    await endpointForCaller(deps, principal, path.id);
    return { status: 202, body: await startRecovery(deps, principal.organizationId, path.id, body) };
  },
);
