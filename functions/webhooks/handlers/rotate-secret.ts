import { apiRoute } from '../../platform/http';
import { rotateSecret } from '../endpoints';
import { endpointPath } from '../schemas';

export const handler = apiRoute(
  'rotateWebhookSecret',
  { path: endpointPath },
  async ({ deps, principal, path }) => ({
    status: 200,
    body: await rotateSecret(deps, principal.organizationId, path.id),
  }),
);
