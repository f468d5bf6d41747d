import { apiRoute } from '../../../platform/http';
import { CONNECTOR_ROUTE } from '../routes';
import { envConfig } from '../../infra/config';
import { createLink } from '../../app/links';

export const create = apiRoute(
  CONNECTOR_ROUTE.createImportLink,
  async ({ path, body, deps, principal, log }) => ({
    status: 201,
    body: await createLink(deps, envConfig, principal.organizationId, path.id, body, log),
  }),
);
