import { apiRoute } from '../../../platform/http';
import { CONNECTOR_ROUTE } from '../routes';
import { startRun } from '../../app/sync-runs';

export const create = apiRoute(CONNECTOR_ROUTE.startSyncRun, async ({ path, body, deps, principal, log }) => {
  const mode = body?.mode ?? 'changes';
  const { id, status } = await startRun(deps, principal.organizationId, path.id, 'api', log, mode);
  return { status: 202, body: { id, status } };
});
