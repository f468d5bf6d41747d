import { apiRoute } from '../../platform/http';
import { getConnection } from '../connections';
import { connectionIdPath } from '../schemas';

export const handler = apiRoute(
  'getConnection',
  { path: connectionIdPath },
  async ({ path, deps, principal }) => ({
    status: 200,
    body: await getConnection(deps, principal.organizationId, path.id),
  }),
);
