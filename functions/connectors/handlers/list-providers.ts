import { apiRoute } from '../../platform/http';
import { listProviders } from '../provider-settings';

export const handler = apiRoute('listProviders', {}, async ({ deps, principal }) => ({
  status: 200,
  body: { data: await listProviders(deps.tables.connectors, principal.organizationId) },
}));
