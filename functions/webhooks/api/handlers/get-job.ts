import { apiRoute } from '../../../platform/http';
import { DELIVERY_ROUTE } from '../delivery-routes';
import { getJob } from '../../app/replay';

export const create = apiRoute(DELIVERY_ROUTE.getWebhookJob, async ({ deps, principal, path }) => ({
  status: 200,
  body: await getJob(deps, principal.organizationId, path.id),
}));
