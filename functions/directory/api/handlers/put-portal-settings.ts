// PUT /connectors/v1/portal/settings: replaces who may frame the portal and how it looks.
import { apiRoute } from '../../../platform/http';
import { Portal } from '../../app/portal';
import { directoryRepositories } from '../../infra/repositories';
import { PORTAL_ROUTE } from '../portal-routes';
import { settingsBody, settingsFrom } from '../portal-settings-view';

export const create = apiRoute(PORTAL_ROUTE.putPortalSettings, async ({ deps, principal, body }) => {
  const settings = settingsFrom(body);
  await new Portal(directoryRepositories(deps), deps.clock).putSettings(principal.organizationId, settings);
  return { status: 200, body: settingsBody(settings) };
});
