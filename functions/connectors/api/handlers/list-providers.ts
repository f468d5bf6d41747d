import { apiRoute } from '../../../platform/http';
import { CONNECTOR_ROUTE } from '../routes';
import { listProviders } from '../../app/provider-settings';

export const create = apiRoute(CONNECTOR_ROUTE.listProviders, async ({ deps, principal }) => ({
  status: 200,
  body: { data: await listProviders(deps, principal.organizationId) },
}));
