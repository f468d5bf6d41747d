// Webhook routes (section of the route table in ../routes.ts). `uses` is what each route's Lambda may
// touch: its IAM grants derive from it, so read-only routes get read-only access and no KMS.
import { paginationQuery } from '../../platform/pagination';
import type { RouteDefinition } from '../../platform/route-types';
import { lazyBody, lazyRequest } from '../../platform/route-types';
import { createEndpointBody, endpointPath, updateEndpointBody } from '../domain/endpoint-schemas';
import {
  endpointListView,
  endpointWithSecretView,
  eventTypeListView,
  testDeliveryView,
  webhookEndpointView,
} from './views';

const ENDPOINTS = '/webhooks/v1/endpoints';
const ENDPOINT = `${ENDPOINTS}/{id}`;

/** Keyed by route id, so a handler names its entry (and gets the types of its schemas). */
export const WEBHOOK_ROUTE = {
  createWebhookEndpoint: {
    id: 'createWebhookEndpoint',
    method: 'POST',
    path: ENDPOINTS,
    handler: 'webhooks/api/handlers/create-endpoint',
    auth: 'apiKey',
    permission: 'webhooks:write',
    summary: 'Create an endpoint; the response carries its signing secret, shown this once',
    request: lazyRequest({ body: createEndpointBody }),
    responses: {
      201: lazyBody({ description: 'The endpoint, with its signing secret' }, endpointWithSecretView),
    },
    uses: { tables: { webhooks: 'write' }, kms: 'encrypt' },
  },
  listWebhookEndpoints: {
    id: 'listWebhookEndpoints',
    method: 'GET',
    path: ENDPOINTS,
    handler: 'webhooks/api/handlers/list-endpoints',
    auth: 'apiKey',
    permission: 'webhooks:read',
    summary: "List the organization's endpoints, newest first",
    request: lazyRequest({ query: () => paginationQuery }),
    responses: { 200: lazyBody({ description: 'A page of endpoints' }, endpointListView) },
    uses: { tables: { webhooks: 'read' } },
  },
  getWebhookEndpoint: {
    id: 'getWebhookEndpoint',
    method: 'GET',
    path: ENDPOINT,
    handler: 'webhooks/api/handlers/get-endpoint',
    auth: 'apiKey',
    permission: 'webhooks:read',
    summary: 'Get an endpoint',
    request: lazyRequest({ path: endpointPath }),
    responses: { 200: lazyBody({ description: 'The endpoint' }, webhookEndpointView) },
    uses: { tables: { webhooks: 'read' } },
  },
  updateWebhookEndpoint: {
    id: 'updateWebhookEndpoint',
    method: 'PATCH',
    path: ENDPOINT,
    handler: 'webhooks/api/handlers/update-endpoint',
    auth: 'apiKey',
    permission: 'webhooks:write',
    summary: "Change an endpoint's url, filters, resource scopes or description",
    request: lazyRequest({ path: endpointPath, body: updateEndpointBody }),
    responses: { 200: lazyBody({ description: 'The endpoint as changed' }, webhookEndpointView) },
    uses: { tables: { webhooks: 'write' } },
  },
  deleteWebhookEndpoint: {
    id: 'deleteWebhookEndpoint',
    method: 'DELETE',
    path: ENDPOINT,
    handler: 'webhooks/api/handlers/delete-endpoint',
    auth: 'apiKey',
    permission: 'webhooks:write',
    summary: 'Delete an endpoint and its signing secrets',
    request: lazyRequest({ path: endpointPath }),
    responses: { 204: { description: 'Deleted' } },
    uses: { tables: { webhooks: 'write' } },
  },
  enableWebhookEndpoint: {
    id: 'enableWebhookEndpoint',
    method: 'POST',
    path: `${ENDPOINT}/enable`,
    handler: 'webhooks/api/handlers/enable-endpoint',
    auth: 'apiKey',
    permission: 'webhooks:write',
    summary: 'Enable an endpoint (also one that was disabled automatically)',
    request: lazyRequest({ path: endpointPath }),
    responses: { 200: lazyBody({ description: 'The endpoint, enabled' }, webhookEndpointView) },
    uses: { tables: { webhooks: 'write' } },
  },
  disableWebhookEndpoint: {
    id: 'disableWebhookEndpoint',
    method: 'POST',
    path: `${ENDPOINT}/disable`,
    handler: 'webhooks/api/handlers/disable-endpoint',
    auth: 'apiKey',
    permission: 'webhooks:write',
    summary: 'Disable an endpoint',
    request: lazyRequest({ path: endpointPath }),
    responses: { 200: lazyBody({ description: 'The endpoint, disabled' }, webhookEndpointView) },
    uses: { tables: { webhooks: 'write' } },
  },
  rotateWebhookSecret: {
    id: 'rotateWebhookSecret',
    method: 'POST',
    path: `${ENDPOINT}/rotate-secret`,
    handler: 'webhooks/api/handlers/rotate-secret',
    auth: 'apiKey',
    permission: 'webhooks:write',
    summary: 'Issue a new signing secret; the previous one keeps signing alongside it for 24 hours',
    request: lazyRequest({ path: endpointPath }),
    responses: {
      200: lazyBody({ description: 'The new signing secret, shown this once' }, endpointWithSecretView),
      409: { description: 'The endpoint changed during the rotation; retry (CONFLICT)' },
    },
    uses: { tables: { webhooks: 'write' }, kms: 'encrypt' },
  },
  testWebhookEndpoint: {
    id: 'testWebhookEndpoint',
    method: 'POST',
    path: `${ENDPOINT}/test`,
    handler: 'webhooks/api/handlers/test-endpoint',
    auth: 'apiKey',
    permission: 'webhooks:write',
    summary: 'Send a webhook.test event to the endpoint now and report the attempt',
    request: lazyRequest({ path: endpointPath }),
    responses: {
      200: lazyBody({ description: 'The test attempt: status code or error, latency' }, testDeliveryView),
    },
    uses: { tables: { webhooks: 'read' }, kms: 'decrypt' },
    // The attempt may take the full 15 s delivery timeout, plus the KMS and table reads around it.
    timeoutSeconds: 20,
  },
  listWebhookEventTypes: {
    id: 'listWebhookEventTypes',
    method: 'GET',
    path: '/webhooks/v1/event-types',
    handler: 'webhooks/api/handlers/list-event-types',
    auth: 'apiKey',
    permission: 'webhooks:read',
    summary: 'The event-type catalog: descriptions, data schemas and the permission each needs',
    request: lazyRequest({ query: () => paginationQuery }),
    responses: { 200: lazyBody({ description: 'A page of the event-type catalog' }, eventTypeListView) },
    uses: {},
  },
} satisfies Record<string, RouteDefinition>;

export const WEBHOOK_ROUTES: RouteDefinition[] = Object.values(WEBHOOK_ROUTE);
