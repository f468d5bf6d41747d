// The connector resources as the API answers them: zod schemas the use cases' view types are inferred
// from, the route entries name as their responses, and the OpenAPI document shows (each `id` is its
// name under components.schemas).
import * as z from 'zod';
import { isoTimeSchema } from '../../platform/clock';
import { idSchema } from '../../platform/ids';
import { snakeCasePage } from '../../platform/pagination';
import { CONNECTION_STATUSES } from './connection';
import { PROVIDER_IDS } from './providers';

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

export const connectorJobView = z
  .object({
    id: jobId,
    kind: z.literal('purge'),
    status: jobStatus,
    connection_id: connectionId,
    counts: z.object({
      deleted: z.int().min(0).describe('Imported documents deleted so far'),
      pages: z.int().min(0).describe('Pages of the ledger done so far'),
    }),
    reason: z.string().optional().describe('Why the job failed'),
    created_at: isoTimeSchema,
    updated_at: isoTimeSchema,
    finished_at: isoTimeSchema.optional(),
  })
  .meta({ id: 'ConnectorJob' });
export type ConnectorJob = z.infer<typeof connectorJobView>;
