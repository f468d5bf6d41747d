import { apiRoute } from '../../platform/http';
import { envConfig } from '../config';
import { disconnect } from '../connections';
import { startPurge } from '../purge';
import { connectionIdPath, deleteConnectionQuery } from '../schemas';

export const handler = apiRoute(
  'deleteConnection',
  { path: connectionIdPath, query: deleteConnectionQuery },
  async ({ path, query, deps, principal, log }) => {
    await disconnect(deps, envConfig, principal.organizationId, path.id, log);
    if (query.purge !== 'true') return { status: 204 };
    // Durable and irreversible: the documents this connection's import links brought in are deleted.
    const job = await startPurge(deps, principal.organizationId, path.id);
    return { status: 202, body: job };
  },
);
