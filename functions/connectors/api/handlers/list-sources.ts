import { apiRoute } from '../../../platform/http';
import { listSourcesRoute } from '../routes';
import { invocationContext } from '../../app/context';
import { browseSources } from '../../app/sources';

export const create = apiRoute(listSourcesRoute, async ({ path, query, deps, principal, log }) => ({
  status: 200,
  body: await browseSources(invocationContext(deps, log), principal.organizationId, path.id, query),
}));
