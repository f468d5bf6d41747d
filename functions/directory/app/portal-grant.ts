// A mint request read as a grant: which kind, which organization, and a role that fits the kind.
import type { ConsoleRole } from '../../platform/console-sessions';
import { CONSOLE_ROLES } from '../../platform/console-sessions';
import type { PortalRole, PortalSection, SessionGrant } from '../../platform/portal-sessions';
import { PORTAL_ROLES, PORTAL_SECTIONS } from '../../platform/portal-sessions';
import type { Principal } from '../../platform/principal';

export interface MintRequest {
  kind?: 'portal' | 'console';
  organization_id?: string;
  application_id?: string;
  role: string;
  sections?: PortalSection[];
  user?: string;
}

/** The grant a request asks for, or why it is malformed (the permission checks are the use case's). */
export function grantFrom(principal: Principal, request: MintRequest): SessionGrant | string {
  const organizationId = request.organization_id ?? (principal.system ? undefined : principal.organizationId);
  if (!organizationId) return 'organization_id is required with a system key';
  const user = request.user ? { user: request.user } : {};
  if (request.kind === 'console') {
    if (!CONSOLE_ROLES.includes(request.role as ConsoleRole))
      return `role must be one of ${CONSOLE_ROLES.join(', ')} for a console link`;
    if (request.sections || request.application_id)
      return 'sections and application_id are for portal links; a console link opens the whole console';
    return { kind: 'console', organizationId, role: request.role as ConsoleRole, ...user };
  }
  if (!PORTAL_ROLES.includes(request.role as PortalRole))
    return `role must be one of ${PORTAL_ROLES.join(', ')} for a portal link`;
  const sections = PORTAL_SECTIONS.filter((s) => (request.sections ?? PORTAL_SECTIONS).includes(s));
  return {
    kind: 'portal',
    organizationId,
    ...(request.application_id ? { applicationId: request.application_id } : {}),
    role: request.role as PortalRole,
    sections,
    ...user,
  };
}
