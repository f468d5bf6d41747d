import { loopbackAllowed } from '../../platform/config';
import { apiRoute } from '../../platform/http';
import { sendTestEvent } from '../endpoints';
import { endpointPath } from '../schemas';

export const handler = apiRoute(
  'testWebhookEndpoint',
  { path: endpointPath },
  async ({ deps, principal, path }) => ({
    status: 200,
    body: await sendTestEvent(deps, principal.organizationId, path.id, {
      allowLoopback: loopbackAllowed(),
    }),
  }),
);
