import { apiRoute } from '../../../platform/http';
import { WEBHOOK_ROUTE } from '../routes';
import { getEndpoint } from '../../app/endpoints';

export const create = apiRoute(WEBHOOK_ROUTE.getWebhookEndpoint, async ({ deps, principal, path }) => ({
  status: 200,
  body: await getEndpoint(deps, principal.organizationId, path.id),
}));
