// Deliveries and their attempts as records (how they are keyed and indexed is the delivery
// repository's, infra/repositories/deliveries.ts). A delivery id is derived from event id + endpoint
// id, so a redelivered event maps to the same record.
import { createHash } from 'node:crypto';
import type { ReceiverEvent, WebhookEvent } from '../../events';
import { receiverBody } from '../../events';
import type { DeliveryStatus, FailureReason } from './retry-policy';
import type { AttemptOutcome, ErrorKind } from './attempt';
import type { CreatedFields } from './messages';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** `dlv_` + 20 base32 characters of SHA-256(event id, endpoint id): deterministic, same shape as newId. */
export function deliveryId(eventId: string, endpointId: string): string {
  const digest = createHash('sha256').update(`${eventId}\n${endpointId}`).digest();
  let out = 'dlv_';
  for (let i = 0; i < 20; i++) out += ALPHABET[digest[i]! & 31];
  return out;
}

/**
 * Delivery history is kept 30 days after a delivery's last cycle began (TTL on ttl, epoch seconds): long past
 * the 3.5-day retry schedule, and the window `recover` can reach back into.
 */
export const DELIVERY_RETENTION_DAYS = 30;
export const retentionExpiry = (now: number): number =>
  Math.ceil(now / 1000) + DELIVERY_RETENTION_DAYS * 24 * 60 * 60;

export interface DeliveryItem {
  id: string;
  organizationId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  /** The event's occurred_at, epoch ms like every stored instant (ISO only in views and the body). */
  occurredAt: number;
  /** The receiver body (receiverBody), stored as the exact bytes every attempt signs and sends. */
  body: string;
  status: DeliveryStatus;
  failureReason?: FailureReason;
  /** Attempts made, all cycles; the next attempt's number is attemptCount + 1. */
  attemptCount: number;
  /** A replay starts a new cycle: its schedule starts again at attempt cycleStart. */
  cycle: number;
  cycleStart: number;
  nextAttemptAt?: number;
  /** The attempt whose queue message was sent (a redelivered message re-sends it when it is missing). */
  scheduledAttempt?: number;
  lastAttemptAt?: number;
  /** How long the last attempt took (its receiver's latency, for the console's chart). */
  lastLatencyMs?: number;
  lastStatusCode?: number;
  lastError?: string;
  deliveredAt?: number;
  /** Marked failed (dead_lettered) on its message's last receive: the status to restore if that receive ends well. */
  strandedFrom?: 'pending' | 'retrying';
  /**
   * The latest attempt's record, written by the same update that records the attempt on the delivery,
   * less what the delivery itself says of it; the next attempt moves it to a record of its own first
   * (infra/repositories/deliveries.ts keeps it and reads it back whole).
   */
  lastAttempt?: KeptAttempt;
  /** The recover job that last replayed it: a re-run of the job's page counts it, replays it not again. */
  recoveredBy?: string;
  createdAt: number;
  updatedAt: number;
  /** Epoch seconds the record expires (retentionExpiry). */
  ttl: number;
}

/** One attempt as recorded (its delivery's history). */
export interface AttemptRecord {
  deliveryId: string;
  attempt: number;
  cycle: number;
  attemptedAt: number;
  outcome: AttemptOutcome['kind'];
  statusCode?: number;
  errorKind?: ErrorKind;
  errorMessage?: string;
  latencyMs: number;
  responseBody: string;
  requestHeaders?: Record<string, string>;
  responseHeaders?: Record<string, string>;
  ttl: number;
}

/**
 * An attempt's record as its delivery keeps it (`lastAttempt`): any of the fields named here left out is
 * the delivery's own (infra/repositories/deliveries.ts). Records written whole keep them all.
 */
export type KeptAttempt = Omit<
  AttemptRecord,
  'deliveryId' | 'attempt' | 'attemptedAt' | 'latencyMs' | 'statusCode' | 'ttl'
> &
  Partial<AttemptRecord>;

/** `body` is receiverBody(event), serialised once per event by the caller and shared by its deliveries. */
export function newDelivery(
  event: WebhookEvent,
  body: string,
  endpointId: string,
  status: 'pending' | 'skipped_disabled',
  now: number,
): DeliveryItem {
  return asCreated(
    {
      organizationId: event.organizationId,
      endpointId,
      eventId: event.id,
      eventType: event.type,
      occurredAt: Date.parse(event.occurred_at),
      body,
      createdAt: now,
    },
    status,
  );
}

/** A new delivery: everything but these fields follows from its being new. */
function asCreated(fields: CreatedFields, status: 'pending' | 'skipped_disabled'): DeliveryItem {
  return {
    id: deliveryId(fields.eventId, fields.endpointId),
    organizationId: fields.organizationId,
    endpointId: fields.endpointId,
    eventId: fields.eventId,
    eventType: fields.eventType,
    occurredAt: fields.occurredAt,
    body: fields.body,
    status,
    attemptCount: 0,
    cycle: 0,
    cycleStart: 1,
    ...(status === 'pending' ? { scheduledAttempt: 1 } : {}),
    createdAt: fields.createdAt,
    updatedAt: fields.createdAt,
    ttl: retentionExpiry(fields.createdAt),
  };
}

/**
 * The largest body a first attempt's message carries with its delivery: ten such messages (an SQS
 * batch) stay well inside SQS's 256 KiB per request. A larger one is read from the table.
 */
export const CARRIED_BODY_MAX_BYTES = 16 * 1024;

/** What a new pending delivery's first message carries so that its first receive needs no read. */
export function createdFields(delivery: DeliveryItem): CreatedFields | undefined {
  if (delivery.status !== 'pending' || delivery.attemptCount !== 0 || delivery.cycle !== 0) return undefined;
  if (Buffer.byteLength(delivery.body, 'utf8') > CARRIED_BODY_MAX_BYTES) return undefined;
  const { organizationId, endpointId, eventId, eventType, occurredAt, body, createdAt } = delivery;
  return { organizationId, endpointId, eventId, eventType, occurredAt, body, createdAt };
}

/**
 * The delivery as fan-out created it, from its first message; undefined when the message does not
 * carry it or names another delivery than the fields make.
 */
export function carriedDelivery(id: string, created: CreatedFields | undefined): DeliveryItem | undefined {
  if (!created) return undefined;
  const delivery = asCreated(created, 'pending');
  return delivery.id === id ? delivery : undefined;
}

/**
 * A delivery as this code reads it. Records written before the body was stored once held the event as
 * a map (`event`); they are read as if written now (same bytes as that code sent), until they expire.
 */
export function current(item: DeliveryItem): DeliveryItem {
  if (typeof item.body === 'string') return item;
  const legacy = (item as { event?: ReceiverEvent }).event;
  if (!legacy) return item;
  return {
    ...item,
    eventId: legacy.id,
    eventType: legacy.type,
    occurredAt: Date.parse(legacy.occurred_at),
    body: receiverBody(legacy),
  };
}
