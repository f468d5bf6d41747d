import { apiRoute } from '../../../platform/http';
import { CONNECTOR_ROUTE } from '../routes';
import { getPurgeJob } from '../../app/purge';

export const create = apiRoute(CONNECTOR_ROUTE.getConnectorJob, async ({ path, deps, principal }) => ({
  status: 200,
  body: await getPurgeJob(deps, principal.organizationId, path.id),
}));
