import { apiRoute, publicBaseUrl } from '../../platform/http';
import { createConnection } from '../connections';
import { createConnectionBody } from '../schemas';

export const handler = apiRoute(
  'createConnection',
  { body: createConnectionBody },
  async ({ body, deps, event, principal }) => ({
    status: 201,
    body: await createConnection(deps, principal.organizationId, body, publicBaseUrl(event)),
  }),
);
