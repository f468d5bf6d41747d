import { apiRoute } from '../../../platform/http';
import { CONNECTOR_ROUTE } from '../routes';
import { getConnection } from '../../app/connections';

export const create = apiRoute(CONNECTOR_ROUTE.getConnection, async ({ path, deps, principal }) => ({
  status: 200,
  body: await getConnection(deps, principal.organizationId, path.id),
}));
