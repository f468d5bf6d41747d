// GET /connectors/v1/portal/settings: who may frame the portal, and how it looks.
import { apiRoute } from '../../../platform/http';
import { Portal } from '../../app/portal';
import { directoryRepositories } from '../../infra/repositories';
import { PORTAL_ROUTE } from '../portal-routes';
import { settingsBody } from '../portal-settings-view';

export const create = apiRoute(PORTAL_ROUTE.getPortalSettings, async ({ deps, principal }) => {
  const settings = await new Portal(directoryRepositories(deps), deps.clock).settings(
    principal.organizationId,
  );
  return { status: 200, body: settingsBody(settings) };
});
