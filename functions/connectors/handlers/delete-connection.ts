import { InvalidRequestError } from '../../platform/errors';
import { apiRoute } from '../../platform/http';
import { envConfig } from '../config';
import { disconnect } from '../connections';
import { connectionIdPath, deleteConnectionQuery } from '../schemas';

export const handler = apiRoute(
  'deleteConnection',
  { path: connectionIdPath, query: deleteConnectionQuery },
  async ({ path, query, deps, principal, log }) => {
    if (query.purge === 'true') {
      // The purge workflow (202, durable deletion of imported documents) arrives with the import links.
      throw new InvalidRequestError(
        'Invalid query parameters: purge: purge=true is not supported yet; omit it to disconnect',
      );
    }
    await disconnect(deps, envConfig, principal.organizationId, path.id, log);
    return { status: 204 };
  },
);
