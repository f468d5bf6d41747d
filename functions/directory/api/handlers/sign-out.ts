// POST /connectors/v1/session/sign-out: ends the browser's session (an issued one is revoked, so the
// token is worthless even if it was copied) and clears the cookie; only from the console's own page.
import { publicRoute } from '../../../platform/http';
import { Portal } from '../../app/portal';
import { directoryRepositories } from '../../infra/repositories';
import { PORTAL_ROUTE } from '../portal-routes';
import { assertFromConsolePage, clearedSessionCookies, presentedSession } from '../session-web';

export const create = publicRoute(PORTAL_ROUTE.signOut, async ({ deps, event }) => {
  assertFromConsolePage(event, { jsonBody: false });
  const token = presentedSession(event);
  if (token) await new Portal(directoryRepositories(deps), deps.clock).signOut(token);
  return { status: 204, multiValueHeaders: { 'Set-Cookie': clearedSessionCookies() } };
});
