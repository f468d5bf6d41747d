// What a session opened from a link may do on the API-key routes (the API-key authorizer's answer).
import { EVENT_TYPES } from '../../events';
import { consolePermissions } from '../../platform/console-sessions';
import type { Permission } from '../../platform/permissions';
import type { SessionGrant } from '../../platform/portal-sessions';
import { portalPermissions } from '../../platform/portal-sessions';

/**
 * An operator's console session: its console role's. A portal: its sections' permissions and, with the
 * webhooks section, the permission of every event type the catalog defines except the connection
 * events' (those follow the connections section): an endpoint and its deliveries are visible only to a
 * caller who may see every event it receives (webhooks/app/access.ts), and a portal shows all of the
 * organization's endpoints.
 */
export function issuedSessionPermissions(grant: SessionGrant): Permission[] {
  if (grant.kind === 'console') return consolePermissions(grant.role);
  const permissions = new Set(portalPermissions(grant));
  if (grant.sections.includes('webhooks')) {
    for (const definition of EVENT_TYPES) {
      if (!definition.permission.startsWith('connectors:')) permissions.add(definition.permission);
    }
  }
  return [...permissions].sort();
}
