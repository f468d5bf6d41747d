import { apiRoute } from '../../../platform/http';
import { CONNECTOR_ROUTE } from '../routes';
import { startRun } from '../../app/sync-runs';

export const create = apiRoute(CONNECTOR_ROUTE.startSyncRun, async ({ path, deps, principal, log }) => {
  const { id, status } = await startRun(deps, principal.organizationId, path.id, 'api', log);
  return { status: 202, body: { id, status } };
});
