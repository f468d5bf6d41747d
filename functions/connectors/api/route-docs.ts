// The connector routes' documentation: each route's summary and responses (the success bodies' schemas,
// the errors particular to it), which the OpenAPI generator, the e2e tier and the handlers' types read
// and no Lambda does. Kept out of ./routes.ts so the deployed bundles do not carry it.
import * as z from 'zod/mini';
import { IDEMPOTENT_REPLAYED_HEADER } from '../../platform/idempotency';
import type { RouteDefinition, RouteDocs } from '../../platform/route-types';
import { documentedSection } from '../../platform/route-types';
import { CONNECTOR_ROUTE } from './routes';
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

/** Keyed by route id, as CONNECTOR_ROUTE is. */
export const CONNECTOR_ROUTE_DOCS = {
  listProviders: {
    summary: 'List the providers, their scope tiers, and whether each is enabled for the organization',
    responses: { 200: { description: 'The providers', schema: providerListView } },
  },
  createConnection: {
    summary: 'Create a pending connection and its one-time connect URL',
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
  },
  listConnections: {
    summary: "List the organization's connections (limit, offset, provider and status filters)",
    responses: { 200: { description: 'A page of connections', schema: connectionListView } },
  },
  setProviderEnabled: {
    summary: 'Turn a provider off (or on again) for the whole organization without disconnecting',
    responses: {
      200: {
        description: 'The provider setting: provider, enabled, updated_at',
        schema: providerSettingView,
      },
    },
  },
  getConnection: {
    summary: 'Read a connection',
    responses: {
      200: { description: 'The connection, with its status history', schema: connectionDetailView },
    },
  },
  deleteConnection: {
    summary: 'Disconnect: revoke the tokens at the provider, delete them, publish connection.revoked',
    responses: {
      202: {
        description: 'Disconnected; with purge=true, the purge job that deletes the imported documents',
        schema: jobStartedView,
      },
      204: { description: 'Disconnected' },
      409: { description: 'The connection cannot be purged now (CONFLICT)' },
    },
  },
  getConnectorJob: {
    summary:
      'Poll a connector job (a purge, an import run, an export): processing, then succeeded or failed, with counts',
    responses: { 200: { description: 'The job', schema: connectorJobView } },
  },
  listSources: {
    summary:
      "Browse the provider through the connection: its top level (matters, folders) or a container's entries (`parent`), a page at a time (`page_token`)",
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
  },
  createImportLink: {
    summary:
      'Link a provider container to a vault (optionally on a schedule); the source is checked at the provider',
    responses: {
      201: { description: 'The import link', schema: importLinkView },
      409: { description: 'The connection cannot be used now, or the link exists (CONFLICT)' },
      503: {
        description:
          'The provider rate limits the account or cannot be reached: retry after Retry-After (SERVICE_UNAVAILABLE)',
      },
    },
  },
  listImportLinks: {
    summary: "The connection's import links, newest first (limit, offset)",
    responses: { 200: { description: 'A page of import links', schema: importLinkListView } },
  },
  getImportLink: {
    summary: 'Read an import link: its source, vault, schedule, last run and the run in flight',
    responses: { 200: { description: 'The import link', schema: importLinkView } },
  },
  updateImportLink: {
    summary:
      'Edit an import link in place: its schedule (null removes it), paused (pause or resume) and label; its documents, ledger and cursor stay',
    responses: {
      200: { description: 'The import link as edited', schema: importLinkView },
      409: { description: 'The link kept changing while it was edited; retry (CONFLICT)' },
    },
  },
  deleteImportLink: {
    summary:
      'Delete an import link: no more runs; the documents it imported stay (a purge of the connection deletes them)',
    responses: { 204: { description: 'Deleted' } },
  },
  startSyncRun: {
    summary:
      'Start an import run of the link, of the changes or ({"mode":"full"}) a full reconcile (one at a time: the run in flight is returned); poll GET /connectors/jobs/{id}',
    responses: {
      202: { description: 'The run as a job: id and status processing', schema: jobStartedView },
      409: { description: 'The connection cannot be used now or its provider is turned off (CONFLICT)' },
    },
  },
  listSyncRuns: {
    summary: "The link's runs, newest first, with their counts (limit, and offset or cursor)",
    responses: { 200: { description: 'A page of runs', schema: syncRunListView } },
  },
  listLinkDocuments: {
    summary:
      'The vault documents the link imported: its ledger (provider file and version -> vault document); with changed_since, its change feed (deletions included)',
    responses: { 200: { description: 'A page of ledger entries', schema: linkDocumentListView } },
  },
  createExport: {
    summary:
      'Export vault documents to a provider container (idempotent per document version); poll GET /connectors/jobs/{id}',
    responses: {
      202: { description: 'The export as a job: id and status processing', schema: jobStartedView },
      409: { description: 'The connection cannot be used now or lacks the upload scope (CONFLICT)' },
      503: {
        description:
          'The provider rate limits the account or cannot be reached: retry after Retry-After (SERVICE_UNAVAILABLE)',
      },
    },
  },
  showConnectLink: {
    summary:
      "Opened by the user's browser: a page whose button starts the flow; the link is not spent by opening it (link previews)",
    responses: {
      200: {
        description: 'An HTML page with a button that POSTs to this URL',
        schema: z.string(),
        mediaType: 'text/html',
      },
      410: { description: 'The connect link has expired (GONE)' },
    },
  },
  openConnectLink: {
    summary:
      "The page's button: spends the link, binds the browser and redirects to the provider's consent screen",
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
  },
  oauthCallback: {
    summary: 'The provider redirects the browser here: code exchange, tokens sealed, back to return_url',
    responses: { 302: { description: 'Redirect to return_url with connection_id or error' } },
  },
} satisfies Record<keyof typeof CONNECTOR_ROUTE, RouteDocs>;

/** The section of the route table: each entry with its documentation. */
export const CONNECTOR_ROUTES: RouteDefinition[] = documentedSection(CONNECTOR_ROUTE, CONNECTOR_ROUTE_DOCS);

type ConnectorRouteDocs = typeof CONNECTOR_ROUTE_DOCS;
declare module '../../platform/route-types' {
  // Types each connector handler's answer by its route's documented responses (platform/http.ts).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- its members are ConnectorRouteDocs'
  interface DocumentedRoutes extends ConnectorRouteDocs {}
}
