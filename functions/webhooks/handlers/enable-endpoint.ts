import { apiRoute } from '../../platform/http';
import { setEndpointEnabled } from '../endpoints';
import { endpointPath } from '../schemas';

export const handler = apiRoute(
  'enableWebhookEndpoint',
  { path: endpointPath },
  async ({ deps, principal, path }) => ({
    status: 200,
    body: await setEndpointEnabled(deps, principal.organizationId, path.id, true),
  }),
);
