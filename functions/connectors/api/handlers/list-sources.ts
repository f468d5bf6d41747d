import { apiRoute } from '../../../platform/http';
import { CONNECTOR_ROUTE } from '../routes';
import { envConfig } from '../../infra/config';
import { browseSources } from '../../app/sources';

export const create = apiRoute(
  CONNECTOR_ROUTE.listSources,
  async ({ path, query, deps, principal, log }) => ({
    status: 200,
    body: await browseSources(deps, envConfig, principal.organizationId, path.id, query, log),
  }),
);
