// The webhook resources as the API answers them: zod schemas the use cases' view types are inferred
// from, the route entries name as their responses, and the OpenAPI document shows (each `id` is its
// name under components.schemas). Never a signing secret outside EndpointWithSecret, never the
// endpoint's stored permissions.
import * as z from 'zod';
import type { ReceiverEvent } from '../../events';
import { publishedEventTypeView, receiverEventView } from '../../events';
import { isoTime, isoTimeSchema } from '../../platform/clock';
import { idSchema } from '../../platform/ids';
import { camelCasePage } from '../../platform/pagination';
import { ATTEMPT_OUTCOMES, ERROR_KINDS } from '../domain/attempt';
import { shownErrorMessage } from '../domain/addresses';
import type { AttemptRecord, DeliveryItem } from '../domain/records';
import { current } from '../domain/records';
import { DELIVERY_STATUSES, FAILURE_REASONS } from '../domain/retry-policy';

const endpointId = idSchema('we', 'a webhook endpoint');
const jobId = idSchema('job', 'a job');
const nullableTime = isoTimeSchema.nullable();

export const webhookEndpointView = z
  .object({
    id: endpointId,
    url: z.string().describe('The receiver, in its normalised (WHATWG) form'),
    description: z.string().nullable(),
    eventTypeFilters: z.array(z.string()),
    resourceScopes: z
      .object({ vaultIds: z.array(z.string()).optional(), matterIds: z.array(z.string()).optional() })
      .nullable(),
    enabled: z.boolean(),
    disabledAt: nullableTime,
    disabledReason: z.string().nullable().describe('Why it was disabled (automatically or on request)'),
    createdAt: isoTimeSchema,
    updatedAt: isoTimeSchema,
    previousSecretExpiresAt: nullableTime.describe(
      'When the secret replaced by the last rotation stops signing; null outside a rotation window',
    ),
    failingSince: nullableTime
      .optional()
      .describe(
        'Reads (get, list): when the current streak of failed attempts began (no success since); null while healthy',
      ),
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof webhookEndpointView>;

/** Create and rotate-secret: the one time the signing secret is shown. */
export const endpointWithSecretView = z
  .object({
    endpoint: webhookEndpointView,
    signingSecret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/)
      .describe('whsec_ and the base64 secret (Standard Webhooks); shown only in this answer'),
  })
  .meta({ id: 'WebhookEndpointWithSecret' });
export type EndpointWithSecret = z.infer<typeof endpointWithSecretView>;

export const endpointListView = camelCasePage(webhookEndpointView).meta({ id: 'WebhookEndpointList' });

const attemptResult = {
  outcome: z.enum(ATTEMPT_OUTCOMES),
  statusCode: z.int().nullable().describe("The receiver's HTTP status, when it answered"),
  errorKind: z.enum(ERROR_KINDS).nullable(),
  errorMessage: z.string().nullable(),
  latencyMs: z.int().min(0),
  responseBody: z.string().describe("The first 16 KiB of the receiver's answer"),
};

const headerMap = z.record(z.string(), z.string());

export const attemptView = z
  .object({
    attempt: z.int().min(1),
    attemptedAt: isoTimeSchema,
    ...attemptResult,
    requestHeaders: headerMap
      .optional()
      .describe('The headers sent; each webhook-signature cut to its version prefix (v1,…)'),
    responseHeaders: headerMap
      .optional()
      .describe("The receiver's response headers (the first 50, values cut at 500 characters)"),
  })
  .meta({ id: 'DeliveryAttempt' });
export type AttemptView = z.infer<typeof attemptView>;

export const deliveryView = z
  .object({
    id: idSchema('dlv', 'a delivery'),
    endpointId,
    eventId: idSchema('evt', 'an event'),
    eventType: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    failureReason: z.enum(FAILURE_REASONS).nullable(),
    attemptCount: z.int().min(0),
    nextAttemptAt: nullableTime,
    lastAttemptAt: nullableTime,
    lastStatusCode: z.int().nullable(),
    lastLatencyMs: z
      .int()
      .min(0)
      .optional()
      .describe('How long the last attempt took, in ms (absent before the first attempt)'),
    lastError: z.string().nullable(),
    deliveredAt: nullableTime,
    createdAt: isoTimeSchema,
    updatedAt: isoTimeSchema,
    event: receiverEventView.describe('The event as the receiver was sent it'),
  })
  .meta({ id: 'Delivery' });
export type DeliveryView = z.infer<typeof deliveryView>;

export const deliveryWithAttemptsView = deliveryView
  .extend({ attempts: z.array(attemptView) })
  .meta({ id: 'DeliveryWithAttempts' });
export type DeliveryWithAttempts = z.infer<typeof deliveryWithAttemptsView>;

export const deliveryListView = camelCasePage(deliveryView).meta({ id: 'DeliveryList' });

export const testDeliveryView = z
  .object({
    eventId: idSchema('evt', 'an event'),
    delivered: z.boolean(),
    ...attemptResult,
  })
  .meta({ id: 'TestDelivery' });
export type TestDelivery = z.infer<typeof testDeliveryView>;

export const webhookJobView = z
  .object({
    id: jobId,
    type: z.literal('webhooks.endpoint.recover'),
    status: z.enum(['processing', 'succeeded', 'failed']),
    endpointId,
    since: isoTimeSchema,
    until: isoTimeSchema,
    counts: z.object({
      matched: z.int().min(0),
      replayed: z.int().min(0),
      failed: z.int().min(0),
    }),
    error: z.string().nullable(),
    createdAt: isoTimeSchema,
    updatedAt: isoTimeSchema,
  })
  .meta({ id: 'WebhookJob' });
export type WebhookJob = z.infer<typeof webhookJobView>;

export const deadLetterView = z
  .object({
    id: z.string().describe('The queue message id'),
    queue: z.enum(['events', 'deliveries']),
    kind: z.enum(['event', 'attempt', 'recover']),
    eventId: z.string().nullable(),
    eventType: z.string().nullable(),
    deliveryId: z.string().nullable(),
    endpointId: z.string().nullable(),
    jobId: z.string().nullable(),
    receiveCount: z.int().min(0),
    deadAt: isoTimeSchema,
  })
  .meta({ id: 'DeadLetter' });
export type DeadLetterView = z.infer<typeof deadLetterView>;

export const deadLetterListView = z.object({ data: z.array(deadLetterView) }).meta({ id: 'DeadLetterList' });

export const eventTypeListView = camelCasePage(publishedEventTypeView).meta({ id: 'EventTypeList' });

// Delivery and attempt records as the API shows them.

export function toDeliveryView(stored: DeliveryItem): DeliveryView {
  const item = current(stored);
  const retrying = item.status === 'retrying' || item.status === 'pending';
  return {
    id: item.id,
    endpointId: item.endpointId,
    eventId: item.eventId,
    eventType: item.eventType,
    status: item.status,
    failureReason: item.status === 'failed' ? (item.failureReason ?? null) : null,
    attemptCount: item.attemptCount,
    nextAttemptAt: retrying ? isoOrNull(item.nextAttemptAt) : null,
    lastAttemptAt: isoOrNull(item.lastAttemptAt),
    lastStatusCode: item.lastStatusCode ?? null,
    ...(item.lastLatencyMs !== undefined ? { lastLatencyMs: item.lastLatencyMs } : {}),
    lastError: shownLastError(item.lastError),
    deliveredAt: isoOrNull(item.deliveredAt),
    createdAt: isoTime(item.createdAt),
    updatedAt: isoTime(item.updatedAt),
    event: JSON.parse(item.body) as ReceiverEvent, // the API shows what the receiver was sent
  };
}

const isoOrNull = (at: number | undefined): string | null => (at === undefined ? null : isoTime(at));

/** `kind: message` as stored; a refused address's message is replaced (see shownErrorMessage). */
function shownLastError(lastError: string | undefined): string | null {
  if (lastError === undefined) return null;
  const kind = lastError.split(':', 1)[0];
  return kind === 'blocked_address' ? `${kind}: ${shownErrorMessage(kind, undefined)}` : lastError;
}

export function toAttemptView(item: AttemptRecord): AttemptView {
  return {
    attempt: item.attempt,
    attemptedAt: isoTime(item.attemptedAt),
    outcome: item.outcome,
    statusCode: item.statusCode ?? null,
    errorKind: item.errorKind ?? null,
    errorMessage: shownErrorMessage(item.errorKind, item.errorMessage),
    latencyMs: item.latencyMs,
    responseBody: item.responseBody,
    // Attempts recorded before the headers were kept have none.
    ...(item.requestHeaders ? { requestHeaders: item.requestHeaders } : {}),
    ...(item.responseHeaders ? { responseHeaders: item.responseHeaders } : {}),
  };
}
