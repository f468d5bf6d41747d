import { apiRoute } from '../../../platform/http';
import { CONNECTOR_ROUTE } from '../routes';
import { getLink } from '../../app/links';

export const create = apiRoute(CONNECTOR_ROUTE.getImportLink, async ({ path, deps, principal }) => ({
  status: 200,
  body: await getLink(deps, principal.organizationId, path.id),
}));
