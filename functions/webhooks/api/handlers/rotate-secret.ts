import { apiRoute } from '../../../platform/http';
import { WEBHOOK_ROUTE } from '../routes';
import { rotateSecret } from '../../app/endpoints';

export const create = apiRoute(WEBHOOK_ROUTE.rotateWebhookSecret, async ({ deps, principal, path }) => ({
  status: 200,
  body: await rotateSecret(deps, principal.organizationId, path.id),
}));
