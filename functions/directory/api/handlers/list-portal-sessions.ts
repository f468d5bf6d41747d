// GET /connectors/v1/portal/sessions: the organization's live sessions opened from links.
import { isoTime } from '../../../platform/clock';
import { apiRoute } from '../../../platform/http';
import type { PortalSession } from '../../app/portal';
import { Portal } from '../../app/portal';
import { directoryRepositories } from '../../infra/repositories';
import { PORTAL_ROUTE } from '../portal-routes';

const view = ({ id, grant, createdAt, expiresAt }: PortalSession) => ({
  id,
  kind: grant.kind,
  organization_id: grant.organizationId,
  application_id: grant.kind === 'portal' ? (grant.applicationId ?? null) : null,
  role: grant.role,
  sections: grant.kind === 'portal' ? grant.sections : [],
  user: grant.user ?? null,
  created_at: isoTime(createdAt),
  expires_at: isoTime(expiresAt),
});

export const create = apiRoute(PORTAL_ROUTE.listPortalSessions, async ({ deps, principal }) => {
  const sessions = await new Portal(directoryRepositories(deps), deps.clock).listLiveSessions(
    principal.organizationId,
  );
  return { status: 200, body: { data: sessions.map(view) } };
});
