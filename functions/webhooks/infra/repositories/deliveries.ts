// The delivery repository: the only code that knows how deliveries and their attempts are keyed in
// the webhooks table. One partition per delivery holds the delivery (with its latest attempt) and its
// earlier attempts (one read serves GET /deliveries/{id}); gsi1 lists an endpoint's deliveries newest
// first. A step's guard
// (domain/delivery-step.ts) becomes the write's condition here.
import { isoTime } from '../../../platform/clock';
import { ConditionFailedError, won } from '../../../platform/errors';
import type { Pagination, Window } from '../../../platform/pagination';
import { queryAll, queryWindow } from '../../../platform/pagination';
import type { Condition, Deps, Item } from '../../../platform/ports';
import type { Change, Guard } from '../../domain/delivery-step';
import type { AttemptRecord, DeliveryItem, KeptAttempt } from '../../domain/records';
import { current, retentionExpiry } from '../../domain/records';

type TableDeps = Pick<Deps, 'tables'>;

export const deliveryKey = (id: string) => ({ pk: `DLV#${id}`, sk: 'DELIVERY' });
export const attemptKey = (id: string, attempt: number) => ({
  pk: `DLV#${id}`,
  sk: `ATT#${String(attempt).padStart(5, '0')}`,
});
const endpointDeliveries = (endpointId: string) => `WEP#${endpointId}#DELIVERIES`;

/**
 * The delivery as stored: its keys and its place in the endpoint's list. Object.assign, not a spread
 * followed by more properties: on Node 20's V8 that form takes a slow path (6 us for a delivery, more
 * than the rest of its write).
 */
export const deliveryItem = (delivery: DeliveryItem): Item =>
  Object.assign({} as Item, delivery, deliveryKey(delivery.id), {
    gsi1pk: endpointDeliveries(delivery.endpointId),
    gsi1sk: `${isoTime(delivery.createdAt)}#${delivery.id}`,
  });

const guardCondition = (over: Guard): Condition => ({
  and: Object.entries(over).map(([attr, value]) => ({ attr, op: '=', value: value as string | number })),
});

/** The delivery as this code reads it (legacy records converted), or undefined. */
export async function getDelivery(deps: TableDeps, id: string): Promise<DeliveryItem | undefined> {
  const item = await deps.tables.webhooks.get<Item>(deliveryKey(id));
  return item && current(item as unknown as DeliveryItem);
}

/** The one delivery, or undefined when it does not exist or belongs to another organization. */
export async function findDelivery(
  deps: TableDeps,
  organizationId: string,
  id: string,
): Promise<DeliveryItem | undefined> {
  const delivery = await getDelivery(deps, id);
  return delivery?.organizationId === organizationId ? delivery : undefined;
}

/** Writes a new delivery; false when it exists already (a redelivered event). */
export function createDelivery(deps: TableDeps, delivery: DeliveryItem): Promise<boolean> {
  return won(deps.tables.webhooks.put(deliveryItem(delivery), { itemExists: false }));
}

/**
 * Applies a step's change over its guard: the delivery as it is afterwards, or undefined when the
 * guard no longer held (another message made this step first).
 */
export async function applyChange(
  deps: TableDeps,
  id: string,
  change: Change,
): Promise<DeliveryItem | undefined> {
  try {
    const updated = await deps.tables.webhooks.update<Item>(
      deliveryKey(id),
      { set: change.set, ...(change.remove.length ? { remove: change.remove } : {}) },
      guardCondition(change.over),
    );
    return current(updated as unknown as DeliveryItem);
  } catch (error) {
    if (error instanceof ConditionFailedError) return undefined;
    throw error;
  }
}

/** Keyed by attempt number: a duplicate message writing it too writes the same record. */
function putAttempt(deps: TableDeps, record: AttemptRecord): Promise<void> {
  return deps.tables.webhooks.put(
    Object.assign({} as Item, record, attemptKey(record.deliveryId, record.attempt)),
  );
}

/** Request headers every attempt of a delivery sends alike, as its delivery says them. */
const sentAlike = (delivery: Pick<DeliveryItem, 'eventId' | 'body'>): Record<string, string> => ({
  'content-type': 'application/json',
  'content-length': String(Buffer.byteLength(delivery.body)),
  'webhook-id': delivery.eventId,
});

/**
 * The attempt as its delivery keeps it: a field the delivery says as well after the change (its id; the
 * attempt's number, start, latency and status are attemptCount, lastAttemptAt, lastLatencyMs and
 * lastStatusCode, which only an attempt changes; the expiry follows from the start) and a request
 * header that follows from the delivery (sentAlike) are left out, each only when equal, so that
 * `latestAttempt` reads back exactly the record. About 180 bytes less on every delivery: the update of
 * a delivery with a small event's first attempt stays within one write unit (1 KB), for the table and
 * for the index copy alike.
 */
function keptAttempt(delivery: DeliveryItem, set: Change['set'], record: AttemptRecord): KeptAttempt {
  const { deliveryId, attempt, attemptedAt, latencyMs, statusCode, ttl, requestHeaders, ...kept } = record;
  const out: KeptAttempt = kept;
  if (deliveryId !== delivery.id) out.deliveryId = deliveryId;
  if (attempt !== set.attemptCount) out.attempt = attempt;
  if (attemptedAt !== set.lastAttemptAt) out.attemptedAt = attemptedAt;
  if (latencyMs !== set.lastLatencyMs) out.latencyMs = latencyMs;
  if (statusCode !== set.lastStatusCode) out.statusCode = statusCode;
  if (ttl !== retentionExpiry(attemptedAt)) out.ttl = ttl;
  if (requestHeaders) {
    const alike = sentAlike(delivery);
    const headers: Record<string, string> = {};
    for (const name in requestHeaders)
      if (requestHeaders[name] !== alike[name]) headers[name] = requestHeaders[name]!;
    out.requestHeaders = headers;
  }
  return out;
}

/** The delivery's latest attempt, whole (as `keptAttempt` kept it, the delivery's own fields put back). */
function latestAttempt(delivery: DeliveryItem): AttemptRecord | undefined {
  const kept = delivery.lastAttempt;
  if (!kept) return undefined;
  const attemptedAt = kept.attemptedAt ?? delivery.lastAttemptAt!;
  return {
    deliveryId: delivery.id,
    attempt: delivery.attemptCount,
    attemptedAt,
    latencyMs: delivery.lastLatencyMs!,
    ...(delivery.lastStatusCode !== undefined ? { statusCode: delivery.lastStatusCode } : {}),
    ttl: retentionExpiry(attemptedAt),
    ...kept,
    ...(kept.requestHeaders ? { requestHeaders: { ...sentAlike(delivery), ...kept.requestHeaders } } : {}),
  };
}

/**
 * Records an attempt with its step's change in one write: the record goes on the delivery itself
 * (`lastAttempt`), so a delivery that succeeds at its first attempt costs no write of its own for it.
 * The record it replaces, the previous attempt's, is first put as a record of its own (keyed by its
 * attempt number: a duplicate message or a retry after a crash writes the same). The change's guard
 * (attemptCount one less than this attempt, in its cycle) means the delivery still holds the
 * `lastAttempt` it was read with, so no attempt is overwritten before it has its own record. The
 * delivery afterwards, or undefined when another message recorded this attempt first.
 */
export async function recordAttempt(
  deps: TableDeps,
  delivery: DeliveryItem,
  change: Change,
  record: AttemptRecord,
): Promise<DeliveryItem | undefined> {
  const previous = latestAttempt(delivery);
  if (previous) await putAttempt(deps, previous);
  return applyChange(deps, delivery.id, {
    ...change,
    set: { ...change.set, lastAttempt: keptAttempt(delivery, change.set, record) },
  });
}

/** The delivery and its attempts in one read, as they now are (read right after a replay or an attempt). */
export async function deliveryWithAttempts(
  deps: TableDeps,
  id: string,
): Promise<{ delivery?: DeliveryItem; attempts: AttemptRecord[] }> {
  const items = await queryAll(deps.tables.webhooks, { partition: deliveryKey(id).pk, consistent: true });
  const stored = items.find((i) => i.sk === 'DELIVERY') as unknown as DeliveryItem | undefined;
  const delivery = stored && current(stored);
  const attempts = items.filter((i) => i.sk.startsWith('ATT#')) as unknown as AttemptRecord[];
  // The latest attempt is on the delivery; its own record exists too once a later attempt moved it.
  const last = delivery && latestAttempt(delivery);
  if (last && !attempts.some((a) => a.attempt === last.attempt)) attempts.push(last);
  return { delivery, attempts };
}

/** An endpoint's deliveries newest first, a window of them, keeping those `keep` accepts. */
export async function endpointDeliveryWindow(
  deps: TableDeps,
  endpointId: string,
  page: Pagination,
  keep: (delivery: DeliveryItem) => boolean,
): Promise<Window<DeliveryItem>> {
  const window = await queryWindow<Item>(
    deps.tables.webhooks,
    { index: 'gsi1', partition: endpointDeliveries(endpointId), descending: true },
    page,
    (item) => keep(item as unknown as DeliveryItem),
  );
  return {
    items: window.items.map((item) => current(item as unknown as DeliveryItem)),
    hasMore: window.hasMore,
    ...(window.next ? { next: window.next } : {}),
  };
}

/** One page of an endpoint's deliveries newest first, from `cursor` (a recover job's walk). */
export async function endpointDeliveryPage(
  deps: TableDeps,
  endpointId: string,
  limit: number,
  cursor: string | undefined,
): Promise<{ items: DeliveryItem[]; cursor?: string }> {
  const page = await deps.tables.webhooks.query<Item>({
    index: 'gsi1',
    partition: endpointDeliveries(endpointId),
    descending: true,
    limit,
    cursor,
  });
  return { items: page.items as unknown as DeliveryItem[], ...(page.cursor ? { cursor: page.cursor } : {}) };
}
