// GET /connectors/v1/session/portal/{id}: the console page for a portal session, with the framing its
// organization allows (the console's files from the bucket refuse every frame). The id is not a secret:
// the page holds nothing; the console reads the session through the cookie.
import { publicRoute } from '../../../platform/http';
import { Portal } from '../../app/portal';
import { directoryRepositories } from '../../infra/repositories';
import { PORTAL_ROUTE } from '../portal-routes';
import { consolePage, pageHeaders } from '../session-web';

export const create = publicRoute(PORTAL_ROUTE.showPortal, async ({ deps, path }) => {
  const portal = new Portal(directoryRepositories(deps), deps.clock);
  const session = await portal.getSession(path.id);
  const settings =
    session?.grant.kind === 'portal' ? await portal.settings(session.grant.organizationId) : undefined;
  return {
    status: 200,
    body: consolePage('Console', 'console.js', 'Loading…'),
    headers: pageHeaders(settings),
  };
});
