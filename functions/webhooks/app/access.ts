// Who may manage an endpoint: a key that could have created it. An endpoint's url, secret and delivery
// history expose the events it receives, so every route that touches them asks the caller for the
// permission of each event type the endpoint receives, not only webhooks:read/webhooks:write.
import type { Principal } from '../../platform/principal';
import type { Deps } from '../../platform/ports';
import { NotFoundError, PermissionDeniedError } from '../../platform/errors';
import type { Permission } from '../../platform/permissions';
import { EVENT_TYPES, eventType } from '../../events';
import type { EndpointItem } from './endpoints';
import { loadEndpoint } from './endpoints';
import { filtersMatch } from '../domain/filters';

/** The permissions of the event types an endpoint receives (its filters narrowed by its stored permissions). */
export function permissionsReceived(
  endpoint: Pick<EndpointItem, 'eventTypeFilters' | 'permissions'>,
): Permission[] {
  const needed = new Set<Permission>();
  for (const definition of EVENT_TYPES) {
    if (
      endpoint.permissions.includes(definition.permission) &&
      filtersMatch(endpoint.eventTypeFilters, definition.type)
    ) {
      needed.add(definition.permission);
    }
  }
  return [...needed].sort();
}

/** The permissions the caller lacks to manage this endpoint (empty: it may). */
export function missingPermissions(
  endpoint: Pick<EndpointItem, 'eventTypeFilters' | 'permissions'>,
  principal: Pick<Principal, 'permissions'>,
): Permission[] {
  return permissionsReceived(endpoint).filter((p) => !principal.permissions.includes(p));
}

/** 403 unless the caller holds every permission of the events the endpoint receives. */
export function assertMayManage(endpoint: EndpointItem, principal: Principal): void {
  const missing = missingPermissions(endpoint, principal);
  if (missing.length > 0) {
    throw new PermissionDeniedError(
      `This key lacks the ${missing.join(', ')} permission${missing.length > 1 ? 's' : ''} needed for the events this endpoint receives`,
    );
  }
}

/** Loads the caller's endpoint (404 in another organization) and checks it may manage it (403). */
export async function endpointForCaller(
  deps: Pick<Deps, 'tables'>,
  principal: Principal,
  id: string,
): Promise<EndpointItem> {
  const endpoint = await loadEndpoint(deps, principal.organizationId, id);
  assertMayManage(endpoint, principal);
  return endpoint;
}

/**
 * A delivery carries its event's data: the caller needs the permission of that event's type, and may
 * manage the endpoint when it still exists (a deleted endpoint's history is bounded by the event alone).
 */
export async function assertMayReadDelivery(
  deps: Pick<Deps, 'tables'>,
  principal: Principal,
  delivery: { endpointId: string; eventType: string },
): Promise<void> {
  const permission = eventType(delivery.eventType)?.permission;
  if (permission && !principal.permissions.includes(permission)) {
    throw new PermissionDeniedError(
      `This key lacks the ${permission} permission needed for the event this delivery carries`,
    );
  }
  const endpoint = await findEndpoint(deps, principal.organizationId, delivery.endpointId);
  if (endpoint) assertMayManage(endpoint, principal);
}

async function findEndpoint(
  deps: Pick<Deps, 'tables'>,
  organizationId: string,
  id: string,
): Promise<EndpointItem | undefined> {
  try {
    return await loadEndpoint(deps, organizationId, id);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/** A job about an endpoint is the caller's to read when the endpoint is (or is gone). */
export async function assertMayReadEndpointJob(
  deps: Pick<Deps, 'tables'>,
  principal: Principal,
  endpointId: string,
): Promise<void> {
  const endpoint = await findEndpoint(deps, principal.organizationId, endpointId);
  if (endpoint) assertMayManage(endpoint, principal);
}
