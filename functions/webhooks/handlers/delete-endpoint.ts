import { apiRoute } from '../../platform/http';
import { endpointForCaller } from '../access';
import { WEBHOOK_ROUTE } from '../routes';
import { deleteEndpoint } from '../endpoints';

export const handler = apiRoute(WEBHOOK_ROUTE.deleteWebhookEndpoint, async ({ deps, principal, path }) => {
  await endpointForCaller(deps, principal, path.id);
  await deleteEndpoint(deps, principal.organizationId, path.id);
  return { status: 204 };
});
