// Event publishing, delivery history, replay and recovery routes (section of the route table in ../routes.ts).
import type { RouteDefinition } from '../platform/route-types';
import { idPath, listDeliveriesQuery, publishEventBody, recoverBody } from './schemas';

/** Keyed by route id, so a handler names its entry (and gets the types of its schemas). */
export const DELIVERY_ROUTE = {
  publishWebhookEvent: {
    id: 'publishWebhookEvent',
    method: 'POST',
    path: '/webhooks/v1/events',
    handler: 'delivery/handlers/publish-event',
    auth: 'apiKey',
    systemOnly: true,
    summary: 'Publish an event for an organization (system keys only: platform services)',
    request: { body: publishEventBody },
    responses: { 202: { description: 'The event, accepted for delivery' } },
    uses: { queues: ['events'] },
  },
  listWebhookDeliveries: {
    id: 'listWebhookDeliveries',
    method: 'GET',
    path: '/webhooks/v1/endpoints/{id}/deliveries',
    handler: 'delivery/handlers/list-deliveries',
    auth: 'apiKey',
    permission: 'webhooks:read',
    summary: "An endpoint's deliveries, newest first, optionally of one status",
    request: { path: idPath, query: listDeliveriesQuery },
    responses: { 200: { description: 'A page of deliveries' } },
    uses: { tables: { webhooks: 'read' } },
  },
  getWebhookDelivery: {
    id: 'getWebhookDelivery',
    method: 'GET',
    path: '/webhooks/v1/deliveries/{id}',
    handler: 'delivery/handlers/get-delivery',
    auth: 'apiKey',
    permission: 'webhooks:read',
    summary: 'A delivery with every attempt',
    request: { path: idPath },
    responses: { 200: { description: 'The delivery and its attempts' } },
    uses: { tables: { webhooks: 'read' } },
  },
  replayWebhookDelivery: {
    id: 'replayWebhookDelivery',
    method: 'POST',
    path: '/webhooks/v1/deliveries/{id}/replay',
    handler: 'delivery/handlers/replay-delivery',
    auth: 'apiKey',
    permission: 'webhooks:write',
    summary: 'Send the same event (same id) to the endpoint again now',
    request: { path: idPath },
    responses: {
      202: { description: 'The replay, queued' },
      409: { description: 'The delivery was replayed at the same time; retry (CONFLICT)' },
    },
    uses: { tables: { webhooks: 'write' }, queues: ['deliveries'] },
  },
  recoverWebhookEndpoint: {
    id: 'recoverWebhookEndpoint',
    method: 'POST',
    path: '/webhooks/v1/endpoints/{id}/recover',
    handler: 'delivery/handlers/recover-endpoint',
    auth: 'apiKey',
    permission: 'webhooks:write',
    summary: 'Replay every failed or skipped delivery of a time window, as a job',
    request: { path: idPath, body: recoverBody },
    responses: { 202: { description: 'The recover job' } },
    uses: { tables: { webhooks: 'write' }, queues: ['deliveries'] },
  },
  getWebhookJob: {
    id: 'getWebhookJob',
    method: 'GET',
    path: '/webhooks/jobs/{id}',
    handler: 'delivery/handlers/get-job',
    auth: 'apiKey',
    permission: 'webhooks:read',
    summary: 'Poll a webhooks job (recover)',
    request: { path: idPath },
    responses: { 200: { description: 'The job' } },
    uses: { tables: { webhooks: 'read' } },
  },
} satisfies Record<string, RouteDefinition>;

export const DELIVERY_ROUTES: RouteDefinition[] = Object.values(DELIVERY_ROUTE);
