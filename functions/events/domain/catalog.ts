// The event-type catalog: every subscribable type, its `data` schema (zod, the single source of the
// published JSON Schema) and the permission a key needs to receive it. What publishing validates with;
// the descriptions of the types and their fields are in ./catalog-docs.ts, which only the catalog's
// readers load (GET /webhooks/v1/event-types, the OpenAPI generator), not every publisher. Events about a vault or a matter
// carry vaultId / matterId, which is what resource scopes filter on. `data` is strict: a field the schema
// does not name is refused (400) at publish, as the published JSON Schema's additionalProperties: false says.
import * as z from 'zod/mini';
import { lazy } from '../../platform/lazy';
import type { Permission } from '../../platform/permissions';

export interface EventTypeDefinition {
  type: string;
  permission: Permission;
  /** Built on first read. */
  readonly data: z.ZodMiniObject;
}

const id = () => z.string().check(z.minLength(1));
const count = () => z.int().check(z.gte(0));
// Built on the first schema's use (platform/lazy.ts), shared by every type that names them, as before.
const shared = lazy(() => {
  const vaultId = id();
  return {
    vaultId,
    matterId: id(),
    failure: { errorCode: z.string(), message: z.string() },
    syncRun: { connectionId: id(), provider: z.string(), linkId: id(), jobId: id(), vaultId },
    exportJob: { connectionId: id(), provider: z.string(), jobId: id(), vaultId, destinationId: id() },
  };
});

/** `vault.ingest.completed` -> `VaultIngestCompletedData`: the data schema's name in the OpenAPI document. */
const dataSchemaName = (type: string): string =>
  type
    .split(/[._]/)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('') + 'Data';

type Shared = ReturnType<typeof shared>;

/**
 * A type whose `data` schema is built when first read: a publisher validates one or two types, and a
 * module that only names types (filters, permissions) builds none.
 */
const define = (
  type: string,
  permission: Permission,
  shape: (s: Shared) => z.core.$ZodLooseShape,
): EventTypeDefinition => {
  const data = lazy(() =>
    z
      .strictObject(shape(shared()))
      .clone()
      .register(z.globalRegistry, { id: dataSchemaName(type) }),
  );
  return {
    type,
    permission,
    get data() {
      return data();
    },
  };
};

export const EVENT_TYPES: readonly EventTypeDefinition[] = [
  define('vault.ingest.completed', 'vaults:read', (s) => ({
    vaultId: s.vaultId,
    objectId: id(),
    durationMs: z.int().check(z.gte(0)),
    chunkCount: z.int().check(z.gte(0)),
  })),
  define('vault.ingest.failed', 'vaults:read', (s) => ({
    vaultId: s.vaultId,
    objectId: id(),
    ...s.failure,
  })),
  define('ocr.job.completed', 'ocr:read', (s) => ({
    jobId: id(),
    vaultId: s.vaultId,
    objectId: id(),
    pageCount: z.int().check(z.gte(0)),
  })),
  define('ocr.job.failed', 'ocr:read', (s) => ({
    jobId: id(),
    vaultId: s.vaultId,
    objectId: id(),
    ...s.failure,
  })),
  define('transcription.job.completed', 'transcription:read', (s) => ({
    jobId: id(),
    vaultId: s.vaultId,
    objectId: id(),
    durationMs: z.int().check(z.gte(0)),
    language: z.string(),
  })),
  define('transcription.job.failed', 'transcription:read', (s) => ({
    jobId: id(),
    vaultId: s.vaultId,
    objectId: id(),
    ...s.failure,
  })),
  define('matter.created', 'matters:read', (s) => ({
    matterId: s.matterId,
    name: z.string(),
  })),
  define('matter.updated', 'matters:read', (s) => ({
    matterId: s.matterId,
    changedFields: z.array(z.string()),
  })),
  define('billing.invoice.created', 'billing:read', () => ({
    invoiceId: id(),
    amountDue: z.int().check(z.gte(0)),
    currency: z.string().check(z.length(3)),
  })),
  define('billing.payment.failed', 'billing:read', (s) => ({
    invoiceId: id(),
    ...s.failure,
  })),
  define('deployment.succeeded', 'deployments:read', () => ({
    deploymentId: id(),
    projectId: id(),
    environment: z.string(),
    url: z.string(),
  })),
  define('deployment.failed', 'deployments:read', (s) => ({
    deploymentId: id(),
    projectId: id(),
    environment: z.string(),
    ...s.failure,
  })),
  define('connection.reauth_required', 'connectors:read', () => ({
    connectionId: id(),
    provider: z.string(),
    status: z.literal('reauth_required'),
    previousStatus: z.string(),
  })),
  define('connection.revoked', 'connectors:read', () => ({
    connectionId: id(),
    provider: z.string(),
    status: z.literal('revoked'),
    purge: z.boolean(),
  })),
  define('connector.sync.completed', 'connectors:read', (s) => ({
    ...s.syncRun,
    mode: z.enum(['changes', 'full']),
    modeReason: z.optional(z.enum(['requested', 'feed_restarted', 'reconcile_due'])),
    listed: count(),
    imported: count(),
    updated: count(),
    unchanged: count(),
    failed: count(),
    deleted: count(),
  })),
  define('connector.link.source_missing', 'connectors:read', (s) => ({ ...s.syncRun, sourceId: id() })),
  define('connector.link.source_restored', 'connectors:read', (s) => ({ ...s.syncRun, sourceId: id() })),
  define('connector.document.deleted', 'connectors:read', (s) => ({
    ...s.syncRun,
    objectId: id(),
    sourceId: id(),
    name: z.string(),
    removedFromVault: z.boolean(),
  })),
  define('connector.sync.failed', 'connectors:read', (s) => ({
    ...s.syncRun,
    ...s.failure,
  })),
  define('connector.sync.skipped', 'connectors:read', (s) => ({ ...s.syncRun, ...s.failure })),
  define('connector.export.completed', 'connectors:read', (s) => ({
    ...s.exportJob,
    requested: count(),
    exported: count(),
    unchanged: count(),
    skipped: count(),
    failed: count(),
  })),
  define('connector.export.failed', 'connectors:read', (s) => ({
    ...s.exportJob,
    ...s.failure,
  })),
  define('webhook.test', 'webhooks:read', () => ({
    endpointId: id(),
    message: z.string(),
  })),
  define('webhook.endpoint.disabled', 'webhooks:read', () => ({
    endpointId: id(),
    url: z.string(),
    reason: z.string(),
  })),
];

const BY_TYPE = new Map(EVENT_TYPES.map((t) => [t.type, t]));

export const EVENT_TYPE_NAMES: readonly string[] = EVENT_TYPES.map((t) => t.type);

export function eventType(type: string): EventTypeDefinition | undefined {
  return BY_TYPE.get(type);
}
