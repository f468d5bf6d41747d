// Webhook routes (section of the route table in ../routes.ts). `uses` is what each route's Lambda may
// touch: its IAM grants derive from it, so read-only routes get read-only access and no KMS.
import { paginationQuery } from '../../platform/pagination-query';
import type { RouteDefinition } from '../../platform/route-types';
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
    request: {
      get body() {
        return createEndpointBody();
      },
    },
    responses: {
      201: {
        description: 'The endpoint, with its signing secret',
        get schema() {
          return endpointWithSecretView();
        },
      },
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
    request: {
      get query() {
        return paginationQuery();
      },
    },
    responses: {
      200: {
        description: 'A page of endpoints',
        get schema() {
          return endpointListView();
        },
      },
    },
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
    request: {
      get path() {
        return endpointPath();
      },
    },
    responses: {
      200: {
        description: 'The endpoint',
        get schema() {
          return webhookEndpointView();
        },
      },
    },
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
    request: {
      get path() {
        return endpointPath();
      },
      get body() {
        return updateEndpointBody();
      },
    },
    responses: {
      200: {
        description: 'The endpoint as changed',
        get schema() {
          return webhookEndpointView();
        },
      },
    },
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
    request: {
      get path() {
        return endpointPath();
      },
    },
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
    request: {
      get path() {
        return endpointPath();
      },
    },
    responses: {
      200: {
        description: 'The endpoint, enabled',
        get schema() {
          return webhookEndpointView();
        },
      },
    },
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
    request: {
      get path() {
        return endpointPath();
      },
    },
    responses: {
      200: {
        description: 'The endpoint, disabled',
        get schema() {
          return webhookEndpointView();
        },
      },
    },
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
    request: {
      get path() {
        return endpointPath();
      },
    },
    responses: {
      200: {
        description: 'The new signing secret, shown this once',
        get schema() {
          return endpointWithSecretView();
        },
      },
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
    request: {
      get path() {
        return endpointPath();
      },
    },
    responses: {
      200: {
        description: 'The test attempt: status code or error, latency',
        get schema() {
          return testDeliveryView();
        },
      },
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
    request: {
      get query() {
        return paginationQuery();
      },
    },
    responses: {
      200: {
        description: 'A page of the event-type catalog',
        get schema() {
          return eventTypeListView();
        },
      },
    },
    uses: {},
  },
} satisfies Record<string, RouteDefinition>;

export const WEBHOOK_ROUTES: RouteDefinition[] = Object.values(WEBHOOK_ROUTE);
