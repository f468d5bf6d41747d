// The event-type catalog: every subscribable type, its `data` schema (zod, the single source of the
// published JSON Schema) and the permission a key needs to receive it. Events about a vault or a matter
// carry vaultId / matterId, which is what resource scopes filter on. `data` is strict: a field the schema
// does not name is refused (400) at publish, as the published JSON Schema's additionalProperties: false says.
import * as z from 'zod/mini';
import type { Permission } from '../../platform/permissions';
import { PERMISSIONS } from '../../platform/permissions';

export interface EventTypeDefinition {
  type: string;
  description: string;
  permission: Permission;
  data: z.ZodMiniObject;
}

const id = (what: string) =>
  z
    .string()
    .check(z.minLength(1))
    .check(z.describe(`Identifier of the ${what}`));
const vaultId = id('vault');
const matterId = id('matter');
const failure = {
  errorCode: z.string().check(z.describe('Machine-readable reason')),
  message: z.string().check(z.describe('Human-readable reason')),
};

const count = (what: string) => z.int().check(z.gte(0)).check(z.describe(what));
const syncRun = {
  connectionId: id('connection'),
  provider: z.string().check(z.describe('Provider identifier')),
  linkId: id('import link'),
  jobId: id('run (a connector job)'),
  vaultId,
};
const exportJob = {
  connectionId: id('connection'),
  provider: z.string().check(z.describe('Provider identifier')),
  jobId: id('export (a connector job)'),
  vaultId,
  destinationId: id('provider container the documents went to'),
};

/** `vault.ingest.completed` -> `VaultIngestCompletedData`: the data schema's name in the OpenAPI document. */
const dataSchemaName = (type: string): string =>
  type
    .split(/[._]/)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('') + 'Data';

const define = (
  type: string,
  permission: Permission,
  description: string,
  data: z.core.$ZodLooseShape,
): EventTypeDefinition => ({
  type,
  permission,
  description,
  data: z
    .strictObject(data)
    .clone()
    .register(z.globalRegistry, { id: dataSchemaName(type), description: `data of ${type}: ${description}` }),
});

export const EVENT_TYPES: readonly EventTypeDefinition[] = [
  define('vault.ingest.completed', 'vaults:read', 'Ingestion of a vault object finished', {
    vaultId,
    objectId: id('vault object'),
    durationMs: z.int().check(z.gte(0)).check(z.describe('Ingestion time in milliseconds')),
    chunkCount: z.int().check(z.gte(0)).check(z.describe('Chunks the object was split into')),
  }),
  define('vault.ingest.failed', 'vaults:read', 'Ingestion of a vault object failed', {
    vaultId,
    objectId: id('vault object'),
    ...failure,
  }),
  define('ocr.job.completed', 'ocr:read', 'An OCR job finished', {
    jobId: id('OCR job'),
    vaultId,
    objectId: id('vault object'),
    pageCount: z.int().check(z.gte(0)),
  }),
  define('ocr.job.failed', 'ocr:read', 'An OCR job failed', {
    jobId: id('OCR job'),
    vaultId,
    objectId: id('vault object'),
    ...failure,
  }),
  define('transcription.job.completed', 'transcription:read', 'A transcription job finished', {
    jobId: id('transcription job'),
    vaultId,
    objectId: id('vault object'),
    durationMs: z.int().check(z.gte(0)).check(z.describe('Length of the transcribed media in milliseconds')),
    language: z.string().check(z.describe('BCP 47 language tag detected or requested')),
  }),
  define('transcription.job.failed', 'transcription:read', 'A transcription job failed', {
    jobId: id('transcription job'),
    vaultId,
    objectId: id('vault object'),
    ...failure,
  }),
  define('matter.created', 'matters:read', 'A matter was created', {
    matterId,
    name: z.string(),
  }),
  define('matter.updated', 'matters:read', 'A matter changed', {
    matterId,
    changedFields: z.array(z.string()).check(z.describe('Names of the fields that changed')),
  }),
  define('billing.invoice.created', 'billing:read', 'An invoice was issued to the organization', {
    invoiceId: id('invoice'),
    amountDue: z.int().check(z.gte(0)).check(z.describe('Amount due in the smallest unit of the currency')),
    currency: z.string().check(z.length(3)).check(z.describe('ISO 4217 currency code')),
  }),
  define('billing.payment.failed', 'billing:read', 'A payment for an invoice failed', {
    invoiceId: id('invoice'),
    ...failure,
  }),
  define('deployment.succeeded', 'deployments:read', 'A deployment finished and is live', {
    deploymentId: id('deployment'),
    projectId: id('application project'),
    environment: z.string(),
    url: z.string().check(z.describe('Address the deployment serves on')),
  }),
  define('deployment.failed', 'deployments:read', 'A deployment failed', {
    deploymentId: id('deployment'),
    projectId: id('application project'),
    environment: z.string(),
    ...failure,
  }),
  define(
    'connection.reauth_required',
    'connectors:read',
    'A connection needs the user to run the connect flow again',
    {
      connectionId: id('connection'),
      provider: z.string().check(z.describe('Provider identifier')),
      status: z.literal('reauth_required'),
      previousStatus: z.string().check(z.describe('Status before the change')),
    },
  ),
  define('connection.revoked', 'connectors:read', 'A connection was revoked (disconnected)', {
    connectionId: id('connection'),
    provider: z.string().check(z.describe('Provider identifier')),
    status: z.literal('revoked'),
    purge: z
      .boolean()
      .check(z.describe('Whether documents imported through the connection are being deleted')),
  }),
  define('connector.sync.completed', 'connectors:read', 'An import run of an import link finished its pass', {
    ...syncRun,
    listed: count('Provider files listed (new, changed, unchanged or deleted since the last pass)'),
    imported: count('Files imported as new vault documents'),
    updated: count('Vault documents updated with a changed file'),
    unchanged: count('Files already imported at their current version'),
    failed: count('Files that could not be imported (too large, gone at the provider)'),
    deleted: count('Files deleted at the provider whose documents the run marked deleted'),
  }),
  define(
    'connector.document.deleted',
    'connectors:read',
    "A file an import link brought in was deleted at the provider: its document is marked (and removed from the vault when the link's policy says so)",
    {
      ...syncRun,
      objectId: id('vault document the file had become'),
      sourceId: id("provider's file"),
      name: z.string().check(z.describe('The file name when last seen')),
      removedFromVault: z
        .boolean()
        .check(
          z.describe("Whether the document was removed from the vault (the link's on_source_delete policy)"),
        ),
    },
  ),
  define('connector.sync.failed', 'connectors:read', 'An import run of an import link failed', {
    ...syncRun,
    ...failure,
  }),
  define(
    'connector.sync.skipped',
    'connectors:read',
    "A scheduled import run did not start (errorCode says why: the provider turned off, the connection needing the user, the previous run still going); the link's runs list shows it as skipped",
    { ...syncRun, ...failure },
  ),
  define(
    'connector.export.completed',
    'connectors:read',
    'An export of vault documents to a provider finished',
    {
      ...exportJob,
      requested: count('Documents asked for'),
      exported: count('Documents uploaded'),
      unchanged: count('Documents whose version was already exported there'),
      skipped: count('Documents left out because their name was taken there (conflict: skip)'),
      failed: count(
        'Documents that could not be exported (missing, too large, a name refused or taken, refused by the provider)',
      ),
    },
  ),
  define('connector.export.failed', 'connectors:read', 'An export of vault documents to a provider failed', {
    ...exportJob,
    ...failure,
  }),
  define(
    'webhook.test',
    'webhooks:read',
    'Sent on request to check that an endpoint receives and verifies events',
    {
      endpointId: id('webhook endpoint'),
      message: z.string(),
    },
  ),
  define(
    'webhook.endpoint.disabled',
    'webhooks:read',
    'An endpoint was disabled after repeated delivery failures',
    {
      endpointId: id('webhook endpoint'),
      url: z.string(),
      reason: z.string().check(z.describe('Why it was disabled')),
    },
  ),
];

const BY_TYPE = new Map(EVENT_TYPES.map((t) => [t.type, t]));

export const EVENT_TYPE_NAMES: readonly string[] = EVENT_TYPES.map((t) => t.type);

export function eventType(type: string): EventTypeDefinition | undefined {
  return BY_TYPE.get(type);
}

/** A catalog entry as GET /webhooks/v1/event-types shows it. */
export const publishedEventTypeView = z
  .object({
    type: z.string(),
    description: z.string(),
    permission: z.enum(PERMISSIONS).check(z.describe('The permission a key needs to receive it')),
    schema: z.record(z.string(), z.unknown()).check(z.describe("JSON Schema of the event's data")),
  })
  .clone()
  .register(z.globalRegistry, { id: 'EventType' });
export type PublishedEventType = z.infer<typeof publishedEventTypeView>;

let published: PublishedEventType[] | undefined;

/** A data schema as standalone JSON Schema: inline, although its id makes zod emit a $ref to $defs. */
function standalone(data: z.ZodMiniObject): Record<string, unknown> {
  const { $ref, $defs, ...rest } = z.toJSONSchema(data) as Record<string, unknown> & {
    $ref?: string;
    $defs?: Record<string, Record<string, unknown>>;
  };
  const name = $ref?.replace('#/$defs/', '');
  return name && $defs?.[name] ? { ...rest, ...$defs[name] } : rest;
}

/** The catalog as the API shows it, with each `data` schema as JSON Schema. */
export function publishedCatalog(): PublishedEventType[] {
  published ??= EVENT_TYPES.map(({ type, description, permission, data }) => ({
    type,
    description,
    permission,
    schema: standalone(data),
  }));
  return published;
}
