// The connector resources as the API answers them: zod schemas the use cases' view types are inferred
// from, the route entries name as their responses, and the OpenAPI document shows (each `id` is its
// name under components.schemas).
import * as z from 'zod';
import { isoTimeSchema } from '../../platform/clock';
import { idSchema } from '../../platform/ids';
import { snakeCasePage } from '../../platform/pagination';
import { CONNECTION_STATUSES } from '../domain/connection';
import { PROVIDER_IDS } from '../domain/providers';

const connectionId = idSchema('conn', 'a connection');
const jobId = idSchema('job', 'a job');
const providerId = z.enum(PROVIDER_IDS);

export const providerView = z
  .object({
    id: providerId,
    display_name: z.string(),
    kind: z.enum(['practice_management', 'file_storage']),
    enabled: z.boolean().describe('Whether the provider is on for the organization'),
    default_scope_tier: z.string(),
    scope_tiers: z.array(
      z.object({
        name: z.string(),
        description: z.string(),
        scopes: z.array(z.string()).describe('Scopes asked for at consent'),
        required_scopes: z.array(z.string()).describe('Scopes the user must grant'),
      }),
    ),
  })
  .meta({ id: 'Provider' });
export type ProviderView = z.infer<typeof providerView>;

export const providerListView = z.object({ data: z.array(providerView) }).meta({ id: 'ProviderList' });

export const pendingConnectionView = z
  .object({
    connection_id: connectionId,
    connect_url: z.url().describe('One-time URL for the end user: {base_url}/connectors/v1/connect/<token>'),
    expires_at: isoTimeSchema.describe('When the connect URL expires (10 minutes after it was issued)'),
  })
  .meta({ id: 'PendingConnection' });
export type PendingConnection = z.infer<typeof pendingConnectionView>;

export const connectionView = z
  .object({
    id: connectionId,
    provider: providerId,
    status: z.enum(CONNECTION_STATUSES),
    enabled: z.boolean().describe("Whether the connection's provider is on for the organization"),
    scope_tier: z.string(),
    account: z
      .object({ external_id: z.string(), email: z.string(), display_name: z.string() })
      .nullable()
      .describe('The provider account, once the connect flow has completed'),
    created_at: isoTimeSchema,
    updated_at: isoTimeSchema,
    pending_until: isoTimeSchema
      .optional()
      .describe(
        'Pending connections only: when its connect flow can no longer complete (the connect link and the flow it starts have both expired)',
      ),
    abandoned: z
      .boolean()
      .optional()
      .describe(
        'Pending connections only: true once pending_until has passed; the flow was never completed and cannot be',
      ),
  })
  .meta({ id: 'Connection' });
export type Connection = z.infer<typeof connectionView>;

export const connectionListView = snakeCasePage(connectionView).meta({ id: 'ConnectionList' });
export type ConnectionList = z.infer<typeof connectionListView>;

export const providerSettingView = z
  .object({ provider: providerId, enabled: z.boolean(), updated_at: isoTimeSchema })
  .meta({ id: 'ProviderSetting' });
export type ProviderSetting = z.infer<typeof providerSettingView>;

const jobStatus = z.enum(['processing', 'succeeded', 'failed']);

/** What DELETE ?purge=true answers at once: the purge job to poll. */
export const jobStartedView = z.object({ id: jobId, status: jobStatus }).meta({ id: 'JobStarted' });
export type JobStarted = z.infer<typeof jobStartedView>;

const jobCommon = {
  id: jobId,
  status: jobStatus,
  connection_id: connectionId,
  reason: z.string().optional().describe('Why the job failed'),
  created_at: isoTimeSchema,
  updated_at: isoTimeSchema,
  finished_at: isoTimeSchema.optional(),
};

export const purgeJobView = z
  .object({
    ...jobCommon,
    kind: z.literal('purge'),
    counts: z.object({
      deleted: z.int().min(0).describe('Imported documents deleted so far'),
      pages: z.int().min(0).describe('Pages of the ledger done so far'),
    }),
  })
  .meta({ id: 'PurgeJob' });
export type PurgeJob = z.infer<typeof purgeJobView>;

const count = (what: string) => z.int().min(0).describe(what);
const linkId = idSchema('lnk', 'an import link');
const vaultId = z.string().describe("The vault's id (the vault area's)");
/** A waiting job: why, and until when (the provider's rate limit, or backoff after a passing failure). */
const waiting = z
  .object({ reason: z.enum(['throttled', 'retrying']), until: isoTimeSchema })
  .optional()
  .describe('Present while the job waits before its next step');
const failureMessage = z.string().optional().describe('What the failure reason means, for people');

export const syncCountsView = z
  .object({
    listed: count('Provider files the run listed (new, changed, unchanged or deleted since the last pass)'),
    imported: count('Files imported as new vault documents'),
    updated: count('Vault documents given a changed file as their next version'),
    unchanged: count('Files already imported at their version'),
    failed: count('Files that could not be imported (listed in failures)'),
  })
  .meta({ id: 'SyncCounts' });

export const syncJobView = z
  .object({
    ...jobCommon,
    kind: z.literal('sync'),
    message: failureMessage,
    link_id: linkId,
    vault_id: vaultId,
    trigger: z.enum(['api', 'schedule']),
    counts: syncCountsView,
    failures: z
      .array(
        z.object({
          item_id: z.string().describe("The provider's id of the file"),
          name: z.string(),
          reason: z.enum(['too_large', 'not_found_at_provider']),
        }),
      )
      .describe('The first 20 files that could not be imported'),
    waiting,
  })
  .meta({ id: 'SyncRun' });
export type SyncJob = z.infer<typeof syncJobView>;

export const exportJobView = z
  .object({
    ...jobCommon,
    kind: z.literal('export'),
    message: failureMessage,
    vault_id: vaultId,
    destination: z.object({ id: z.string().describe("The provider container's id") }),
    counts: z.object({
      requested: count('Documents asked for (each once)'),
      exported: count('Documents uploaded'),
      unchanged: count('Documents whose version was already exported there'),
      failed: count('Documents that could not be exported (listed in failures)'),
    }),
    failures: z
      .array(z.object({ document_id: z.string(), reason: z.enum(['document_not_found', 'too_large']) }))
      .describe('The first 20 documents that could not be exported'),
    waiting,
  })
  .meta({ id: 'ExportJob' });
export type ExportJob = z.infer<typeof exportJobView>;

/** GET /connectors/jobs/{id}: a purge, an import run or an export, told apart by `kind`. */
export const connectorJobView = z
  .discriminatedUnion('kind', [purgeJobView, syncJobView, exportJobView])
  .meta({ id: 'ConnectorJob' });
export type ConnectorJob = z.infer<typeof connectorJobView>;

export const connectionDetailView = connectionView
  .extend({
    status_history: z
      .array(z.object({ status: z.enum(CONNECTION_STATUSES), at: isoTimeSchema }))
      .describe('The statuses the connection entered, newest first (the last 20, kept 90 days)'),
  })
  .meta({ id: 'ConnectionDetail' });
export type ConnectionDetail = z.infer<typeof connectionDetailView>;

export const sourceView = z
  .object({
    id: z
      .string()
      .describe("The provider's id: a container can be a link's source or an export's destination"),
    name: z.string(),
    kind: z.enum(['container', 'file']),
    size: z.int().min(0).optional(),
    version: z.string().optional(),
    content_type: z.string().optional(),
    updated_at: z.string().optional().describe('As the provider gave it'),
  })
  .meta({ id: 'Source' });
export type SourceView = z.infer<typeof sourceView>;

export const sourceListView = z
  .object({
    data: z.array(sourceView),
    next_page_token: z.string().nullable().describe('Pass as page_token for the next page; null at the end'),
  })
  .meta({ id: 'SourceList' });

export const importLinkView = z
  .object({
    id: linkId,
    connection_id: connectionId,
    vault_id: vaultId,
    source: z.object({
      id: z.string().describe("The provider container's id"),
      name: z.string().nullable().describe('The label given when the link was created'),
    }),
    schedule: z.object({ every_minutes: z.int().min(5) }).nullable(),
    status: z.enum(['idle', 'running']),
    active_run_id: jobId.nullable().describe('The run in flight (a job), if any'),
    last_run: z
      .object({
        job_id: jobId,
        status: jobStatus,
        reason: z.string().optional(),
        finished_at: isoTimeSchema,
        counts: syncCountsView,
      })
      .nullable(),
    next_run_at: isoTimeSchema.nullable().describe('When the schedule runs it next'),
    last_skipped: z
      .object({ at: isoTimeSchema, reason: z.string() })
      .nullable()
      .describe('The last scheduled run that did not start, and why'),
    created_at: isoTimeSchema,
    updated_at: isoTimeSchema,
  })
  .meta({ id: 'ImportLink' });
export type ImportLinkView = z.infer<typeof importLinkView>;

export const importLinkListView = snakeCasePage(importLinkView).meta({ id: 'ImportLinkList' });
export const syncRunListView = snakeCasePage(syncJobView).meta({ id: 'SyncRunList' });

export const linkDocumentView = z
  .object({
    document_id: z.string().describe('The vault document the provider file became'),
    vault_id: vaultId,
    source: z.object({
      id: z.string().describe("The provider's id of the file"),
      name: z.string(),
      version: z
        .string()
        .nullable()
        .describe('The provider version the document holds; null while importing'),
    }),
    vault_version: z.int().min(1).nullable(),
    status: z.enum(['importing', 'imported', 'deleted_at_source']),
    imported_at: isoTimeSchema,
    updated_at: isoTimeSchema,
  })
  .meta({ id: 'LinkDocument' });
export const linkDocumentListView = snakeCasePage(linkDocumentView).meta({ id: 'LinkDocumentList' });
