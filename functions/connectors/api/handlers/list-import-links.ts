import { apiRoute } from '../../../platform/http';
import { listImportLinksRoute } from '../routes';
import { listLinks } from '../../app/links';

export const create = apiRoute(listImportLinksRoute, async ({ path, query, deps, principal }) => ({
  status: 200,
  body: await listLinks(deps, principal.organizationId, path.id, query),
}));
