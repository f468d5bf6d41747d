import { apiRoute } from '../../platform/http';
import { DELIVERY_ROUTE } from '../routes';
import { startRecovery } from '../replay';

export const handler = apiRoute(
  DELIVERY_ROUTE.recoverWebhookEndpoint,
  async ({ deps, principal, path, body }) => ({
    status: 202,
    body: await startRecovery(deps, principal.organizationId, path.id, body),
  }),
);
