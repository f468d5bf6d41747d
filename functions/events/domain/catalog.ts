// The event-type catalog: every subscribable type, its `data` schema (zod, the single source of the
// published JSON Schema) and the permission a key needs to receive it. What publishing validates with;
// the descriptions of the types and their fields are in ./catalog-docs.ts, which only the catalog's
// readers load (GET /webhooks/v1/event-types, the OpenAPI generator), not every publisher (issue 27). Events about a vault or a matter
// carry vaultId / matterId, which is what resource scopes filter on. `data` is strict: a field the schema
// does not name is refused (400) at publish, as the published JSON Schema's additionalProperties: false says.
import * as z from 'zod/mini';
import type { Permission } from '../../platform/permissions';

export interface EventTypeDefinition {
  type: string;
  permission: Permission;
  data: z.ZodMiniObject;
}

const id = () => z.string().check(z.minLength(1));
const vaultId = id();
const matterId = id();
const failure = {
  errorCode: z.string(),
  message: z.string(),
};

const count = () => z.int().check(z.gte(0));
const syncRun = {
  connectionId: id(),
  provider: z.string(),
  linkId: id(),
  jobId: id(),
  vaultId,
};
const exportJob = {
  connectionId: id(),
  provider: z.string(),
  jobId: id(),
  vaultId,
  destinationId: id(),
};

/** `vault.ingest.completed` -> `VaultIngestCompletedData`: the data schema's name in the OpenAPI document. */
const dataSchemaName = (type: string): string =>
  type
    .split(/[._]/)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('') + 'Data';

const define = (type: string, permission: Permission, data: z.core.$ZodLooseShape): EventTypeDefinition => ({
  type,
  permission,
  data: z
    .strictObject(data)
    .clone()
    .register(z.globalRegistry, { id: dataSchemaName(type) }),
});

export const EVENT_TYPES: readonly EventTypeDefinition[] = [
  define('vault.ingest.completed', 'vaults:read', {
    vaultId,
    objectId: id(),
    durationMs: z.int().check(z.gte(0)),
    chunkCount: z.int().check(z.gte(0)),
  }),
  define('vault.ingest.failed', 'vaults:read', {
    vaultId,
    objectId: id(),
    ...failure,
  }),
  define('ocr.job.completed', 'ocr:read', {
    jobId: id(),
    vaultId,
    objectId: id(),
    pageCount: z.int().check(z.gte(0)),
  }),
  define('ocr.job.failed', 'ocr:read', {
    jobId: id(),
    vaultId,
    objectId: id(),
    ...failure,
  }),
  define('transcription.job.completed', 'transcription:read', {
    jobId: id(),
    vaultId,
    objectId: id(),
    durationMs: z.int().check(z.gte(0)),
    language: z.string(),
  }),
  define('transcription.job.failed', 'transcription:read', {
    jobId: id(),
    vaultId,
    objectId: id(),
    ...failure,
  }),
  define('matter.created', 'matters:read', {
    matterId,
    name: z.string(),
  }),
  define('matter.updated', 'matters:read', {
    matterId,
    changedFields: z.array(z.string()),
  }),
  define('billing.invoice.created', 'billing:read', {
    invoiceId: id(),
    amountDue: z.int().check(z.gte(0)),
    currency: z.string().check(z.length(3)),
  }),
  define('billing.payment.failed', 'billing:read', {
    invoiceId: id(),
    ...failure,
  }),
  define('deployment.succeeded', 'deployments:read', {
    deploymentId: id(),
    projectId: id(),
    environment: z.string(),
    url: z.string(),
  }),
  define('deployment.failed', 'deployments:read', {
    deploymentId: id(),
    projectId: id(),
    environment: z.string(),
    ...failure,
  }),
  define('connection.reauth_required', 'connectors:read', {
    connectionId: id(),
    provider: z.string(),
    status: z.literal('reauth_required'),
    previousStatus: z.string(),
  }),
  define('connection.revoked', 'connectors:read', {
    connectionId: id(),
    provider: z.string(),
    status: z.literal('revoked'),
    purge: z.boolean(),
  }),
  define('connector.sync.completed', 'connectors:read', {
    ...syncRun,
    listed: count(),
    imported: count(),
    updated: count(),
    unchanged: count(),
    failed: count(),
    deleted: count(),
  }),
  define('connector.document.deleted', 'connectors:read', {
    ...syncRun,
    objectId: id(),
    sourceId: id(),
    name: z.string(),
    removedFromVault: z.boolean(),
  }),
  define('connector.sync.failed', 'connectors:read', {
    ...syncRun,
    ...failure,
  }),
  define('connector.sync.skipped', 'connectors:read', { ...syncRun, ...failure }),
  define('connector.export.completed', 'connectors:read', {
    ...exportJob,
    requested: count(),
    exported: count(),
    unchanged: count(),
    skipped: count(),
    failed: count(),
  }),
  define('connector.export.failed', 'connectors:read', {
    ...exportJob,
    ...failure,
  }),
  define('webhook.test', 'webhooks:read', {
    endpointId: id(),
    message: z.string(),
  }),
  define('webhook.endpoint.disabled', 'webhooks:read', {
    endpointId: id(),
    url: z.string(),
    reason: z.string(),
  }),
];

const BY_TYPE = new Map(EVENT_TYPES.map((t) => [t.type, t]));

export const EVENT_TYPE_NAMES: readonly string[] = EVENT_TYPES.map((t) => t.type);

export function eventType(type: string): EventTypeDefinition | undefined {
  return BY_TYPE.get(type);
}
