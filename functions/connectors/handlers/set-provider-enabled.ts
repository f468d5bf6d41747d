import { apiRoute } from '../../platform/http';
import { setProviderEnabled } from '../provider-settings';
import { setProviderEnabledBody } from '../schemas';

/** PATCH /connectors/v1/connections: a provider off (or on) for the whole organization; 200 {provider, enabled, updated_at}. */
export const handler = apiRoute(
  'setProviderEnabled',
  { body: setProviderEnabledBody },
  async ({ body, deps, principal, log }) => {
    const result = await setProviderEnabled(
      deps.tables.connectors,
      deps.clock,
      principal.organizationId,
      body.provider,
      body.enabled,
    );
    log.info('provider switched for the organization', { provider: body.provider, enabled: body.enabled });
    return { status: 200, body: result };
  },
);
