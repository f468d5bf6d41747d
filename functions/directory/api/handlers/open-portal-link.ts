// GET /connectors/v1/session/open/{id}: the page a link opens. Opening it spends nothing (a chat app's
// preview cannot use the link up): its script reads the token from the fragment, which no server and no
// log sees, and posts it to the exchange. Framed only by the link's organization's allowed origins.
import { publicRoute } from '../../../platform/http';
import { Portal } from '../../app/portal';
import { directoryRepositories } from '../../infra/repositories';
import { PORTAL_ROUTE } from '../portal-routes';
import { consolePage, pageHeaders } from '../session-web';

export const create = publicRoute(PORTAL_ROUTE.openPortalLink, async ({ deps, path }) => {
  const portal = new Portal(directoryRepositories(deps), deps.clock);
  const grant = await portal.linkGrant(path.id);
  // The full console is never framed; an unknown link's page only says so.
  const settings = grant?.kind === 'portal' ? await portal.settings(grant.organizationId) : undefined;
  return {
    status: 200,
    body: consolePage('Signing in', 'open.js', 'Signing you in…'),
    headers: pageHeaders(settings),
  };
});
