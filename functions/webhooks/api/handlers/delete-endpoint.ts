import { apiRoute } from '../../../platform/http';
import { endpointForCaller } from '../../app/access';
import { WEBHOOK_ROUTE } from '../routes';
import { deleteEndpoint } from '../../app/endpoints';

export const create = apiRoute(WEBHOOK_ROUTE.deleteWebhookEndpoint, async ({ deps, principal, path }) => {
  await endpointForCaller(deps, principal, path.id);
  await deleteEndpoint(deps, principal.organizationId, path.id);
  return { status: 204 };
});
