import { apiRoute } from '../../../platform/http';
import { deleteImportLinkRoute } from '../routes';
import { deleteLink } from '../../app/links';

export const create = apiRoute(deleteImportLinkRoute, async ({ path, deps, principal, log }) => {
  await deleteLink(deps, principal.organizationId, path.id, log);
  return { status: 204 };
});
