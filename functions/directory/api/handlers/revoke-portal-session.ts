// DELETE /connectors/v1/portal/sessions/{id}: ends a live session of the key's organization now.
import { apiRoute } from '../../../platform/http';
import { Portal } from '../../app/portal';
import { directoryRepositories } from '../../infra/repositories';
import { PORTAL_ROUTE } from '../portal-routes';

export const create = apiRoute(PORTAL_ROUTE.revokePortalSession, async ({ deps, principal, path }) => {
  await new Portal(directoryRepositories(deps), deps.clock).revoke(principal.organizationId, path.id);
  return { status: 204 };
});
