import { apiRoute } from '../../../platform/http';
import { CONNECTOR_ROUTE } from '../routes';
import { envConfig } from '../../infra/config';
import { startExport } from '../../app/exports';

export const create = apiRoute(
  CONNECTOR_ROUTE.createExport,
  async ({ path, body, deps, principal, log }) => ({
    status: 202,
    body: await startExport(deps, envConfig, principal.organizationId, path.id, body, log),
  }),
);
