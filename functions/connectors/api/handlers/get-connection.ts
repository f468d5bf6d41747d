import { apiRoute } from '../../../platform/http';
import { getConnectionRoute } from '../routes';
import { getConnection } from '../../app/connections';

export const create = apiRoute(getConnectionRoute, async ({ path, deps, principal }) => ({
  status: 200,
  body: await getConnection(deps, principal.organizationId, path.id),
}));
