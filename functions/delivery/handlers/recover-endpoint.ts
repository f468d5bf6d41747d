import { apiRoute } from '../../platform/http';
import { endpointForCaller } from '../../webhooks/access';
import { DELIVERY_ROUTE } from '../routes';
import { startRecovery } from '../replay';

export const handler = apiRoute(
  DELIVERY_ROUTE.recoverWebhookEndpoint,
  async ({ deps, principal, path, body }) => {
    await endpointForCaller(deps, principal, path.id);
    return { status: 202, body: await startRecovery(deps, principal.organizationId, path.id, body) };
  },
);
