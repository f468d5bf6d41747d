import { publicBaseUrl, publicRoute } from '../../../platform/http';
import { CONNECTOR_ROUTE } from '../routes';
import { envConfig } from '../../infra/config';
import { openConnectLink } from '../../app/connect-flow';
import { cookieHeader, redirect } from './redirect';

/** GET {connect_url}: opened by the user's browser, no API key. */
export const create = publicRoute(CONNECTOR_ROUTE.openConnectLink, async ({ path, deps, event, log }) => {
  const result = await openConnectLink(deps, envConfig, {
    token: path.token,
    cookieHeader: cookieHeader(event),
    baseUrl: publicBaseUrl(event),
  });
  log.info('connect link opened', { connectionId: result.connectionId, outcome: result.outcome });
  return redirect(result);
});
