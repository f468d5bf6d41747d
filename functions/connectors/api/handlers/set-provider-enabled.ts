import { apiRoute } from '../../../platform/http';
import { setProviderEnabledRoute } from '../routes';
import { setProviderEnabled } from '../../app/provider-settings';

/** PATCH /connectors/v1/connections: a provider off (or on) for the whole organization; 200 {provider, enabled, updated_at}. */
export const create = apiRoute(setProviderEnabledRoute, async ({ body, deps, principal, log }) => {
  const result = await setProviderEnabled(
    deps,
    principal.organizationId,
    body.provider,
    body.enabled,
    body.allowed_hosts,
  );
  log.info('provider switched for the organization', { provider: body.provider, enabled: body.enabled });
  return { status: 200, body: result };
});
