// GET /connectors/v1/session: who the console session signs in, for the console to draw itself: an
// issued session (a link's) from the table, or an identity provider's JWT verified as the authorizers do.
import { AuthInvalidError } from '../../../platform/errors';
import { publicRoute } from '../../../platform/http';
import { currentSession } from '../../app/session-view';
import { directoryRepositories } from '../../infra/repositories';
import { PORTAL_ROUTE } from '../portal-routes';
import { presentedSession } from '../session-web';

export const create = publicRoute(PORTAL_ROUTE.readSession, async ({ deps, event }) => {
  const token = presentedSession(event);
  const session = token ? await currentSession(directoryRepositories(deps), deps.clock, token) : undefined;
  if (!session) throw new AuthInvalidError('Not signed in');
  return { status: 200, body: session };
});
