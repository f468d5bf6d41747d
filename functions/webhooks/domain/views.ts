// The webhook resources as the API answers them: zod schemas the use cases' view types are inferred
// from, the route entries name as their responses, and the OpenAPI document shows (each `id` is its
// name under components.schemas). Never a signing secret outside EndpointWithSecret, never the
// endpoint's stored permissions.
import * as z from 'zod/mini';
import { publishedEventTypeView, receiverEventView } from '../../events';
import { isoTimeSchema } from '../../platform/clock';
import { idSchema } from '../../platform/ids';
import { camelCasePage } from '../../platform/pagination';
import { ATTEMPT_OUTCOMES, ERROR_KINDS } from './attempt';
import { DELIVERY_STATUSES, FAILURE_REASONS } from './retry-policy';

const endpointId = idSchema('we', 'a webhook endpoint');
const jobId = idSchema('job', 'a job');
const nullableTime = z.nullable(isoTimeSchema);

export const webhookEndpointView = z
  .object({
    id: endpointId,
    url: z.string().check(z.describe('The receiver, in its normalised (WHATWG) form')),
    description: z.nullable(z.string()),
    eventTypeFilters: z.array(z.string()),
    resourceScopes: z.nullable(
      z.object({ vaultIds: z.optional(z.array(z.string())), matterIds: z.optional(z.array(z.string())) }),
    ),
    enabled: z.boolean(),
    disabledAt: nullableTime,
    disabledReason: z
      .nullable(z.string())
      .check(z.describe('Why it was disabled (automatically or on request)')),
    createdAt: isoTimeSchema,
    updatedAt: isoTimeSchema,
    previousSecretExpiresAt: nullableTime.check(
      z.describe(
        'When the secret replaced by the last rotation stops signing; null outside a rotation window',
      ),
    ),
  })
  .clone()
  .register(z.globalRegistry, { id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof webhookEndpointView>;

/** Create and rotate-secret: the one time the signing secret is shown. */
export const endpointWithSecretView = z
  .object({
    endpoint: webhookEndpointView,
    signingSecret: z
      .string()
      .check(z.regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/))
      .check(z.describe('whsec_ and the base64 secret (Standard Webhooks); shown only in this answer')),
  })
  .clone()
  .register(z.globalRegistry, { id: 'WebhookEndpointWithSecret' });
export type EndpointWithSecret = z.infer<typeof endpointWithSecretView>;

export const endpointListView = camelCasePage(webhookEndpointView)
  .clone()
  .register(z.globalRegistry, { id: 'WebhookEndpointList' });

const attemptResult = {
  outcome: z.enum(ATTEMPT_OUTCOMES),
  statusCode: z.nullable(z.int()).check(z.describe("The receiver's HTTP status, when it answered")),
  errorKind: z.nullable(z.enum(ERROR_KINDS)),
  errorMessage: z.nullable(z.string()),
  latencyMs: z.int().check(z.gte(0)),
  responseBody: z.string().check(z.describe("The first 16 KiB of the receiver's answer")),
};

export const attemptView = z
  .object({ attempt: z.int().check(z.gte(1)), attemptedAt: isoTimeSchema, ...attemptResult })
  .clone()
  .register(z.globalRegistry, { id: 'DeliveryAttempt' });
export type AttemptView = z.infer<typeof attemptView>;

export const deliveryView = z
  .object({
    id: idSchema('dlv', 'a delivery'),
    endpointId,
    eventId: idSchema('evt', 'an event'),
    eventType: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    failureReason: z.nullable(z.enum(FAILURE_REASONS)),
    attemptCount: z.int().check(z.gte(0)),
    nextAttemptAt: nullableTime,
    lastAttemptAt: nullableTime,
    lastStatusCode: z.nullable(z.int()),
    lastError: z.nullable(z.string()),
    deliveredAt: nullableTime,
    createdAt: isoTimeSchema,
    updatedAt: isoTimeSchema,
    event: receiverEventView.check(z.describe('The event as the receiver was sent it')),
  })
  .clone()
  .register(z.globalRegistry, { id: 'Delivery' });
export type DeliveryView = z.infer<typeof deliveryView>;

export const deliveryWithAttemptsView = z
  .extend(deliveryView, { attempts: z.array(attemptView) })
  .clone()
  .register(z.globalRegistry, { id: 'DeliveryWithAttempts' });
export type DeliveryWithAttempts = z.infer<typeof deliveryWithAttemptsView>;

export const deliveryListView = camelCasePage(deliveryView)
  .clone()
  .register(z.globalRegistry, { id: 'DeliveryList' });

export const testDeliveryView = z
  .object({
    eventId: idSchema('evt', 'an event'),
    delivered: z.boolean(),
    ...attemptResult,
  })
  .clone()
  .register(z.globalRegistry, { id: 'TestDelivery' });
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
      matched: z.int().check(z.gte(0)),
      replayed: z.int().check(z.gte(0)),
      failed: z.int().check(z.gte(0)),
    }),
    error: z.nullable(z.string()),
    createdAt: isoTimeSchema,
    updatedAt: isoTimeSchema,
  })
  .clone()
  .register(z.globalRegistry, { id: 'WebhookJob' });
export type WebhookJob = z.infer<typeof webhookJobView>;

export const deadLetterView = z
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
    deadAt: isoTimeSchema,
  })
  .clone()
  .register(z.globalRegistry, { id: 'DeadLetter' });
export type DeadLetterView = z.infer<typeof deadLetterView>;

export const deadLetterListView = z
  .object({ data: z.array(deadLetterView) })
  .clone()
  .register(z.globalRegistry, { id: 'DeadLetterList' });

export const eventTypeListView = camelCasePage(publishedEventTypeView)
  .clone()
  .register(z.globalRegistry, { id: 'EventTypeList' });
