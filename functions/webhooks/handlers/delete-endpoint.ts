import { apiRoute } from '../../platform/http';
import { deleteEndpoint } from '../endpoints';
import { endpointPath } from '../schemas';

export const handler = apiRoute(
  'deleteWebhookEndpoint',
  { path: endpointPath },
  async ({ deps, principal, path }) => {
    await deleteEndpoint(deps, principal.organizationId, path.id);
    return { status: 204 };
  },
);
