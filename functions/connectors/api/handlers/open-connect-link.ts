import { publicBaseUrl, publicRoute } from '../../../platform/http';
import { openConnectLinkRoute } from '../routes';
import { connectorConfig } from '../../infra/config';
import { openConnectLink } from '../../app/connect-flow';
import { cookieHeader, redirect } from './redirect';

/** POST {connect_url}: the interstitial page's button (no API key): spends the link, starts the flow. */
export const create = publicRoute(openConnectLinkRoute, async ({ path, deps, event, log }) => {
  const result = await openConnectLink(deps, connectorConfig(deps.secrets), {
    token: path.token,
    cookieHeader: cookieHeader(event),
    baseUrl: publicBaseUrl(event),
  });
  log.info('connect link opened', { connectionId: result.connectionId, outcome: result.outcome });
  return redirect(result);
});
