import { apiRoute } from '../../platform/http';
import { listConnections } from '../connections';
import { listConnectionsQuery } from '../schemas';

export const handler = apiRoute(
  'listConnections',
  { query: listConnectionsQuery },
  async ({ query, deps, principal }) => ({
    status: 200,
    body: await listConnections(deps, principal.organizationId, query),
  }),
);
