import { apiRoute } from '../../../platform/http';
import { createExportRoute } from '../routes';
import { invocationContext } from '../../app/context';
import { startExport } from '../../app/exports';

export const create = apiRoute(createExportRoute, async ({ path, body, deps, principal, log }) => ({
  status: 202,
  body: await startExport(invocationContext(deps, log), principal.organizationId, path.id, body),
}));
