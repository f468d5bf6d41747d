// Connector routes (section of the route table in ../routes.ts). `uses` is what each Lambda may
// touch: its IAM grants are derived from it, so KMS appears only where tokens or verifiers are sealed or opened.
import type { RouteDefinition } from '../../platform/route-types';
import { jobIdPath } from './job-schemas';
import {
  callbackPath,
  callbackQuery,
  connectTokenPath,
  connectionIdPath,
  createConnectionBody,
  deleteConnectionQuery,
  listConnectionsQuery,
  setProviderEnabledBody,
} from './schemas';

/** Keyed by route id, so a handler names its entry (and gets the types of its schemas). */
export const CONNECTOR_ROUTE = {
  listProviders: {
    id: 'listProviders',
    method: 'GET',
    path: '/connectors/v1/providers',
    handler: 'connectors/api/handlers/list-providers',
    auth: 'apiKey',
    permission: 'connectors:read',
    summary: 'List the providers, their scope tiers, and whether each is enabled for the organization',
    responses: { 200: { description: 'The providers' } },
    uses: { tables: { connectors: 'read' } },
  },
  createConnection: {
    id: 'createConnection',
    method: 'POST',
    path: '/connectors/v1/connections',
    handler: 'connectors/api/handlers/create-connection',
    auth: 'apiKey',
    permission: 'connectors:write',
    summary: 'Create a pending connection and its one-time connect URL',
    request: { body: createConnectionBody },
    responses: { 201: { description: 'The pending connection: connection_id, connect_url, expires_at' } },
    uses: { tables: { connectors: 'write' } },
  },
  listConnections: {
    id: 'listConnections',
    method: 'GET',
    path: '/connectors/v1/connections',
    handler: 'connectors/api/handlers/list-connections',
    auth: 'apiKey',
    permission: 'connectors:read',
    summary: "List the organization's connections (limit, offset, provider and status filters)",
    request: { query: listConnectionsQuery },
    responses: { 200: { description: 'A page of connections' } },
    uses: { tables: { connectors: 'read' } },
  },
  setProviderEnabled: {
    id: 'setProviderEnabled',
    method: 'PATCH',
    path: '/connectors/v1/connections',
    handler: 'connectors/api/handlers/set-provider-enabled',
    auth: 'apiKey',
    permission: 'connectors:write',
    summary: 'Turn a provider off (or on again) for the whole organization without disconnecting',
    request: { body: setProviderEnabledBody },
    responses: { 200: { description: 'The provider setting: provider, enabled, updated_at' } },
    uses: { tables: { connectors: 'write' } },
  },
  getConnection: {
    id: 'getConnection',
    method: 'GET',
    path: '/connectors/v1/connections/{id}',
    handler: 'connectors/api/handlers/get-connection',
    auth: 'apiKey',
    permission: 'connectors:read',
    summary: 'Read a connection',
    request: { path: connectionIdPath },
    responses: { 200: { description: 'The connection' } },
    uses: { tables: { connectors: 'read' } },
  },
  deleteConnection: {
    id: 'deleteConnection',
    method: 'DELETE',
    path: '/connectors/v1/connections/{id}',
    handler: 'connectors/api/handlers/delete-connection',
    auth: 'apiKey',
    permission: 'connectors:write',
    summary: 'Disconnect: revoke the tokens at the provider, delete them, publish connection.revoked',
    request: { path: connectionIdPath, query: deleteConnectionQuery },
    responses: {
      202: {
        description: 'Disconnected; with purge=true, the purge job that deletes the imported documents',
      },
      204: { description: 'Disconnected' },
      409: { description: 'The connection cannot be purged now (CONFLICT)' },
    },
    uses: {
      tables: { connectors: 'write' },
      kms: 'decrypt',
      queues: ['events'],
      workflows: { purge: 'start' },
    },
  },
  getConnectorJob: {
    id: 'getConnectorJob',
    method: 'GET',
    path: '/connectors/jobs/{id}',
    handler: 'connectors/api/handlers/get-job',
    auth: 'apiKey',
    permission: 'connectors:read',
    summary:
      'Poll a connector job (a purge on disconnect): processing, then succeeded or failed, with counts',
    request: { path: jobIdPath },
    responses: { 200: { description: 'The job' } },
    uses: { tables: { connectors: 'read' }, workflows: { purge: 'describe' } },
  },
  showConnectLink: {
    id: 'showConnectLink',
    method: 'GET',
    path: '/connectors/v1/connect/{token}',
    handler: 'connectors/api/handlers/show-connect-link',
    auth: 'public',
    summary:
      "Opened by the user's browser: a page whose button starts the flow; the link is not spent by opening it (link previews)",
    request: { path: connectTokenPath },
    responses: {
      200: { description: 'An HTML page with a button that POSTs to this URL' },
      410: { description: 'The connect link has expired (GONE)' },
    },
    uses: { tables: { connectors: 'read' } },
  },
  openConnectLink: {
    id: 'openConnectLink',
    method: 'POST',
    path: '/connectors/v1/connect/{token}',
    handler: 'connectors/api/handlers/open-connect-link',
    auth: 'public',
    summary:
      "The page's button: spends the link, binds the browser and redirects to the provider's consent screen",
    request: { path: connectTokenPath },
    responses: {
      302: { description: "Redirect to the provider's consent screen; sets the browser-binding cookie" },
      410: { description: 'The connect link has expired (GONE)' },
    },
    uses: { tables: { connectors: 'write' }, kms: 'encrypt' },
  },
  oauthCallback: {
    id: 'oauthCallback',
    method: 'GET',
    path: '/connectors/v1/oauth/{provider}/callback',
    handler: 'connectors/api/handlers/oauth-callback',
    auth: 'public',
    summary: 'The provider redirects the browser here: code exchange, tokens sealed, back to return_url',
    request: { path: callbackPath, query: callbackQuery },
    responses: { 302: { description: 'Redirect to return_url with connection_id or error' } },
    uses: { tables: { connectors: 'write' }, kms: 'both' },
    // The provider calls' 20 s budget (CALLBACK_LIMITS) plus the table and KMS calls around them,
    // under API Gateway's 29 s: the user always gets the redirect, never a gateway error.
    timeoutSeconds: 25,
  },
} satisfies Record<string, RouteDefinition>;

export const CONNECTOR_ROUTES: RouteDefinition[] = Object.values(CONNECTOR_ROUTE);
