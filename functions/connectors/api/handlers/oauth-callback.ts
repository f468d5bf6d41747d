import { publicBaseUrl, publicRoute } from '../../../platform/http';
import { oauthCallbackRoute } from '../routes';
import { connectorConfig } from '../../infra/config';
import { completeConnection } from '../../app/connect-flow';
import { cookieHeader, redirect } from './redirect';

/** The provider's redirect back (the browser carries code and state); no API key. */
export const create = publicRoute(oauthCallbackRoute, async ({ path, query, deps, event, log }) => {
  const result = await completeConnection(
    deps,
    connectorConfig(deps.secrets),
    {
      provider: path.provider,
      query: { code: query.code, state: query.state, error: query.error, iss: query.iss },
      cookieHeader: cookieHeader(event),
      baseUrl: publicBaseUrl(event),
    },
    log,
  );
  log.info('oauth flow ended', { connectionId: result.connectionId, outcome: result.outcome });
  return redirect(result);
});
