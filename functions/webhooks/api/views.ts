// The webhook resources as the API answers them: zod schemas the use cases' view types are inferred
// from, the route entries name as their responses, and the OpenAPI document shows (each `id` is its
// name under components.schemas). Never a signing secret outside EndpointWithSecret, never the
// endpoint's stored permissions. Each schema is built on first use (platform/lazy.ts): a route's
// Lambda never reads its response schemas, only their types.
import * as z from 'zod/mini';
import type { ReceiverEvent } from '../../events';
import { publishedEventTypeView, receiverEventView } from '../../events';
import { isoTime, isoTimeSchema } from '../../platform/clock';
import { lazy } from '../../platform/lazy';
import { idSchema } from '../../platform/ids';
import { camelCaseCursorPage, camelCasePage } from '../../platform/pagination';
import { ATTEMPT_OUTCOMES, ERROR_KINDS } from '../domain/attempt';
import { shownErrorMessage } from '../../platform/addresses';
import type { AttemptRecord, DeliveryItem } from '../domain/records';
import { current } from '../domain/records';
import { DELIVERY_STATUSES, FAILURE_REASONS } from '../domain/retry-policy';

const endpointId = lazy(() => idSchema('we', 'a webhook endpoint'));
const jobId = lazy(() => idSchema('job', 'a job'));
const nullableTime = lazy(() => z.nullable(isoTimeSchema()));

export const webhookEndpointView = lazy(() =>
  z
    .object({
      id: endpointId(),
      url: z.string().check(z.describe('The receiver, in its normalised (WHATWG) form')),
      description: z.nullable(z.string()),
      eventTypeFilters: z.array(z.string()),
      resourceScopes: z.nullable(
        z.object({ vaultIds: z.optional(z.array(z.string())), matterIds: z.optional(z.array(z.string())) }),
      ),
      enabled: z.boolean(),
      disabledAt: nullableTime(),
      disabledReason: z
        .nullable(z.string())
        .check(z.describe('Why it was disabled (automatically or on request)')),
      createdAt: isoTimeSchema(),
      updatedAt: isoTimeSchema(),
      previousSecretExpiresAt: nullableTime().check(
        z.describe(
          'When the secret replaced by the last rotation stops signing; null outside a rotation window',
        ),
      ),
      failingSince: z
        .optional(nullableTime())
        .check(
          z.describe(
            'Reads (get, list): when the current streak of failed attempts began (no success since); null while healthy',
          ),
        ),
    })
    .clone()
    .register(z.globalRegistry, { id: 'WebhookEndpoint' }),
);
export type WebhookEndpoint = z.infer<ReturnType<typeof webhookEndpointView>>;

/** Create and rotate-secret: the one time the signing secret is shown. */
export const endpointWithSecretView = lazy(() =>
  z
    .object({
      endpoint: webhookEndpointView(),
      signingSecret: z
        .string()
        .check(z.regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/))
        .check(z.describe('whsec_ and the base64 secret (Standard Webhooks); shown only in this answer')),
    })
    .clone()
    .register(z.globalRegistry, { id: 'WebhookEndpointWithSecret' }),
);
export type EndpointWithSecret = z.infer<ReturnType<typeof endpointWithSecretView>>;

export const endpointListView = lazy(() =>
  camelCasePage(webhookEndpointView()).clone().register(z.globalRegistry, { id: 'WebhookEndpointList' }),
);

const attemptResult = lazy(() => ({
  outcome: z.enum(ATTEMPT_OUTCOMES),
  statusCode: z.nullable(z.int()).check(z.describe("The receiver's HTTP status, when it answered")),
  errorKind: z.nullable(z.enum(ERROR_KINDS)),
  errorMessage: z.nullable(z.string()),
  latencyMs: z.int().check(z.gte(0)),
  responseBody: z.string().check(z.describe("The first 16 KiB of the receiver's answer")),
}));

const headerMap = lazy(() => z.record(z.string(), z.string()));

export const attemptView = lazy(() =>
  z
    .object({
      attempt: z.int().check(z.gte(1)),
      attemptedAt: isoTimeSchema(),
      ...attemptResult(),
      requestHeaders: z
        .optional(headerMap())
        .check(z.describe('The headers sent; each webhook-signature cut to its version prefix (v1,…)')),
      responseHeaders: z
        .optional(headerMap())
        .check(z.describe("The receiver's response headers (the first 50, values cut at 500 characters)")),
    })
    .clone()
    .register(z.globalRegistry, { id: 'DeliveryAttempt' }),
);
export type AttemptView = z.infer<ReturnType<typeof attemptView>>;

export const deliveryView = lazy(() =>
  z
    .object({
      id: idSchema('dlv', 'a delivery'),
      endpointId: endpointId(),
      eventId: idSchema('evt', 'an event'),
      eventType: z.string(),
      status: z.enum(DELIVERY_STATUSES),
      failureReason: z.nullable(z.enum(FAILURE_REASONS)),
      attemptCount: z.int().check(z.gte(0)),
      nextAttemptAt: nullableTime(),
      lastAttemptAt: nullableTime(),
      lastStatusCode: z.nullable(z.int()),
      lastLatencyMs: z
        .optional(z.int().check(z.gte(0)))
        .check(z.describe('How long the last attempt took, in ms (absent before the first attempt)')),
      lastError: z.nullable(z.string()),
      deliveredAt: nullableTime(),
      createdAt: isoTimeSchema(),
      updatedAt: isoTimeSchema(),
      event: receiverEventView().check(z.describe('The event as the receiver was sent it')),
    })
    .clone()
    .register(z.globalRegistry, { id: 'Delivery' }),
);
export type DeliveryView = z.infer<ReturnType<typeof deliveryView>>;

export const deliveryWithAttemptsView = lazy(() =>
  z
    .extend(deliveryView(), { attempts: z.array(attemptView()) })
    .clone()
    .register(z.globalRegistry, { id: 'DeliveryWithAttempts' }),
);
export type DeliveryWithAttempts = z.infer<ReturnType<typeof deliveryWithAttemptsView>>;

export const deliveryListView = lazy(() =>
  camelCaseCursorPage(deliveryView()).clone().register(z.globalRegistry, { id: 'DeliveryList' }),
);

export const testDeliveryView = lazy(() =>
  z
    .object({
      eventId: idSchema('evt', 'an event'),
      delivered: z.boolean(),
      ...attemptResult(),
    })
    .clone()
    .register(z.globalRegistry, { id: 'TestDelivery' }),
);
export type TestDelivery = z.infer<ReturnType<typeof testDeliveryView>>;

export const webhookJobView = lazy(() =>
  z
    .object({
      id: jobId(),
      type: z.literal('webhooks.endpoint.recover'),
      status: z.enum(['processing', 'succeeded', 'failed']),
      endpointId: endpointId(),
      since: isoTimeSchema(),
      until: isoTimeSchema(),
      counts: z.object({
        matched: z.int().check(z.gte(0)),
        replayed: z.int().check(z.gte(0)),
        failed: z.int().check(z.gte(0)),
      }),
      error: z.nullable(z.string()),
      createdAt: isoTimeSchema(),
      updatedAt: isoTimeSchema(),
    })
    .clone()
    .register(z.globalRegistry, { id: 'WebhookJob' }),
);
export type WebhookJob = z.infer<ReturnType<typeof webhookJobView>>;

export const deadLetterView = lazy(() =>
  z
    .object({
      id: z.string().check(z.describe('The queue message id')),
      queue: z.enum(['events', 'deliveries']),
      kind: z.enum(['event', 'attempt', 'recover']),
      eventId: z.nullable(z.string()),
      eventType: z.nullable(z.string()),
      deliveryId: z.nullable(z.string()),
      endpointId: z.nullable(z.string()),
      jobId: z.nullable(z.string()),
      receiveCount: z.int().check(z.gte(0)),
      deadAt: isoTimeSchema(),
    })
    .clone()
    .register(z.globalRegistry, { id: 'DeadLetter' }),
);
export type DeadLetterView = z.infer<ReturnType<typeof deadLetterView>>;

export const deadLetterListView = lazy(() =>
  z
    .object({ data: z.array(deadLetterView()) })
    .clone()
    .register(z.globalRegistry, { id: 'DeadLetterList' }),
);

export const eventTypeListView = lazy(() =>
  camelCasePage(publishedEventTypeView()).clone().register(z.globalRegistry, { id: 'EventTypeList' }),
);

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
