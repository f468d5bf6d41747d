import { apiRoute } from '../../../platform/http';
import { CONNECTOR_ROUTE } from '../routes';
import { listLinkDocuments } from '../../app/links';

export const create = apiRoute(
  CONNECTOR_ROUTE.listLinkDocuments,
  async ({ path, query, deps, principal }) => ({
    status: 200,
    body: await listLinkDocuments(deps, principal.organizationId, path.id, query),
  }),
);
