import { apiRoute } from '../../../platform/http';
import { endpointForCaller } from '../../app/access';
import { WEBHOOK_ROUTE } from '../routes';
import { updateEndpoint } from '../../app/endpoints';

export const create = apiRoute(
  WEBHOOK_ROUTE.updateWebhookEndpoint,
  async ({ deps, principal, path, body }) => {
    await endpointForCaller(deps, principal, path.id);
    return { status: 200, body: await updateEndpoint(deps, principal, path.id, body) };
  },
);
