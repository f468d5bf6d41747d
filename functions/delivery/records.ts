// Delivery records over the webhooks table. One partition per delivery holds the delivery and its
// attempts (one read serves GET /deliveries/{id}); gsi1 lists an endpoint's deliveries newest first.
// A delivery id is derived from event id + endpoint id, so a redelivered event maps to the same record.
import { createHash } from 'node:crypto';
import { isoTime } from '../platform/clock';
import type { Item, Table } from '../platform/ports';
import type { PublishedEvent } from '../events/publish';
import type { DeliveryStatus, FailureReason } from './retry-policy';
import type { AttemptOutcome, DeliveryEvent } from './send';
import { shownErrorMessage } from './addresses';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** `dlv_` + 20 base32 characters of SHA-256(event id, endpoint id): deterministic, same shape as newId. */
export function deliveryId(eventId: string, endpointId: string): string {
  const digest = createHash('sha256').update(`${eventId}\n${endpointId}`).digest();
  let out = 'dlv_';
  for (let i = 0; i < 20; i++) out += ALPHABET[digest[i]! & 31];
  return out;
}

/**
 * Delivery history is kept 30 days after a delivery's last cycle began (TTL on expiresAt): long past
 * the 3.5-day retry schedule, and the window `recover` can reach back into.
 */
export const DELIVERY_RETENTION_DAYS = 30;
export const retentionExpiry = (now: number): number =>
  Math.ceil(now / 1000) + DELIVERY_RETENTION_DAYS * 24 * 60 * 60;

export const deliveryKey = (id: string) => ({ pk: `DLV#${id}`, sk: 'DELIVERY' });
export const attemptKey = (id: string, attempt: number) => ({
  pk: `DLV#${id}`,
  sk: `ATT#${String(attempt).padStart(5, '0')}`,
});
export const endpointDeliveries = (endpointId: string) => `WEP#${endpointId}#DELIVERIES`;
export const healthKey = (endpointId: string) => ({ pk: `WEP#${endpointId}`, sk: 'HEALTH' });

export interface DeliveryItem extends Item {
  id: string;
  organizationId: string;
  endpointId: string;
  event: DeliveryEvent;
  status: DeliveryStatus;
  failureReason?: FailureReason;
  /** Attempts made, all cycles; the next attempt's number is attemptCount + 1. */
  attemptCount: number;
  /** A replay starts a new cycle: its schedule starts again at attempt cycleStart. */
  cycle: number;
  cycleStart: number;
  nextAttemptAt?: string;
  /** The attempt whose queue message was sent (a redelivered message re-sends it when it is missing). */
  scheduledAttempt?: number;
  lastAttemptAt?: string;
  lastStatusCode?: number;
  lastError?: string;
  deliveredAt?: string;
  createdAt: string;
  updatedAt: string;
}

export interface AttemptItem extends Item {
  deliveryId: string;
  attempt: number;
  cycle: number;
  attemptedAt: string;
  outcome: AttemptOutcome['kind'];
  statusCode?: number;
  errorKind?: string;
  errorMessage?: string;
  latencyMs: number;
  responseBody: string;
}

export function newDelivery(
  event: PublishedEvent,
  endpointId: string,
  status: 'pending' | 'skipped_disabled',
  now: number,
): DeliveryItem {
  const id = deliveryId(event.id, endpointId);
  const createdAt = isoTime(now);
  return {
    ...deliveryKey(id),
    gsi1pk: endpointDeliveries(endpointId),
    gsi1sk: `${createdAt}#${id}`,
    id,
    organizationId: event.organizationId,
    endpointId,
    event: { id: event.id, type: event.type, occurred_at: event.occurred_at, data: event.data },
    status,
    attemptCount: 0,
    cycle: 0,
    cycleStart: 1,
    ...(status === 'pending' ? { scheduledAttempt: 1 } : {}),
    createdAt,
    updatedAt: createdAt,
    expiresAt: retentionExpiry(now),
  };
}

/** The one delivery, or undefined when it does not exist or belongs to another organization. */
export async function loadDelivery(
  table: Table,
  organizationId: string,
  id: string,
): Promise<DeliveryItem | undefined> {
  const item = await table.get<DeliveryItem>(deliveryKey(id));
  return item && item.organizationId === organizationId ? item : undefined;
}

export interface DeliveryView {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  failureReason: FailureReason | null;
  attemptCount: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
  updatedAt: string;
  event: DeliveryEvent;
}

export interface AttemptView {
  attempt: number;
  attemptedAt: string;
  outcome: AttemptOutcome['kind'];
  statusCode: number | null;
  errorKind: string | null;
  errorMessage: string | null;
  latencyMs: number;
  responseBody: string;
}

export function deliveryView(item: DeliveryItem): DeliveryView {
  const retrying = item.status === 'retrying' || item.status === 'pending';
  return {
    id: item.id,
    endpointId: item.endpointId,
    eventId: item.event.id,
    eventType: item.event.type,
    status: item.status,
    failureReason: item.status === 'failed' ? (item.failureReason ?? null) : null,
    attemptCount: item.attemptCount,
    nextAttemptAt: retrying ? (item.nextAttemptAt ?? null) : null,
    lastAttemptAt: item.lastAttemptAt ?? null,
    lastStatusCode: item.lastStatusCode ?? null,
    lastError: shownLastError(item.lastError),
    deliveredAt: item.deliveredAt ?? null,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    event: item.event,
  };
}

/** `kind: message` as stored; a refused address's message is replaced (see shownErrorMessage). */
function shownLastError(lastError: string | undefined): string | null {
  if (lastError === undefined) return null;
  const kind = lastError.split(':', 1)[0];
  return kind === 'blocked_address' ? `${kind}: ${shownErrorMessage(kind, undefined)}` : lastError;
}

export function attemptView(item: AttemptItem): AttemptView {
  return {
    attempt: item.attempt,
    attemptedAt: item.attemptedAt,
    outcome: item.outcome,
    statusCode: item.statusCode ?? null,
    errorKind: item.errorKind ?? null,
    errorMessage: shownErrorMessage(item.errorKind, item.errorMessage),
    latencyMs: item.latencyMs,
    responseBody: item.responseBody,
  };
}
