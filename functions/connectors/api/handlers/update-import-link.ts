import { apiRoute } from '../../../platform/http';
import { updateImportLinkRoute } from '../routes';
import { updateLink } from '../../app/links';

export const create = apiRoute(updateImportLinkRoute, async ({ path, body, deps, principal, log }) => ({
  status: 200,
  body: await updateLink(deps, principal.organizationId, path.id, body, log),
}));
