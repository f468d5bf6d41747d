import { apiRoute } from '../../platform/http';
import { getEndpoint } from '../endpoints';
import { endpointPath } from '../schemas';

export const handler = apiRoute(
  'getWebhookEndpoint',
  { path: endpointPath },
  async ({ deps, principal, path }) => ({
    status: 200,
    body: await getEndpoint(deps, principal.organizationId, path.id),
  }),
);
