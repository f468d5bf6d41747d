import { apiRoute } from '../../../platform/http';
import { endpointForCaller } from '../../app/access';
import { WEBHOOK_ROUTE } from '../routes';
import { rotateSecret } from '../../app/endpoints';

export const create = apiRoute(WEBHOOK_ROUTE.rotateWebhookSecret, async ({ deps, principal, path }) => {
  await endpointForCaller(deps, principal, path.id);
  return { status: 200, body: await rotateSecret(deps, principal.organizationId, path.id) };
});
