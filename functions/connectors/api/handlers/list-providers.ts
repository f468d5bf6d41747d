import { apiRoute } from '../../../platform/http';
import { listProvidersRoute } from '../routes';
import { listProviders } from '../../app/provider-settings';

export const create = apiRoute(listProvidersRoute, async ({ deps, principal }) => ({
  status: 200,
  body: { data: await listProviders(deps, principal.organizationId) },
}));
