import { apiRoute } from '../../platform/http';
import { assertMayReadEndpointJob } from '../../webhooks/access';
import { DELIVERY_ROUTE } from '../routes';
import { getJob } from '../replay';

export const handler = apiRoute(DELIVERY_ROUTE.getWebhookJob, async ({ deps, principal, path }) => {
  const job = await getJob(deps, principal.organizationId, path.id);
  await assertMayReadEndpointJob(deps, principal, job.endpointId);
  return { status: 200, body: job };
});
