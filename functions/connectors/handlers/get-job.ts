import { apiRoute } from '../../platform/http';
import { CONNECTOR_ROUTE } from '../routes';
import { getPurgeJob } from '../purge';

export const handler = apiRoute(CONNECTOR_ROUTE.getConnectorJob, async ({ path, deps, principal }) => ({
  status: 200,
  body: await getPurgeJob(deps, principal.organizationId, path.id),
}));
