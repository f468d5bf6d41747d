import { apiRoute } from '../../../platform/http';
import { CONNECTOR_ROUTE } from '../routes';
import { listConnections } from '../../app/connections';

export const create = apiRoute(CONNECTOR_ROUTE.listConnections, async ({ query, deps, principal }) => ({
  status: 200,
  body: await listConnections(deps, principal.organizationId, query),
}));
