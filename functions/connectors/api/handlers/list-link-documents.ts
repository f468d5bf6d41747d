import { apiRoute } from '../../../platform/http';
import { listLinkDocumentsRoute } from '../routes';
import { listLinkDocuments } from '../../app/links';

export const create = apiRoute(listLinkDocumentsRoute, async ({ path, query, deps, principal }) => ({
  status: 200,
  body: await listLinkDocuments(deps, principal.organizationId, path.id, query),
}));
