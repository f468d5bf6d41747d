// What a warm worker keeps between messages: endpoint items, and an organization's endpoint list (for
// fan-out), for ENDPOINT_CACHE_TTL_MS; the opened signing secrets of one secret version for
// SECRET_CACHE_TTL_MS. Opened secrets live only in this
// process's memory (never written anywhere). Changes made in this process (update, disable, delete,
// rotation) forget the endpoint at once; changes made elsewhere are seen within the endpoint TTL, and a
// rotation then changes the secret version, which is part of the secrets' key.
import type { EndpointItem } from '../domain/endpoint';

/** How stale an endpoint (URL, filters, enabled, secret version) fan-out or a delivery may act on. */
export const ENDPOINT_CACHE_TTL_MS = 5_000;
/** How long opened secrets of one secret version are kept (the version changes on every rotation). */
export const SECRET_CACHE_TTL_MS = 5 * 60_000;
/** Entries per cache: beyond it the oldest go first. */
const MAX_ENTRIES = 2_000;

export interface OpenedSecret {
  secret: string;
  retiresAt?: number;
}

class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();
  constructor(private readonly ttlMs: number) {}

  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // A clock moved backwards (tests) counts as expired too.
    if (now < entry.at || now - entry.at >= this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V, now: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, at: now });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }

  deleteWhere(matches: (key: string) => boolean): void {
    for (const key of this.entries.keys()) if (matches(key)) this.entries.delete(key);
  }
}

/** An organization's endpoints as read at one revision of them (endpointsRevision). */
export interface EndpointList {
  revision: number;
  items: EndpointItem[];
}

interface Caches {
  /** Counts forgets: a read that began before one is not kept (it may predate the write). */
  epoch: number;
  endpoints: TtlCache<EndpointItem>;
  lists: TtlCache<EndpointList>;
  secrets: TtlCache<OpenedSecret[]>;
}

// Per scope (the endpoint repository's endpointScope): each composition (a Lambda container, a test's
// deps) has its own.
const byScope = new WeakMap<object, Caches>();

function caches(scope: object): Caches {
  let found = byScope.get(scope);
  if (!found) {
    found = {
      epoch: 0,
      endpoints: new TtlCache(ENDPOINT_CACHE_TTL_MS),
      lists: new TtlCache(ENDPOINT_CACHE_TTL_MS),
      secrets: new TtlCache(SECRET_CACHE_TTL_MS),
    };
    byScope.set(scope, found);
  }
  return found;
}

const secretsKey = (endpointId: string, secretVersion: number) => `${endpointId}#${secretVersion}`;

/** Forget everything kept about an endpoint: called by every write to it in this process. */
export function forgetEndpoint(scope: object, organizationId: string, endpointId: string): void {
  const found = caches(scope);
  const { endpoints, lists, secrets } = found;
  found.epoch++;
  lists.deleteWhere((key) => key === organizationId);
  endpoints.deleteWhere((key) => key === endpointId);
  secrets.deleteWhere((key) => key.startsWith(`${endpointId}#`));
}

/** Taken before a read whose result is then kept: the keep is skipped when a forget came between. */
export const cacheEpoch = (scope: object): number => caches(scope).epoch;

export const cachedEndpoint = (scope: object, endpointId: string, now: number): EndpointItem | undefined =>
  caches(scope).endpoints.get(endpointId, now);

export function cacheEndpoint(scope: object, item: EndpointItem, now: number, epoch: number): void {
  const found = caches(scope);
  if (found.epoch === epoch) found.endpoints.set(item.id, item, now);
}

/** An organization's endpoints as fan-out matches them (a new endpoint in this process forgets it). */
export const cachedEndpointList = (
  scope: object,
  organizationId: string,
  now: number,
): EndpointList | undefined => caches(scope).lists.get(organizationId, now);

export function cacheEndpointList(
  scope: object,
  organizationId: string,
  list: EndpointList,
  now: number,
  epoch: number,
): void {
  const found = caches(scope);
  if (found.epoch === epoch) found.lists.set(organizationId, list, now);
}

export const cachedSecrets = (
  scope: object,
  endpoint: Pick<EndpointItem, 'id' | 'secretVersion'>,
  now: number,
): OpenedSecret[] | undefined =>
  caches(scope).secrets.get(secretsKey(endpoint.id, endpoint.secretVersion), now);

/** Keyed by secret version, which no write ever reuses: no epoch needed. */
export const cacheSecrets = (
  scope: object,
  endpoint: Pick<EndpointItem, 'id' | 'secretVersion'>,
  secrets: OpenedSecret[],
  now: number,
): void => caches(scope).secrets.set(secretsKey(endpoint.id, endpoint.secretVersion), secrets, now);
