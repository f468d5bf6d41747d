import { apiRoute } from '../../../platform/http';
import { CONNECTOR_ROUTE } from '../routes';
import { getConnectorJob } from '../../app/job-status';

export const create = apiRoute(CONNECTOR_ROUTE.getConnectorJob, async ({ path, deps, principal }) => ({
  status: 200,
  body: await getConnectorJob(deps, principal.organizationId, path.id),
}));
