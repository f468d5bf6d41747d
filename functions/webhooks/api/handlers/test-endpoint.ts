import { loopbackAllowed } from '../../../platform/config';
import { apiRoute } from '../../../platform/http';
import { endpointForCaller } from '../../app/access';
import { WEBHOOK_ROUTE } from '../routes';
import { sendTestEvent } from '../../app/endpoints';

export const create = apiRoute(WEBHOOK_ROUTE.testWebhookEndpoint, async ({ deps, principal, path }) => {
  await endpointForCaller(deps, principal, path.id);
  return {
    status: 200,
    body: await sendTestEvent(deps, principal.organizationId, path.id, { allowLoopback: loopbackAllowed() }),
  };
});
