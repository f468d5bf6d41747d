import { apiRoute } from '../../../platform/http';
import { CONNECTOR_ROUTE } from '../routes';
import { listLinks } from '../../app/links';

export const create = apiRoute(CONNECTOR_ROUTE.listImportLinks, async ({ path, query, deps, principal }) => ({
  status: 200,
  body: await listLinks(deps, principal.organizationId, path.id, query),
}));
