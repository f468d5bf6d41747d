import { apiRoute } from '../../../platform/http';
import { startSyncRunRoute } from '../routes';
import { startRun } from '../../app/sync-runs';

export const create = apiRoute(startSyncRunRoute, async ({ path, body, deps, principal, log }) => {
  const mode = body?.mode ?? 'changes';
  const { id, status } = await startRun(deps, principal.organizationId, path.id, 'api', log, mode);
  return { status: 202, body: { id, status } };
});
