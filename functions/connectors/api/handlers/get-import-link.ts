import { apiRoute } from '../../../platform/http';
import { getImportLinkRoute } from '../routes';
import { getLink } from '../../app/links';

export const create = apiRoute(getImportLinkRoute, async ({ path, deps, principal }) => ({
  status: 200,
  body: await getLink(deps, principal.organizationId, path.id),
}));
