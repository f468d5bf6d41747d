import { apiRoute } from '../../../platform/http';
import { WEBHOOK_ROUTE } from '../routes';
import { setEndpointEnabled } from '../../app/endpoints';

export const create = apiRoute(WEBHOOK_ROUTE.enableWebhookEndpoint, async ({ deps, principal, path }) => ({
  status: 200,
  body: await setEndpointEnabled(deps, principal.organizationId, path.id, true),
}));
