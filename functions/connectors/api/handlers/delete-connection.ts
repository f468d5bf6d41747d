import { apiRoute } from '../../../platform/http';
import { deleteConnectionRoute } from '../routes';
import { connectorConfig } from '../../infra/config';
import { disconnect } from '../../app/connections';
import { startPurge } from '../../app/purge';

export const create = apiRoute(deleteConnectionRoute, async ({ path, query, deps, principal, log }) => {
  const purge = query.purge === 'true';
  await disconnect(deps, connectorConfig(deps.secrets), principal.organizationId, path.id, log, { purge });
  if (!purge) return { status: 204 };
  // Durable and irreversible: the documents this connection's import links brought in are deleted.
  const job = await startPurge(deps, principal.organizationId, path.id);
  return { status: 202, body: job };
});
