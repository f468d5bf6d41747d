import { apiRoute } from '../../../platform/http';
import { listSyncRunsRoute } from '../routes';
import { listRuns } from '../../app/sync-runs';

export const create = apiRoute(listSyncRunsRoute, async ({ path, query, deps, principal }) => ({
  status: 200,
  body: await listRuns(deps, principal.organizationId, path.id, query),
}));
