import { apiRoute } from '../../../platform/http';
import { listSourcesRoute } from '../routes';
import { connectorConfig } from '../../infra/config';
import { browseSources } from '../../app/sources';

export const create = apiRoute(listSourcesRoute, async ({ path, query, deps, principal, log }) => ({
  status: 200,
  body: await browseSources(
    deps,
    connectorConfig(deps.secrets),
    principal.organizationId,
    path.id,
    query,
    log,
  ),
}));
