import { apiRoute } from '../../../platform/http';
import { CONNECTOR_ROUTE } from '../routes';
import { deleteLink } from '../../app/links';

export const create = apiRoute(CONNECTOR_ROUTE.deleteImportLink, async ({ path, deps, principal, log }) => {
  await deleteLink(deps, principal.organizationId, path.id, log);
  return { status: 204 };
});
