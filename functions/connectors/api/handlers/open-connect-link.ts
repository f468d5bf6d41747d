import type { APIGatewayProxyEvent } from 'aws-lambda';
import { publicBaseUrl, publicRoute } from '../../../platform/http';
import { openConnectLinkRoute } from '../routes';
import { connectorConfig } from '../../infra/config';
import { openConnectLink } from '../../app/connect-flow';
import { cookieHeader, redirect } from './redirect';

/**
 * The page's form (application/x-www-form-urlencoded): the user's answers for the params the
 * customer's server did not give. Anything else (a JSON body, none) answers nothing.
 */
function formAnswers(event: APIGatewayProxyEvent): Record<string, string> {
  const type = Object.entries(event.headers ?? {}).find(
    ([name]) => name.toLowerCase() === 'content-type',
  )?.[1];
  if (!event.body || !/^application\/x-www-form-urlencoded\b/i.test(type ?? '')) return {};
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (raw.length > MAX_FORM_BYTES) return {};
  return Object.fromEntries(new URLSearchParams(raw));
}

/** A form of a few params: anything larger is not the page's. */
const MAX_FORM_BYTES = 4096;

/** POST {connect_url}: the interstitial page's button (no API key): spends the link, starts the flow. */
export const create = publicRoute(openConnectLinkRoute, async ({ path, deps, event, log }) => {
  const result = await openConnectLink(deps, connectorConfig(deps.secrets), {
    token: path.token,
    cookieHeader: cookieHeader(event),
    baseUrl: publicBaseUrl(event),
    answers: formAnswers(event),
  });
  log.info('connect link opened', { connectionId: result.connectionId, outcome: result.outcome });
  return redirect(result);
});
