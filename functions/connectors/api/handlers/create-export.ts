import { apiRoute } from '../../../platform/http';
import { createExportRoute } from '../routes';
import { connectorConfig } from '../../infra/config';
import { startExport } from '../../app/exports';

export const create = apiRoute(createExportRoute, async ({ path, body, deps, principal, log }) => ({
  status: 202,
  body: await startExport(deps, connectorConfig(deps.secrets), principal.organizationId, path.id, body, log),
}));
