// Connector routes (section of the route table in ../routes.ts). `uses` is what each Lambda may
// touch: its IAM grants are derived from it, so KMS appears only where tokens or verifiers are sealed or opened.
import * as z from 'zod/mini';
import { IDEMPOTENT_REPLAYED_HEADER, idempotencyHeaders } from '../../platform/idempotency';
import type { RouteDefinition } from '../../platform/route-types';
import {
  connectionListView,
  connectionDetailView,
  connectorJobView,
  importLinkListView,
  importLinkView,
  jobStartedView,
  linkDocumentListView,
  sourceListView,
  syncRunListView,
  pendingConnectionView,
  providerListView,
  providerSettingView,
} from './views';
import { jobIdPath } from './job-schemas';
import {
  createExportBody,
  createLinkBody,
  linkDocumentsQuery,
  linkIdPath,
  sourcesQuery,
  startRunBody,
  updateLinkBody,
} from './import-schemas';
import { cursorPaginationQuery, paginationQuery } from '../../platform/pagination';
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

/** A route that calls the provider through a connection: it may refresh (seal) tokens and publish reauth. */
const PROVIDER_CALLS = {
  tables: { connectors: 'write' },
  kms: 'both',
  queues: ['events'],
} as const satisfies RouteDefinition['uses'];

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
    responses: { 200: { description: 'The providers', schema: providerListView } },
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
    request: { body: createConnectionBody, headers: idempotencyHeaders },
    responses: {
      201: {
        description: 'The pending connection: connection_id, connect_url, expires_at',
        schema: pendingConnectionView,
        headers: IDEMPOTENT_REPLAYED_HEADER,
      },
      409: {
        description:
          'The Idempotency-Key was used with another request, or its first request is still running (CONFLICT)',
      },
    },
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
    responses: { 200: { description: 'A page of connections', schema: connectionListView } },
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
    responses: {
      200: {
        description: 'The provider setting: provider, enabled, updated_at',
        schema: providerSettingView,
      },
    },
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
    responses: {
      200: { description: 'The connection, with its status history', schema: connectionDetailView },
    },
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
        schema: jobStartedView,
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
      'Poll a connector job (a purge, an import run, an export): processing, then succeeded or failed, with counts',
    request: { path: jobIdPath },
    responses: { 200: { description: 'The job', schema: connectorJobView } },
    uses: { tables: { connectors: 'read' }, workflows: { purge: 'describe' } },
  },
  listSources: {
    id: 'listSources',
    method: 'GET',
    path: '/connectors/v1/connections/{id}/sources',
    handler: 'connectors/api/handlers/list-sources',
    auth: 'apiKey',
    permission: 'connectors:read',
    summary:
      "Browse the provider through the connection: its top level (matters, folders) or a container's entries (`parent`), a page at a time (`page_token`)",
    request: { path: connectionIdPath, query: sourcesQuery },
    responses: {
      200: {
        description: 'Containers and files, and the next page token (null at the end)',
        schema: sourceListView,
      },
      409: { description: 'The connection cannot be used now, or its provider is turned off (CONFLICT)' },
      503: {
        description:
          'The provider rate limits the account or cannot be reached: retry after Retry-After (SERVICE_UNAVAILABLE)',
      },
    },
    uses: PROVIDER_CALLS,
  },
  createImportLink: {
    id: 'createImportLink',
    method: 'POST',
    path: '/connectors/v1/connections/{id}/links',
    handler: 'connectors/api/handlers/create-import-link',
    auth: 'apiKey',
    permission: ['connectors:write', 'vaults:write'],
    summary:
      'Link a provider container to a vault (optionally on a schedule); the source is checked at the provider',
    request: { path: connectionIdPath, body: createLinkBody },
    responses: {
      201: { description: 'The import link', schema: importLinkView },
      409: { description: 'The connection cannot be used now, or the link exists (CONFLICT)' },
      503: {
        description:
          'The provider rate limits the account or cannot be reached: retry after Retry-After (SERVICE_UNAVAILABLE)',
      },
    },
    uses: PROVIDER_CALLS,
  },
  listImportLinks: {
    id: 'listImportLinks',
    method: 'GET',
    path: '/connectors/v1/connections/{id}/links',
    handler: 'connectors/api/handlers/list-import-links',
    auth: 'apiKey',
    permission: 'connectors:read',
    summary: "The connection's import links, newest first (limit, offset)",
    request: { path: connectionIdPath, query: paginationQuery },
    responses: { 200: { description: 'A page of import links', schema: importLinkListView } },
    uses: { tables: { connectors: 'read' } },
  },
  getImportLink: {
    id: 'getImportLink',
    method: 'GET',
    path: '/connectors/v1/links/{id}',
    handler: 'connectors/api/handlers/get-import-link',
    auth: 'apiKey',
    permission: 'connectors:read',
    summary: 'Read an import link: its source, vault, schedule, last run and the run in flight',
    request: { path: linkIdPath },
    responses: { 200: { description: 'The import link', schema: importLinkView } },
    uses: { tables: { connectors: 'read' } },
  },
  updateImportLink: {
    id: 'updateImportLink',
    method: 'PATCH',
    path: '/connectors/v1/links/{id}',
    handler: 'connectors/api/handlers/update-import-link',
    auth: 'apiKey',
    permission: 'connectors:write',
    summary:
      'Edit an import link in place: its schedule (null removes it), paused (pause or resume) and label; its documents, ledger and cursor stay',
    request: { path: linkIdPath, body: updateLinkBody },
    responses: {
      200: { description: 'The import link as edited', schema: importLinkView },
      409: { description: 'The link kept changing while it was edited; retry (CONFLICT)' },
    },
    uses: { tables: { connectors: 'write' } },
  },
  deleteImportLink: {
    id: 'deleteImportLink',
    method: 'DELETE',
    path: '/connectors/v1/links/{id}',
    handler: 'connectors/api/handlers/delete-import-link',
    auth: 'apiKey',
    permission: 'connectors:write',
    summary:
      'Delete an import link: no more runs; the documents it imported stay (a purge of the connection deletes them)',
    request: { path: linkIdPath },
    responses: { 204: { description: 'Deleted' } },
    uses: { tables: { connectors: 'write' } },
  },
  startSyncRun: {
    id: 'startSyncRun',
    method: 'POST',
    path: '/connectors/v1/links/{id}/runs',
    handler: 'connectors/api/handlers/start-sync-run',
    auth: 'apiKey',
    permission: ['connectors:write', 'vaults:write'],
    summary:
      'Start an import run of the link, of the changes or ({"mode":"full"}) a full reconcile (one at a time: the run in flight is returned); poll GET /connectors/jobs/{id}',
    request: { path: linkIdPath, body: startRunBody },
    responses: {
      202: { description: 'The run as a job: id and status processing', schema: jobStartedView },
      409: { description: 'The connection cannot be used now or its provider is turned off (CONFLICT)' },
    },
    uses: { tables: { connectors: 'write' }, queues: ['syncs'] },
  },
  listSyncRuns: {
    id: 'listSyncRuns',
    method: 'GET',
    path: '/connectors/v1/links/{id}/runs',
    handler: 'connectors/api/handlers/list-sync-runs',
    auth: 'apiKey',
    permission: 'connectors:read',
    summary: "The link's runs, newest first, with their counts (limit, and offset or cursor)",
    request: { path: linkIdPath, query: cursorPaginationQuery },
    responses: { 200: { description: 'A page of runs', schema: syncRunListView } },
    uses: { tables: { connectors: 'read' } },
  },
  listLinkDocuments: {
    id: 'listLinkDocuments',
    method: 'GET',
    path: '/connectors/v1/links/{id}/documents',
    handler: 'connectors/api/handlers/list-link-documents',
    auth: 'apiKey',
    permission: ['connectors:read', 'vaults:read'],
    summary:
      'The vault documents the link imported: its ledger (provider file and version -> vault document); with changed_since, its change feed (deletions included)',
    request: { path: linkIdPath, query: linkDocumentsQuery },
    responses: { 200: { description: 'A page of ledger entries', schema: linkDocumentListView } },
    uses: { tables: { connectors: 'read' } },
  },
  createExport: {
    id: 'createExport',
    method: 'POST',
    path: '/connectors/v1/connections/{id}/exports',
    handler: 'connectors/api/handlers/create-export',
    auth: 'apiKey',
    permission: ['connectors:write', 'vaults:read'],
    summary:
      'Export vault documents to a provider container (idempotent per document version); poll GET /connectors/jobs/{id}',
    request: { path: connectionIdPath, body: createExportBody },
    responses: {
      202: { description: 'The export as a job: id and status processing', schema: jobStartedView },
      409: { description: 'The connection cannot be used now or lacks the upload scope (CONFLICT)' },
      503: {
        description:
          'The provider rate limits the account or cannot be reached: retry after Retry-After (SERVICE_UNAVAILABLE)',
      },
    },
    uses: { ...PROVIDER_CALLS, queues: ['events', 'syncs'] },
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
      200: {
        description: 'An HTML page with a button that POSTs to this URL',
        schema: z.string(),
        mediaType: 'text/html',
      },
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
      302: {
        description: "Redirect to the provider's consent screen; sets the browser-binding cookie",
        headers: {
          'Set-Cookie': {
            description: 'The browser-binding cookie (HttpOnly, Secure, SameSite=Lax) the callback checks',
          },
        },
      },
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
