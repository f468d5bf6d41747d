import { apiRoute } from '../../platform/http';
import { DELIVERY_ROUTE } from '../routes';
import { getJob } from '../replay';

export const handler = apiRoute(DELIVERY_ROUTE.getWebhookJob, async ({ deps, principal, path }) => ({
  status: 200,
  body: await getJob(deps, principal.organizationId, path.id),
}));
