import { apiRoute } from '../../../platform/http';
import { WEBHOOK_ROUTE } from '../routes';
import { updateEndpoint } from '../../app/endpoints';

export const create = apiRoute(
  WEBHOOK_ROUTE.updateWebhookEndpoint,
  async ({ deps, principal, path, body }) => ({
    status: 200,
    body: await updateEndpoint(deps, principal, path.id, body),
  }),
);
