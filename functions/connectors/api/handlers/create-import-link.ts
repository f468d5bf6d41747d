import { apiRoute } from '../../../platform/http';
import { createImportLinkRoute } from '../routes';
import { invocationContext } from '../../app/context';
import { createLink } from '../../app/links';

export const create = apiRoute(createImportLinkRoute, async ({ path, body, deps, principal, log }) => ({
  status: 201,
  body: await createLink(invocationContext(deps, log), principal.organizationId, path.id, body),
}));
