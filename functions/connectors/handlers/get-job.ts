import { apiRoute } from '../../platform/http';
import { jobIdPath } from '../job-schemas';
import { getPurgeJob } from '../purge';

export const handler = apiRoute(
  'getConnectorJob',
  { path: jobIdPath },
  async ({ path, deps, principal }) => ({
    status: 200,
    body: await getPurgeJob(deps, principal.organizationId, path.id),
  }),
);
