import { apiRoute } from '../../../platform/http';
import { CONNECTOR_ROUTE } from '../routes';
import { listRuns } from '../../app/sync-runs';

export const create = apiRoute(CONNECTOR_ROUTE.listSyncRuns, async ({ path, query, deps, principal }) => ({
  status: 200,
  body: await listRuns(deps, principal.organizationId, path.id, query),
}));
