// Which events an endpoint receives: event-type filters, resource scopes and the permissions stored on
// the endpoint. Pure functions; the fan-out worker and the API's validation both use them.
import type { Permission } from '../../platform/permissions';
import { EVENT_TYPES, eventType } from '../../events';

export interface ResourceScopes {
  vaultIds?: string[];
  matterIds?: string[];
}

const SEGMENT = '[a-z0-9_]+';
const EXACT = new RegExp(`^${SEGMENT}(\\.${SEGMENT})*$`);
const PREFIX = new RegExp(`^${SEGMENT}(\\.${SEGMENT})*\\.\\*$`);

export type FilterKind = 'all' | 'prefix' | 'exact';

/** The shape of a filter, or undefined when it is none of `*`, `a.b.*`, `a.b.c`. */
export function filterKind(filter: string): FilterKind | undefined {
  if (filter === '*') return 'all';
  if (PREFIX.test(filter)) return 'prefix';
  if (EXACT.test(filter)) return 'exact';
  return undefined;
}

/** `*` matches everything; `vault.*` every type under `vault.` (any depth); otherwise equality. */
export function filterMatches(filter: string, type: string): boolean {
  switch (filterKind(filter)) {
    case 'all':
      return true;
    case 'prefix':
      return type.startsWith(filter.slice(0, -1));
    case 'exact':
      return filter === type;
    default:
      return false;
  }
}

export function filtersMatch(filters: readonly string[], type: string): boolean {
  return filters.some((filter) => filterMatches(filter, type));
}

/** Catalog types a filter selects. */
export function typesMatching(filter: string): string[] {
  return EVENT_TYPES.filter((t) => filterMatches(filter, t.type)).map((t) => t.type);
}

/**
 * Every acceptable filter: `*`, each catalog type, and each prefix wildcard that selects one. A finite
 * list, so the request schema is an enum and the OpenAPI document shows exactly what is accepted.
 */
export const VALID_FILTERS: readonly [string, ...string[]] = [
  '*',
  ...EVENT_TYPES.map((t) => t.type),
  ...new Set(
    EVENT_TYPES.flatMap((t) => {
      const segments = t.type.split('.');
      return segments.slice(1).map((_, i) => `${segments.slice(0, i + 1).join('.')}.*`);
    }),
  ),
];

/** Why a filter is not acceptable, or undefined when it is. */
export function filterProblem(filter: string): string | undefined {
  const kind = filterKind(filter);
  if (!kind) return 'must be an event type, a prefix wildcard such as vault.* or vault.ingest.*, or *';
  if (kind === 'exact' && !eventType(filter)) {
    return `unknown event type ${filter} (GET /webhooks/v1/event-types lists them)`;
  }
  if (kind === 'prefix' && typesMatching(filter).length === 0) return `${filter} matches no event type`;
  return undefined;
}

/**
 * Permissions a key needs for these filters, with the types that need them. `*` needs none: it means
 * "every type the key may receive" and is narrowed at fan-out by the stored permissions.
 */
export function permissionsNeeded(filters: readonly string[]): Map<Permission, string[]> {
  const needed = new Map<Permission, string[]>();
  for (const filter of filters) {
    if (filter === '*') continue;
    for (const type of typesMatching(filter)) {
      const permission = eventType(type)!.permission;
      const types = needed.get(permission) ?? [];
      if (!types.includes(type)) types.push(type);
      needed.set(permission, types);
    }
  }
  return needed;
}

/**
 * Whether an event falls inside an endpoint's resource scopes. No scopes: every event. With scopes, the
 * event must concern at least one listed vault or matter; an event that carries no id of a scoped kind
 * (a billing event under a vault-scoped endpoint) is not delivered: a scope is a promise to receive
 * only what concerns those resources.
 */
export function scopeMatches(scopes: ResourceScopes | undefined, data: Record<string, unknown>): boolean {
  const vaultIds = scopes?.vaultIds ?? [];
  const matterIds = scopes?.matterIds ?? [];
  if (vaultIds.length === 0 && matterIds.length === 0) return true;
  const vaultId = typeof data.vaultId === 'string' ? data.vaultId : undefined;
  const matterId = typeof data.matterId === 'string' ? data.matterId : undefined;
  return (
    (vaultId !== undefined && vaultIds.includes(vaultId)) ||
    (matterId !== undefined && matterIds.includes(matterId))
  );
}

export interface Subscription {
  eventTypeFilters: readonly string[];
  resourceScopes?: ResourceScopes;
  /** Permissions of the key that set the filters. */
  permissions: readonly Permission[];
}

/** Whether an endpoint receives an event: a catalog type its key may receive, a filter, and its scopes. */
export function subscriptionMatches(
  subscription: Subscription,
  event: { type: string; data: Record<string, unknown> },
): boolean {
  const definition = eventType(event.type);
  if (!definition || !subscription.permissions.includes(definition.permission)) return false;
  return (
    filtersMatch(subscription.eventTypeFilters, event.type) &&
    scopeMatches(subscription.resourceScopes, event.data)
  );
}
