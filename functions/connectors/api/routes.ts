// Connector routes (section of the route table in ../routes.ts): what each route's Lambda reads at run
// time, one exported entry per route, so a handler's bundle holds its own entry and schemas and no
// other route's. Their documentation (summary, responses) is in ./route-docs.ts, which only
// the route table reads. `uses` is what each Lambda may touch: its IAM grants are derived from it, so
// KMS appears only where tokens or verifiers are sealed or opened.
import { idempotencyHeaders } from '../../platform/idempotency';
import type { RouteEntry } from '../../platform/route-types';
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
import { cursorPaginationQuery, paginationQuery } from '../../platform/pagination-query';
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
} as const satisfies RouteEntry['uses'];
export const listProvidersRoute = {
  id: 'listProviders',
  method: 'GET',
  path: '/connectors/v1/providers',
  handler: 'connectors/api/handlers/list-providers',
  auth: 'apiKey',
  permission: 'connectors:read',
  uses: { tables: { connectors: 'read' } },
} as const satisfies RouteEntry;

export const createConnectionRoute = {
  id: 'createConnection',
  method: 'POST',
  path: '/connectors/v1/connections',
  handler: 'connectors/api/handlers/create-connection',
  auth: 'apiKey',
  permission: 'connectors:write',
  request: {
    get body() {
      return createConnectionBody();
    },
    get headers() {
      return idempotencyHeaders();
    },
  },
  uses: { tables: { connectors: 'write' } },
} as const satisfies RouteEntry;

export const listConnectionsRoute = {
  id: 'listConnections',
  method: 'GET',
  path: '/connectors/v1/connections',
  handler: 'connectors/api/handlers/list-connections',
  auth: 'apiKey',
  permission: 'connectors:read',
  request: {
    get query() {
      return listConnectionsQuery();
    },
  },
  uses: { tables: { connectors: 'read' } },
} as const satisfies RouteEntry;

export const setProviderEnabledRoute = {
  id: 'setProviderEnabled',
  method: 'PATCH',
  path: '/connectors/v1/connections',
  handler: 'connectors/api/handlers/set-provider-enabled',
  auth: 'apiKey',
  permission: 'connectors:write',
  request: {
    get body() {
      return setProviderEnabledBody();
    },
  },
  uses: { tables: { connectors: 'write' } },
} as const satisfies RouteEntry;

export const getConnectionRoute = {
  id: 'getConnection',
  method: 'GET',
  path: '/connectors/v1/connections/{id}',
  handler: 'connectors/api/handlers/get-connection',
  auth: 'apiKey',
  permission: 'connectors:read',
  request: {
    get path() {
      return connectionIdPath();
    },
  },
  uses: { tables: { connectors: 'read' } },
} as const satisfies RouteEntry;

export const deleteConnectionRoute = {
  id: 'deleteConnection',
  method: 'DELETE',
  path: '/connectors/v1/connections/{id}',
  handler: 'connectors/api/handlers/delete-connection',
  auth: 'apiKey',
  permission: 'connectors:write',
  request: {
    get path() {
      return connectionIdPath();
    },
    get query() {
      return deleteConnectionQuery();
    },
  },
  uses: {
    tables: { connectors: 'write' },
    kms: 'decrypt',
    queues: ['events'],
    workflows: { purge: 'start' },
  },
} as const satisfies RouteEntry;

export const getConnectorJobRoute = {
  id: 'getConnectorJob',
  method: 'GET',
  path: '/connectors/jobs/{id}',
  handler: 'connectors/api/handlers/get-job',
  auth: 'apiKey',
  permission: 'connectors:read',
  request: {
    get path() {
      return jobIdPath();
    },
  },
  uses: { tables: { connectors: 'read' }, workflows: { purge: 'describe' } },
} as const satisfies RouteEntry;

export const listSourcesRoute = {
  id: 'listSources',
  method: 'GET',
  path: '/connectors/v1/connections/{id}/sources',
  handler: 'connectors/api/handlers/list-sources',
  auth: 'apiKey',
  permission: 'connectors:read',
  request: {
    get path() {
      return connectionIdPath();
    },
    get query() {
      return sourcesQuery();
    },
  },
  uses: PROVIDER_CALLS,
} as const satisfies RouteEntry;

export const createImportLinkRoute = {
  id: 'createImportLink',
  method: 'POST',
  path: '/connectors/v1/connections/{id}/links',
  handler: 'connectors/api/handlers/create-import-link',
  auth: 'apiKey',
  permission: ['connectors:write', 'vaults:write'],
  request: {
    get path() {
      return connectionIdPath();
    },
    get body() {
      return createLinkBody();
    },
  },
  uses: PROVIDER_CALLS,
} as const satisfies RouteEntry;

export const listImportLinksRoute = {
  id: 'listImportLinks',
  method: 'GET',
  path: '/connectors/v1/connections/{id}/links',
  handler: 'connectors/api/handlers/list-import-links',
  auth: 'apiKey',
  permission: 'connectors:read',
  request: {
    get path() {
      return connectionIdPath();
    },
    get query() {
      return paginationQuery();
    },
  },
  uses: { tables: { connectors: 'read' } },
} as const satisfies RouteEntry;

export const getImportLinkRoute = {
  id: 'getImportLink',
  method: 'GET',
  path: '/connectors/v1/links/{id}',
  handler: 'connectors/api/handlers/get-import-link',
  auth: 'apiKey',
  permission: 'connectors:read',
  request: {
    get path() {
      return linkIdPath();
    },
  },
  uses: { tables: { connectors: 'read' } },
} as const satisfies RouteEntry;

export const updateImportLinkRoute = {
  id: 'updateImportLink',
  method: 'PATCH',
  path: '/connectors/v1/links/{id}',
  handler: 'connectors/api/handlers/update-import-link',
  auth: 'apiKey',
  permission: 'connectors:write',
  request: {
    get path() {
      return linkIdPath();
    },
    get body() {
      return updateLinkBody();
    },
  },
  uses: { tables: { connectors: 'write' } },
} as const satisfies RouteEntry;

export const deleteImportLinkRoute = {
  id: 'deleteImportLink',
  method: 'DELETE',
  path: '/connectors/v1/links/{id}',
  handler: 'connectors/api/handlers/delete-import-link',
  auth: 'apiKey',
  permission: 'connectors:write',
  request: {
    get path() {
      return linkIdPath();
    },
  },
  uses: { tables: { connectors: 'write' } },
} as const satisfies RouteEntry;

export const startSyncRunRoute = {
  id: 'startSyncRun',
  method: 'POST',
  path: '/connectors/v1/links/{id}/runs',
  handler: 'connectors/api/handlers/start-sync-run',
  auth: 'apiKey',
  permission: ['connectors:write', 'vaults:write'],
  request: {
    get path() {
      return linkIdPath();
    },
    get body() {
      return startRunBody();
    },
  },
  uses: { tables: { connectors: 'write' }, queues: ['syncs'] },
} as const satisfies RouteEntry;

export const listSyncRunsRoute = {
  id: 'listSyncRuns',
  method: 'GET',
  path: '/connectors/v1/links/{id}/runs',
  handler: 'connectors/api/handlers/list-sync-runs',
  auth: 'apiKey',
  permission: 'connectors:read',
  request: {
    get path() {
      return linkIdPath();
    },
    get query() {
      return cursorPaginationQuery();
    },
  },
  uses: { tables: { connectors: 'read' } },
} as const satisfies RouteEntry;

export const listLinkDocumentsRoute = {
  id: 'listLinkDocuments',
  method: 'GET',
  path: '/connectors/v1/links/{id}/documents',
  handler: 'connectors/api/handlers/list-link-documents',
  auth: 'apiKey',
  permission: ['connectors:read', 'vaults:read'],
  request: {
    get path() {
      return linkIdPath();
    },
    get query() {
      return linkDocumentsQuery();
    },
  },
  uses: { tables: { connectors: 'read' } },
} as const satisfies RouteEntry;

export const createExportRoute = {
  id: 'createExport',
  method: 'POST',
  path: '/connectors/v1/connections/{id}/exports',
  handler: 'connectors/api/handlers/create-export',
  auth: 'apiKey',
  permission: ['connectors:write', 'vaults:read'],
  request: {
    get path() {
      return connectionIdPath();
    },
    get body() {
      return createExportBody();
    },
  },
  uses: { ...PROVIDER_CALLS, queues: ['events', 'syncs'] },
} as const satisfies RouteEntry;

export const showConnectLinkRoute = {
  id: 'showConnectLink',
  method: 'GET',
  path: '/connectors/v1/connect/{token}',
  handler: 'connectors/api/handlers/show-connect-link',
  auth: 'public',
  request: {
    get path() {
      return connectTokenPath();
    },
  },
  uses: { tables: { connectors: 'read' } },
} as const satisfies RouteEntry;

export const openConnectLinkRoute = {
  id: 'openConnectLink',
  method: 'POST',
  path: '/connectors/v1/connect/{token}',
  handler: 'connectors/api/handlers/open-connect-link',
  auth: 'public',
  request: {
    get path() {
      return connectTokenPath();
    },
  },
  uses: { tables: { connectors: 'write' }, kms: 'encrypt' },
} as const satisfies RouteEntry;

export const oauthCallbackRoute = {
  id: 'oauthCallback',
  method: 'GET',
  path: '/connectors/v1/oauth/{provider}/callback',
  handler: 'connectors/api/handlers/oauth-callback',
  auth: 'public',
  request: {
    get path() {
      return callbackPath();
    },
    get query() {
      return callbackQuery();
    },
  },
  uses: { tables: { connectors: 'write' }, kms: 'both' },
  // The provider calls' 20 s budget (CALLBACK_LIMITS) plus the table and KMS calls around them,
  // under API Gateway's 29 s: the user always gets the redirect, never a gateway error.
  timeoutSeconds: 25,
} as const satisfies RouteEntry;

/** Keyed by route id: the section as the route table (with ./route-docs.ts) and the tests read it. */
export const CONNECTOR_ROUTE = {
  listProviders: listProvidersRoute,
  createConnection: createConnectionRoute,
  listConnections: listConnectionsRoute,
  setProviderEnabled: setProviderEnabledRoute,
  getConnection: getConnectionRoute,
  deleteConnection: deleteConnectionRoute,
  getConnectorJob: getConnectorJobRoute,
  listSources: listSourcesRoute,
  createImportLink: createImportLinkRoute,
  listImportLinks: listImportLinksRoute,
  getImportLink: getImportLinkRoute,
  updateImportLink: updateImportLinkRoute,
  deleteImportLink: deleteImportLinkRoute,
  startSyncRun: startSyncRunRoute,
  listSyncRuns: listSyncRunsRoute,
  listLinkDocuments: listLinkDocumentsRoute,
  createExport: createExportRoute,
  showConnectLink: showConnectLinkRoute,
  openConnectLink: openConnectLinkRoute,
  oauthCallback: oauthCallbackRoute,
};
