import { apiRoute, publicBaseUrl } from '../../../platform/http';
import { CONNECTOR_ROUTE } from '../routes';
import { createConnection } from '../../app/connections';

export const create = apiRoute(
  CONNECTOR_ROUTE.createConnection,
  async ({ body, deps, event, principal }) => ({
    status: 201,
    body: await createConnection(deps, principal.organizationId, body, publicBaseUrl(event)),
  }),
);
