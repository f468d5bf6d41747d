import { apiRoute } from '../../platform/http';
import { createEndpoint } from '../endpoints';
import { createEndpointBody } from '../schemas';

export const handler = apiRoute(
  'createWebhookEndpoint',
  { body: createEndpointBody },
  async ({ deps, principal, body }) => ({
    status: 201,
    body: await createEndpoint(deps, principal, body),
  }),
);
