import { apiRoute } from '../../platform/http';
import { startRecovery } from '../replay';
import { idPath, recoverBody } from '../schemas';

export const handler = apiRoute(
  'recoverWebhookEndpoint',
  { path: idPath, body: recoverBody },
  async ({ deps, principal, path, body }) => ({
    status: 202,
    body: await startRecovery(deps, principal.organizationId, path.id, body),
  }),
);
