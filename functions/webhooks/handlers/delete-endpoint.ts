import { apiRoute } from '../../platform/http';
import { WEBHOOK_ROUTE } from '../routes';
import { deleteEndpoint } from '../endpoints';

export const handler = apiRoute(WEBHOOK_ROUTE.deleteWebhookEndpoint, async ({ deps, principal, path }) => {
  await deleteEndpoint(deps, principal.organizationId, path.id);
  return { status: 204 };
});
