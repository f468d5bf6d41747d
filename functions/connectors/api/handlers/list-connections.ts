import { apiRoute } from '../../../platform/http';
import { listConnectionsRoute } from '../routes';
import { listConnections } from '../../app/connections';

export const create = apiRoute(listConnectionsRoute, async ({ query, deps, principal }) => ({
  status: 200,
  body: await listConnections(deps, principal.organizationId, query),
}));
