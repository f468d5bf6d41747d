import { apiRoute } from '../../platform/http';
import { endpointForCaller } from '../access';
import { WEBHOOK_ROUTE } from '../routes';
import { setEndpointEnabled } from '../endpoints';

export const handler = apiRoute(WEBHOOK_ROUTE.disableWebhookEndpoint, async ({ deps, principal, path }) => {
  await endpointForCaller(deps, principal, path.id);
  return { status: 200, body: await setEndpointEnabled(deps, principal.organizationId, path.id, false) };
});
