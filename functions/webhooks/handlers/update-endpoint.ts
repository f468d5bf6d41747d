import { apiRoute } from '../../platform/http';
import { updateEndpoint } from '../endpoints';
import { endpointPath, updateEndpointBody } from '../schemas';

export const handler = apiRoute(
  'updateWebhookEndpoint',
  { path: endpointPath, body: updateEndpointBody },
  async ({ deps, principal, path, body }) => ({
    status: 200,
    body: await updateEndpoint(deps, principal, path.id, body),
  }),
);
