import { apiRoute } from '../../../platform/http';
import { assertMayReadEndpointJob } from '../../app/access';
import { DELIVERY_ROUTE } from '../delivery-routes';
import { getJob } from '../../app/replay';

export const create = apiRoute(DELIVERY_ROUTE.getWebhookJob, async ({ deps, principal, path }) => {
  const job = await getJob(deps, principal.organizationId, path.id);
  await assertMayReadEndpointJob(deps, principal, job.endpointId);
  return { status: 200, body: job };
});
