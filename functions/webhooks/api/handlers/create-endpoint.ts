import { apiRoute } from '../../../platform/http';
import { WEBHOOK_ROUTE } from '../routes';
import { createEndpoint } from '../../app/endpoints';

export const create = apiRoute(WEBHOOK_ROUTE.createWebhookEndpoint, async ({ deps, principal, body }) => ({
  status: 201,
  body: await createEndpoint(deps, principal, body),
}));
