// The connector resources as the API answers them: zod schemas the use cases' view types are inferred
// from, the route entries name as their responses, and the OpenAPI document shows (each `id` is its
// name under components.schemas).
import * as z from 'zod/mini';
import { isoTimeSchema } from '../../platform/clock';
import { idSchema } from '../../platform/ids';
import { snakeCaseCursorPage, snakeCasePage } from '../../platform/pagination';
import { CONNECTION_STATUSES } from '../domain/connection';
import { CONFLICT_POLICIES, EXPORT_FAILURE_REASONS } from '../domain/export-conflict';
import { PROVIDER_IDS } from '../domain/providers';

const connectionId = idSchema('conn', 'a connection');
const jobId = idSchema('job', 'a job');
const providerId = z.enum(PROVIDER_IDS);

export const providerView = z
  .object({
    id: providerId,
    display_name: z.string(),
    kind: z.enum(['practice_management', 'file_storage']),
    enabled: z.boolean().check(z.describe('Whether the provider is on for the organization')),
    default_scope_tier: z.string(),
    params: z
      .array(
        z.object({
          name: z.string(),
          kind: z.enum(['choice', 'host']),
          label: z.string(),
          description: z.string(),
          required: z
            .boolean()
            .check(z.describe('Whether it must be given (here or on the connect page): it has no default')),
          default: z.optional(z.string()),
          choices: z.optional(z.array(z.object({ value: z.string(), label: z.string() }))),
          example: z.optional(z.string().check(z.describe('A host: an example of the form it takes'))),
        }),
      )
      .check(
        z.describe(
          'What the provider must know before the consent (a region, a server): POST /connectors/v1/connections takes them as `params`; the connect page asks for those not given. Empty for most providers',
        ),
      ),
    scope_tiers: z.array(
      z.object({
        name: z.string(),
        description: z.string(),
        scopes: z.array(z.string()).check(z.describe('Scopes asked for at consent')),
        required_scopes: z.array(z.string()).check(z.describe('Scopes the user must grant')),
      }),
    ),
  })
  .clone()
  .register(z.globalRegistry, { id: 'Provider' });
export type ProviderView = z.infer<typeof providerView>;

export const providerListView = z
  .object({ data: z.array(providerView) })
  .clone()
  .register(z.globalRegistry, { id: 'ProviderList' });

export const pendingConnectionView = z
  .object({
    connection_id: connectionId,
    connect_url: z
      .url()
      .check(z.describe('One-time URL for the end user: {base_url}/connectors/v1/connect/<token>')),
    expires_at: isoTimeSchema().check(
      z.describe('When the connect URL expires (10 minutes after it was issued)'),
    ),
  })
  .clone()
  .register(z.globalRegistry, { id: 'PendingConnection' });
export type PendingConnection = z.infer<typeof pendingConnectionView>;

export const connectionView = z
  .object({
    id: connectionId,
    provider: providerId,
    status: z.enum(CONNECTION_STATUSES),
    enabled: z.boolean().check(z.describe("Whether the connection's provider is on for the organization")),
    scope_tier: z.string(),
    params: z
      .optional(z.record(z.string(), z.string()))
      .check(
        z.describe(
          "The connection's params (its region or server): as given while pending, every one once connected",
        ),
      ),
    account: z
      .nullable(z.object({ external_id: z.string(), email: z.string(), display_name: z.string() }))
      .check(z.describe('The provider account, once the connect flow has completed')),
    created_at: isoTimeSchema(),
    updated_at: isoTimeSchema(),
    pending_until: z
      .optional(isoTimeSchema())
      .check(
        z.describe(
          'Pending connections only: when its connect flow can no longer complete (the connect link and the flow it starts have both expired)',
        ),
      ),
    abandoned: z
      .optional(z.boolean())
      .check(
        z.describe(
          'Pending connections only: true once pending_until has passed; the flow was never completed and cannot be',
        ),
      ),
  })
  .clone()
  .register(z.globalRegistry, { id: 'Connection' });
export type Connection = z.infer<typeof connectionView>;

export const connectionListView = snakeCasePage(connectionView)
  .clone()
  .register(z.globalRegistry, { id: 'ConnectionList' });
export type ConnectionList = z.infer<typeof connectionListView>;

export const providerSettingView = z
  .object({
    provider: providerId,
    enabled: z.boolean(),
    allowed_hosts: z
      .optional(z.array(z.string()))
      .check(z.describe("The hosts the organization's connections may name (providers with a server param)")),
    updated_at: isoTimeSchema(),
  })
  .clone()
  .register(z.globalRegistry, { id: 'ProviderSetting' });
export type ProviderSetting = z.infer<typeof providerSettingView>;

const jobStatus = z
  .enum(['processing', 'succeeded', 'failed', 'skipped'])
  .check(
    z.describe(
      'skipped: an import run the schedule did not start (reason says why; nothing was read or written)',
    ),
  );

/** What DELETE ?purge=true answers at once: the purge job to poll. */
export const jobStartedView = z
  .object({ id: jobId, status: jobStatus })
  .clone()
  .register(z.globalRegistry, { id: 'JobStarted' });
export type JobStarted = z.infer<typeof jobStartedView>;

const jobCommon = {
  id: jobId,
  status: jobStatus,
  connection_id: connectionId,
  reason: z.optional(z.string()).check(z.describe('Why the job failed')),
  created_at: isoTimeSchema(),
  updated_at: isoTimeSchema(),
  finished_at: z.optional(isoTimeSchema()),
};

export const purgeJobView = z
  .object({
    ...jobCommon,
    kind: z.literal('purge'),
    counts: z.object({
      deleted: z.int().check(z.gte(0)).check(z.describe('Imported documents deleted so far')),
      pages: z.int().check(z.gte(0)).check(z.describe('Pages of the ledger done so far')),
    }),
  })
  .clone()
  .register(z.globalRegistry, { id: 'PurgeJob' });
export type PurgeJob = z.infer<typeof purgeJobView>;

const count = (what: string) => z.int().check(z.gte(0)).check(z.describe(what));
const linkId = idSchema('lnk', 'an import link');
const vaultId = z.string().check(z.describe("The vault's id (the vault area's)"));
/** A waiting job: why, and until when (the provider's rate limit, or backoff after a passing failure). */
const waiting = z
  .optional(z.object({ reason: z.enum(['throttled', 'retrying']), until: isoTimeSchema() }))
  .check(z.describe('Present while the job waits before its next step'));
const failureMessage = z.optional(z.string()).check(z.describe('What the failure reason means, for people'));

export const syncCountsView = z
  .object({
    listed: count('Provider files the run listed (new, changed, unchanged or deleted since the last pass)'),
    imported: count('Files imported as new vault documents'),
    updated: count('Vault documents given a changed file as their next version'),
    unchanged: count('Files already imported at their version'),
    failed: count('Files that could not be imported (listed in failures)'),
    deleted: count(
      'Files deleted at the provider whose documents this run marked deleted (and removed, by the link policy)',
    ),
  })
  .clone()
  .register(z.globalRegistry, { id: 'SyncCounts' });

export const syncJobView = z
  .object({
    ...jobCommon,
    kind: z.literal('sync'),
    message: failureMessage,
    link_id: linkId,
    vault_id: vaultId,
    trigger: z.enum(['api', 'schedule']),
    mode: z
      .enum(['changes', 'full'])
      .check(
        z.describe(
          "changes: from the link's cursor; full: every file of the source, then documents it no longer holds marked deleted",
        ),
      ),
    mode_reason: z.optional(
      z
        .enum(['requested', 'feed_restarted', 'reconcile_due'])
        .check(
          z.describe(
            "Why the run is full: asked for; the provider would not continue from the link's cursor (the run became full); the link's reconcile period (reconcile_every_hours) ran out",
          ),
        ),
    ),
    counts: syncCountsView,
    failures: z
      .array(
        z.object({
          item_id: z.string().check(z.describe("The provider's id of the file")),
          name: z.string(),
          reason: z.enum(['too_large', 'not_found_at_provider']),
        }),
      )
      .check(z.describe('The first 20 files that could not be imported')),
    waiting,
  })
  .clone()
  .register(z.globalRegistry, { id: 'SyncRun' });
export type SyncJob = z.infer<typeof syncJobView>;

export const exportJobView = z
  .object({
    ...jobCommon,
    kind: z.literal('export'),
    message: failureMessage,
    vault_id: vaultId,
    destination: z.object({ id: z.string().check(z.describe("The provider container's id")) }),
    conflict: z
      .enum(CONFLICT_POLICIES)
      .check(z.describe('What the export does with a name already taken at the destination')),
    counts: z.object({
      requested: count('Documents asked for (each once)'),
      exported: count('Documents uploaded'),
      unchanged: count('Documents whose version was already exported there'),
      skipped: count('Documents left out because their name was taken (conflict: skip)'),
      failed: count('Documents that could not be exported (listed in failures)'),
    }),
    failures: z
      .array(
        z.object({
          document_id: z.string(),
          reason: z.enum(EXPORT_FAILURE_REASONS),
          message: z.optional(z.string().check(z.describe('What went wrong, for people'))),
        }),
      )
      .check(z.describe('The first 20 documents that could not be exported, each with its reason')),
    waiting,
  })
  .clone()
  .register(z.globalRegistry, { id: 'ExportJob' });
export type ExportJob = z.infer<typeof exportJobView>;

/** GET /connectors/jobs/{id}: a purge, an import run or an export, told apart by `kind`. */
export const connectorJobView = z
  .discriminatedUnion('kind', [purgeJobView, syncJobView, exportJobView])
  .clone()
  .register(z.globalRegistry, { id: 'ConnectorJob' });
export type ConnectorJob = z.infer<typeof connectorJobView>;

export const connectionDetailView = z
  .extend(connectionView, {
    status_history: z
      .array(z.object({ status: z.enum(CONNECTION_STATUSES), at: isoTimeSchema() }))
      .check(z.describe('The statuses the connection entered, newest first (the last 20, kept 90 days)')),
  })
  .clone()
  .register(z.globalRegistry, { id: 'ConnectionDetail' });
export type ConnectionDetail = z.infer<typeof connectionDetailView>;

export const sourceView = z
  .object({
    id: z
      .string()
      .check(z.describe("The provider's id: a container can be a link's source or an export's destination")),
    name: z.string(),
    kind: z.enum(['container', 'file']),
    size: z.optional(z.int().check(z.gte(0))),
    version: z.optional(z.string()),
    content_type: z.optional(z.string()),
    updated_at: z.optional(z.string()).check(z.describe('As the provider gave it')),
  })
  .clone()
  .register(z.globalRegistry, { id: 'Source' });
export type SourceView = z.infer<typeof sourceView>;

export const sourceListView = z
  .object({
    data: z.array(sourceView),
    next_page_token: z
      .nullable(z.string())
      .check(z.describe('Pass as page_token for the next page; null at the end')),
  })
  .clone()
  .register(z.globalRegistry, { id: 'SourceList' });

export const importLinkView = z
  .object({
    id: linkId,
    connection_id: connectionId,
    vault_id: vaultId,
    source: z.object({
      id: z.string().check(z.describe("The provider container's id")),
      name: z.nullable(z.string()).check(z.describe('The label given when the link was created')),
    }),
    label: z.nullable(z.string()).check(z.describe("The link's own label, for people")),
    on_source_delete: z
      .enum(['keep', 'remove'])
      .check(
        z.describe(
          'A file deleted at the provider: its document is kept and marked deleted_at_source (keep), or removed from the vault (remove)',
        ),
      ),
    schedule: z.nullable(z.object({ every_minutes: z.int().check(z.gte(5)) })),
    reconcile_every_hours: z
      .int()
      .check(
        z.describe(
          'A run is a full (reconciling) run once this many hours passed since the last one: the most a changes run can lag its source',
        ),
      ),
    paused: z
      .boolean()
      .check(z.describe('A paused link is out of its schedule and refuses new runs until resumed')),
    status: z
      .enum(['idle', 'running', 'source_missing'])
      .check(
        z.describe(
          'source_missing: the linked container is gone at the provider (its documents show as source_missing); a run that finds it again brings the link back',
        ),
      ),
    active_run_id: z.nullable(jobId).check(z.describe('The run in flight (a job), if any')),
    last_run: z.nullable(
      z.object({
        job_id: jobId,
        status: jobStatus,
        reason: z.optional(z.string()),
        finished_at: isoTimeSchema(),
        counts: syncCountsView,
      }),
    ),
    next_run_at: z.nullable(isoTimeSchema()).check(z.describe('When the schedule runs it next')),
    last_skipped: z
      .nullable(z.object({ at: isoTimeSchema(), reason: z.string() }))
      .check(z.describe('The last scheduled run that did not start, and why')),
    created_at: isoTimeSchema(),
    updated_at: isoTimeSchema(),
  })
  .clone()
  .register(z.globalRegistry, { id: 'ImportLink' });
export type ImportLinkView = z.infer<typeof importLinkView>;

export const importLinkListView = snakeCasePage(importLinkView)
  .clone()
  .register(z.globalRegistry, { id: 'ImportLinkList' });
export const syncRunListView = snakeCaseCursorPage(syncJobView)
  .clone()
  .register(z.globalRegistry, { id: 'SyncRunList' });

export const linkDocumentView = z
  .object({
    document_id: z.string().check(z.describe('The vault document the provider file became')),
    vault_id: vaultId,
    source: z.object({
      id: z.string().check(z.describe("The provider's id of the file")),
      name: z.string(),
      version: z
        .nullable(z.string())
        .check(z.describe('The provider version the document holds; null while importing')),
    }),
    vault_version: z.nullable(z.int().check(z.gte(1))),
    status: z
      .enum(['importing', 'imported', 'deleted_at_source', 'removed_from_vault', 'source_missing'])
      .check(
        z.describe(
          "deleted_at_source: the file is gone at the provider and the document kept; removed_from_vault: gone, and the link policy removed the document; source_missing: the link's container is gone at the provider (the document is kept, and shown live again once a run finds the container)",
        ),
      ),
    imported_at: isoTimeSchema(),
    updated_at: isoTimeSchema(),
  })
  .clone()
  .register(z.globalRegistry, { id: 'LinkDocument' });
export const linkDocumentListView = snakeCaseCursorPage(linkDocumentView)
  .clone()
  .register(z.globalRegistry, { id: 'LinkDocumentList' });
