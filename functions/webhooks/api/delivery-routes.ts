// Event publishing, delivery history, replay and recovery routes (section of the route table in ../routes.ts).
import { eventView } from '../../events';
import { IDEMPOTENT_REPLAYED_HEADER, idempotencyHeaders } from '../../platform/idempotency';
import type { RouteDefinition } from '../../platform/route-types';
import {
  deadLetterListView,
  deliveryListView,
  deliveryView,
  deliveryWithAttemptsView,
  webhookJobView,
} from './views';
import {
  deadLettersQuery,
  deliveryIdPath,
  endpointIdPath,
  jobIdPath,
  listDeliveriesQuery,
  publishEventBody,
  recoverBody,
} from './delivery-schemas';

/** Keyed by route id, so a handler names its entry (and gets the types of its schemas). */
export const DELIVERY_ROUTE = {
  publishWebhookEvent: {
    id: 'publishWebhookEvent',
    method: 'POST',
    path: '/webhooks/v1/events',
    handler: 'webhooks/api/handlers/publish-event',
    tag: 'delivery',
    auth: 'apiKey',
    systemOnly: true,
    rateLimit: 'platform',
    summary: 'Publish an event for an organization (system keys only: platform services)',
    request: {
      get body() {
        return publishEventBody();
      },
      get headers() {
        return idempotencyHeaders();
      },
    },
    responses: {
      202: {
        description: 'The event, accepted for delivery',
        get schema() {
          return eventView();
        },
        headers: IDEMPOTENT_REPLAYED_HEADER,
      },
      404: { description: 'organizationId names no organization (NOT_FOUND)' },
      409: {
        description:
          'The Idempotency-Key was used with another request, or its first request is still running (CONFLICT)',
      },
    },
    uses: { queues: ['events'], tables: { platform: 'read', webhooks: 'write' } },
  },
  listWebhookDeadLetters: {
    id: 'listWebhookDeadLetters',
    method: 'GET',
    path: '/webhooks/v1/dead-letters',
    handler: 'webhooks/api/handlers/list-dead-letters',
    tag: 'delivery',
    auth: 'apiKey',
    permission: 'webhooks:read',
    summary: "The organization's events and delivery steps that reached a dead-letter queue, newest first",
    request: {
      get query() {
        return deadLettersQuery();
      },
    },
    responses: {
      200: {
        description: 'Dead letters: ids and receive counts, never event data',
        get schema() {
          return deadLetterListView();
        },
      },
    },
    uses: { tables: { webhooks: 'read' }, deadLetters: ['events', 'deliveries'] },
  },
  listWebhookDeliveries: {
    id: 'listWebhookDeliveries',
    method: 'GET',
    path: '/webhooks/v1/endpoints/{id}/deliveries',
    handler: 'webhooks/api/handlers/list-deliveries',
    tag: 'delivery',
    auth: 'apiKey',
    permission: 'webhooks:read',
    summary:
      "An endpoint's deliveries, newest first, optionally of one status, event type or event, or a window of creation times",
    request: {
      get path() {
        return endpointIdPath();
      },
      get query() {
        return listDeliveriesQuery();
      },
    },
    responses: {
      200: {
        description: 'A page of deliveries',
        get schema() {
          return deliveryListView();
        },
      },
    },
    uses: { tables: { webhooks: 'read' } },
  },
  getWebhookDelivery: {
    id: 'getWebhookDelivery',
    method: 'GET',
    path: '/webhooks/v1/deliveries/{id}',
    handler: 'webhooks/api/handlers/get-delivery',
    tag: 'delivery',
    auth: 'apiKey',
    permission: 'webhooks:read',
    summary: 'A delivery with every attempt',
    request: {
      get path() {
        return deliveryIdPath();
      },
    },
    responses: {
      200: {
        description: 'The delivery and its attempts',
        get schema() {
          return deliveryWithAttemptsView();
        },
      },
    },
    uses: { tables: { webhooks: 'read' } },
  },
  replayWebhookDelivery: {
    id: 'replayWebhookDelivery',
    method: 'POST',
    path: '/webhooks/v1/deliveries/{id}/replay',
    handler: 'webhooks/api/handlers/replay-delivery',
    tag: 'delivery',
    auth: 'apiKey',
    permission: 'webhooks:write',
    summary: 'Send the same event (same id) to the endpoint again now',
    request: {
      get path() {
        return deliveryIdPath();
      },
    },
    responses: {
      202: {
        description: 'The replay, queued',
        get schema() {
          return deliveryView();
        },
      },
      409: { description: 'The delivery was replayed at the same time; retry (CONFLICT)' },
    },
    uses: { tables: { webhooks: 'write' }, queues: ['deliveries'] },
  },
  recoverWebhookEndpoint: {
    id: 'recoverWebhookEndpoint',
    method: 'POST',
    path: '/webhooks/v1/endpoints/{id}/recover',
    handler: 'webhooks/api/handlers/recover-endpoint',
    tag: 'delivery',
    auth: 'apiKey',
    permission: 'webhooks:write',
    summary: 'Replay every failed or skipped delivery of a time window, as a job',
    request: {
      get path() {
        return endpointIdPath();
      },
      get body() {
        return recoverBody();
      },
    },
    responses: {
      202: {
        description: 'The recover job',
        get schema() {
          return webhookJobView();
        },
      },
    },
    uses: { tables: { webhooks: 'write' }, queues: ['deliveries'] },
  },
  getWebhookJob: {
    id: 'getWebhookJob',
    method: 'GET',
    path: '/webhooks/jobs/{id}',
    handler: 'webhooks/api/handlers/get-job',
    tag: 'delivery',
    auth: 'apiKey',
    permission: 'webhooks:read',
    summary: 'Poll a webhooks job (recover)',
    request: {
      get path() {
        return jobIdPath();
      },
    },
    responses: {
      200: {
        description: 'The job',
        get schema() {
          return webhookJobView();
        },
      },
    },
    uses: { tables: { webhooks: 'read' } },
  },
} satisfies Record<string, RouteDefinition>;

export const DELIVERY_ROUTES: RouteDefinition[] = Object.values(DELIVERY_ROUTE);
