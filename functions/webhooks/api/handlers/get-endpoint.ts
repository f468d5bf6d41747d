import { apiRoute } from '../../../platform/http';
import { endpointForCaller } from '../../app/access';
import { WEBHOOK_ROUTE } from '../routes';
import { toView, withHealth } from '../../app/endpoints';

export const create = apiRoute(WEBHOOK_ROUTE.getWebhookEndpoint, async ({ deps, principal, path }) => ({
  status: 200,
  body: await withHealth(deps, toView(await endpointForCaller(deps, principal, path.id), deps.clock.now())),
}));
