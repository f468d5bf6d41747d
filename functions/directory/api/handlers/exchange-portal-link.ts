// POST /connectors/v1/session/exchange: a link's token, once, for the session cookie; only from the
// console's own page (login CSRF). Where to go next: the portal page of the session, or the console.
import { GoneError } from '../../../platform/errors';
import { publicRoute } from '../../../platform/http';
import { Portal } from '../../app/portal';
import type { ExchangeRefusal } from '../../app/portal';
import { directoryRepositories } from '../../infra/repositories';
import { PORTAL_ROUTE } from '../portal-routes';
import { assertFromConsolePage, sessionCookie } from '../session-web';
import { sessionHome } from '../../app/session-view';

const REFUSALS: Record<ExchangeRefusal, string> = {
  used: 'This link has already been used: a link opens once. Ask the application that sent you here for a new one',
  expired: 'This link has expired. Ask the application that sent you here for a new one',
  unknown: 'This is not a valid sign-in link. Ask the application that sent you here for a new one',
};

export const create = publicRoute(PORTAL_ROUTE.exchangePortalLink, async ({ deps, event, body }) => {
  assertFromConsolePage(event, { jsonBody: true });
  const result = await new Portal(directoryRepositories(deps), deps.clock).exchange(body.token);
  if (!result.ok) throw new GoneError(REFUSALS[result.refusal]);
  const { session, token } = result;
  const maxAge = Math.floor((session.expiresAt - deps.clock.now()) / 1000);
  const home = sessionHome(session.grant);
  return {
    status: 200,
    body: {
      redirect:
        session.grant.kind === 'portal'
          ? `/connectors/v1/session/portal/${session.id}${home}`
          : `/console/${home}`,
    },
    multiValueHeaders: { 'Set-Cookie': [sessionCookie(session.grant.kind, token, maxAge)] },
  };
});
