import { apiRoute } from '../../../platform/http';
import { endpointForCaller } from '../../app/access';
import { WEBHOOK_ROUTE } from '../routes';
import { setEndpointEnabled } from '../../app/endpoints';

export const create = apiRoute(WEBHOOK_ROUTE.disableWebhookEndpoint, async ({ deps, principal, path }) => {
  await endpointForCaller(deps, principal, path.id);
  return { status: 200, body: await setEndpointEnabled(deps, principal.organizationId, path.id, false) };
});
