import { apiRoute } from '../../../platform/http';
import { createImportLinkRoute } from '../routes';
import { connectorConfig } from '../../infra/config';
import { createLink } from '../../app/links';

export const create = apiRoute(createImportLinkRoute, async ({ path, body, deps, principal, log }) => ({
  status: 201,
  body: await createLink(deps, connectorConfig(deps.secrets), principal.organizationId, path.id, body, log),
}));
