// The event-type catalog's documentation: what each type means and what each field of its `data` is.
// GET /webhooks/v1/event-types and the OpenAPI document show it; publishing does not read it, so it is
// kept out of ./catalog.ts and of the bundles of every function that publishes.
import * as z from 'zod/mini';
import { lazy } from '../../platform/lazy';
import { PERMISSIONS } from '../../platform/permissions';
import { EVENT_TYPES } from './catalog';

interface EventTypeDocs {
  description: string;
  /** Descriptions of `data`'s fields, by name (a field may have none). */
  fields: Record<string, string>;
}

/** By type, for every type of the catalog. */
export const EVENT_TYPE_DOCS: Readonly<Record<string, EventTypeDocs>> = {
  'vault.ingest.completed': {
    description: 'Ingestion of a vault object finished',
    fields: {
      vaultId: 'Identifier of the vault',
      objectId: 'Identifier of the vault object',
      durationMs: 'Ingestion time in milliseconds',
      chunkCount: 'Chunks the object was split into',
    },
  },
  'vault.ingest.failed': {
    description: 'Ingestion of a vault object failed',
    fields: {
      vaultId: 'Identifier of the vault',
      objectId: 'Identifier of the vault object',
      errorCode: 'Machine-readable reason',
      message: 'Human-readable reason',
    },
  },
  'ocr.job.completed': {
    description: 'An OCR job finished',
    fields: {
      jobId: 'Identifier of the OCR job',
      vaultId: 'Identifier of the vault',
      objectId: 'Identifier of the vault object',
    },
  },
  'ocr.job.failed': {
    description: 'An OCR job failed',
    fields: {
      jobId: 'Identifier of the OCR job',
      vaultId: 'Identifier of the vault',
      objectId: 'Identifier of the vault object',
      errorCode: 'Machine-readable reason',
      message: 'Human-readable reason',
    },
  },
  'transcription.job.completed': {
    description: 'A transcription job finished',
    fields: {
      jobId: 'Identifier of the transcription job',
      vaultId: 'Identifier of the vault',
      objectId: 'Identifier of the vault object',
      durationMs: 'Length of the transcribed media in milliseconds',
      language: 'BCP 47 language tag detected or requested',
    },
  },
  'transcription.job.failed': {
    description: 'A transcription job failed',
    fields: {
      jobId: 'Identifier of the transcription job',
      vaultId: 'Identifier of the vault',
      objectId: 'Identifier of the vault object',
      errorCode: 'Machine-readable reason',
      message: 'Human-readable reason',
    },
  },
  'matter.created': {
    description: 'A matter was created',
    fields: {
      matterId: 'Identifier of the matter',
    },
  },
  'matter.updated': {
    description: 'A matter changed',
    fields: {
      matterId: 'Identifier of the matter',
      changedFields: 'Names of the fields that changed',
    },
  },
  'billing.invoice.created': {
    description: 'An invoice was issued to the organization',
    fields: {
      invoiceId: 'Identifier of the invoice',
      amountDue: 'Amount due in the smallest unit of the currency',
      currency: 'ISO 4217 currency code',
    },
  },
  'billing.payment.failed': {
    description: 'A payment for an invoice failed',
    fields: {
      invoiceId: 'Identifier of the invoice',
      errorCode: 'Machine-readable reason',
      message: 'Human-readable reason',
    },
  },
  'deployment.succeeded': {
    description: 'A deployment finished and is live',
    fields: {
      deploymentId: 'Identifier of the deployment',
      projectId: 'Identifier of the application project',
      url: 'Address the deployment serves on',
    },
  },
  'deployment.failed': {
    description: 'A deployment failed',
    fields: {
      deploymentId: 'Identifier of the deployment',
      projectId: 'Identifier of the application project',
      errorCode: 'Machine-readable reason',
      message: 'Human-readable reason',
    },
  },
  'connection.reauth_required': {
    description: 'A connection needs the user to run the connect flow again',
    fields: {
      connectionId: 'Identifier of the connection',
      provider: 'Provider identifier',
      previousStatus: 'Status before the change',
    },
  },
  'connection.revoked': {
    description: 'A connection was revoked (disconnected)',
    fields: {
      connectionId: 'Identifier of the connection',
      provider: 'Provider identifier',
      purge: 'Whether documents imported through the connection are being deleted',
    },
  },
  'connector.link.source_missing': {
    description:
      "An import link's container is gone at the provider (deleted, moved out of reach, access revoked): the link is source_missing and its documents no longer show as live",
    fields: {
      connectionId: 'Identifier of the connection',
      provider: 'Provider identifier',
      linkId: 'Identifier of the import link',
      jobId: 'Identifier of the run that found it gone',
      vaultId: 'Identifier of the vault',
      sourceId: "The provider's id of the linked container",
    },
  },
  'connector.link.source_restored': {
    description:
      "An import link's container is back at the provider: a run succeeded and the link left source_missing",
    fields: {
      connectionId: 'Identifier of the connection',
      provider: 'Provider identifier',
      linkId: 'Identifier of the import link',
      jobId: 'Identifier of the run that found it again',
      vaultId: 'Identifier of the vault',
      sourceId: "The provider's id of the linked container",
    },
  },
  'connector.sync.completed': {
    description: 'An import run of an import link finished its pass',
    fields: {
      connectionId: 'Identifier of the connection',
      provider: 'Provider identifier',
      linkId: 'Identifier of the import link',
      jobId: 'Identifier of the run (a connector job)',
      vaultId: 'Identifier of the vault',
      mode: "changes: from the link's cursor; full: every file of the source, then a reconcile of the link's documents",
      modeReason:
        "Why the run was full: requested, feed_restarted (the provider would not continue from the link's cursor), reconcile_due (the link's reconcile period ran out)",
      listed: 'Provider files listed (new, changed, unchanged or deleted since the last pass)',
      imported: 'Files imported as new vault documents',
      updated: 'Vault documents updated with a changed file',
      unchanged: 'Files already imported at their current version',
      failed: 'Files that could not be imported (too large, gone at the provider)',
      deleted: 'Files deleted at the provider whose documents the run marked deleted',
    },
  },
  'connector.document.deleted': {
    description:
      "A file an import link brought in was deleted at the provider: its document is marked (and removed from the vault when the link's policy says so)",
    fields: {
      connectionId: 'Identifier of the connection',
      provider: 'Provider identifier',
      linkId: 'Identifier of the import link',
      jobId: 'Identifier of the run (a connector job)',
      vaultId: 'Identifier of the vault',
      objectId: 'Identifier of the vault document the file had become',
      sourceId: "Identifier of the provider's file",
      name: 'The file name when last seen',
      removedFromVault:
        "Whether the document was removed from the vault (the link's on_source_delete policy)",
    },
  },
  'connector.sync.failed': {
    description: 'An import run of an import link failed',
    fields: {
      connectionId: 'Identifier of the connection',
      provider: 'Provider identifier',
      linkId: 'Identifier of the import link',
      jobId: 'Identifier of the run (a connector job)',
      vaultId: 'Identifier of the vault',
      errorCode: 'Machine-readable reason',
      message: 'Human-readable reason',
    },
  },
  'connector.sync.skipped': {
    description:
      "A scheduled import run did not start (errorCode says why: the provider turned off, the connection needing the user, the previous run still going); the link's runs list shows it as skipped",
    fields: {
      connectionId: 'Identifier of the connection',
      provider: 'Provider identifier',
      linkId: 'Identifier of the import link',
      jobId: 'Identifier of the run (a connector job)',
      vaultId: 'Identifier of the vault',
      errorCode: 'Machine-readable reason',
      message: 'Human-readable reason',
    },
  },
  'connector.export.completed': {
    description: 'An export of vault documents to a provider finished',
    fields: {
      connectionId: 'Identifier of the connection',
      provider: 'Provider identifier',
      jobId: 'Identifier of the export (a connector job)',
      vaultId: 'Identifier of the vault',
      destinationId: 'Identifier of the provider container the documents went to',
      requested: 'Documents asked for',
      exported: 'Documents uploaded',
      unchanged: 'Documents whose version was already exported there',
      skipped: 'Documents left out because their name was taken there (conflict: skip)',
      failed:
        'Documents that could not be exported (missing, too large, a name refused or taken, refused by the provider)',
    },
  },
  'connector.export.failed': {
    description: 'An export of vault documents to a provider failed',
    fields: {
      connectionId: 'Identifier of the connection',
      provider: 'Provider identifier',
      jobId: 'Identifier of the export (a connector job)',
      vaultId: 'Identifier of the vault',
      destinationId: 'Identifier of the provider container the documents went to',
      errorCode: 'Machine-readable reason',
      message: 'Human-readable reason',
    },
  },
  'webhook.test': {
    description: 'Sent on request to check that an endpoint receives and verifies events',
    fields: {
      endpointId: 'Identifier of the webhook endpoint',
    },
  },
  'webhook.endpoint.disabled': {
    description: 'An endpoint was disabled after repeated delivery failures',
    fields: {
      endpointId: 'Identifier of the webhook endpoint',
      reason: 'Why it was disabled',
    },
  },
};

let described = false;

/**
 * Puts the descriptions on the catalog's schemas (zod's global registry, where z.toJSONSchema reads
 * them): the type's on its `data`, each field's on the field. Once; what reads the published JSON
 * Schema calls it first (publishedCatalog, the OpenAPI generator).
 */
export function describeEventTypes(): void {
  if (described) return;
  described = true;
  for (const { type, data } of EVENT_TYPES) {
    const docs = EVENT_TYPE_DOCS[type];
    if (!docs) throw new Error(`catalog-docs: ${type} has no description`);
    const meta = z.globalRegistry.get(data);
    // remove, then add: the registry refuses an id it already holds, even for the same schema.
    z.globalRegistry.remove(data);
    z.globalRegistry.add(data, { ...meta, description: `data of ${type}: ${docs.description}` });
    for (const [field, description] of Object.entries(docs.fields)) {
      const schema = data._zod.def.shape[field];
      if (!schema) throw new Error(`catalog-docs: ${type} has no field ${field}`);
      z.globalRegistry.add(schema, { description });
    }
  }
}

/** A catalog entry as GET /webhooks/v1/event-types shows it. */
export const publishedEventTypeView = /* @__PURE__ */ lazy(() =>
  z
    .object({
      type: z.string(),
      description: z.string(),
      permission: z.enum(PERMISSIONS).check(z.describe('The permission a key needs to receive it')),
      schema: z.record(z.string(), z.unknown()).check(z.describe("JSON Schema of the event's data")),
    })
    .clone()
    .register(z.globalRegistry, { id: 'EventType' }),
);
export type PublishedEventType = z.infer<ReturnType<typeof publishedEventTypeView>>;

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
  describeEventTypes();
  published ??= EVENT_TYPES.map(({ type, permission, data }) => ({
    type,
    description: EVENT_TYPE_DOCS[type]!.description,
    permission,
    schema: standalone(data),
  }));
  return published;
}
