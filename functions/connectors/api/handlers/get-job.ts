import { apiRoute } from '../../../platform/http';
import { getConnectorJobRoute } from '../routes';
import { getConnectorJob } from '../../app/job-status';

export const create = apiRoute(getConnectorJobRoute, async ({ path, deps, principal }) => ({
  status: 200,
  body: await getConnectorJob(deps, principal.organizationId, path.id),
}));
