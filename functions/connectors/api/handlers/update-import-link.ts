import { apiRoute } from '../../../platform/http';
import { CONNECTOR_ROUTE } from '../routes';
import { updateLink } from '../../app/links';

export const create = apiRoute(
  CONNECTOR_ROUTE.updateImportLink,
  async ({ path, body, deps, principal, log }) => ({
    status: 200,
    body: await updateLink(deps, principal.organizationId, path.id, body, log),
  }),
);
