// Exports: vault documents uploaded to a container at the provider (a matter, a folder), as a job of
// stepped messages (./job-steps.ts) with the same token refresh and rate-limit handling as imports.
// The export ledger makes them idempotent: a document whose version was already exported to that
// destination is not uploaded again, and each upload carries an idempotency key, so a step retried
// after a crash mid-upload makes no second file.
import { publishEvent } from '../../events';
import type { Deps } from '../../platform/ports';
import { ConflictError, InvalidRequestError } from '../../platform/errors';
import { derivedId, newId } from '../../platform/ids';
import type { Logger } from '../../platform/logger';
import { emitMetrics } from '../../platform/metrics';
import type { ConnectorConfig } from '../infra/config';
import type { ContentApi } from '../infra/content';
import { PROVIDERS } from '../domain/providers';
import {
  EXPORT_PAGE_SIZE,
  MAX_FILE_BYTES,
  MAX_RECORDED_FAILURES,
  STALE_JOB_MS,
  disambiguatedName,
  exportUploadKey,
} from '../domain/sync-policy';
import { owned } from './connections';
import type { ExportJob, JobStarted } from '../api/views';
import type { JobItem } from './jobs';
import type { JobOutcome, StepMessage, SteppedJob, StepResult } from './job-steps';
import { advanceJob, failedEventFields, finishedEventFields, queueStep, steppedJobView } from './job-steps';
import { Ledger } from '../infra/repositories/ledger';
import { JobRepository } from '../infra/repositories/jobs';
import { apiErrorOf, contentFor, requireUsable, withProvider } from './provider-calls';
import { ConnectionRepository } from '../infra/repositories/connections';

export interface ExportCounts {
  requested: number;
  exported: number;
  unchanged: number;
  failed: number;
}

export interface ExportFailure {
  document_id: string;
  reason: 'document_not_found' | 'too_large';
}

export interface ExportJobRecord extends SteppedJob, ExportCounts {
  kind: 'export';
  vaultId: string;
  /** The provider container the documents go to. */
  destination: string;
  documentIds: string[];
  /** Index of the next document to export. */
  position: number;
  failures: ExportFailure[];
}

export type ExportJobItem = JobItem<ExportJobRecord>;

export function exportView(job: ExportJobRecord): ExportJob {
  return {
    ...steppedJobView(job),
    kind: 'export',
    vault_id: job.vaultId,
    destination: { id: job.destination },
    counts: {
      requested: job.requested,
      exported: job.exported,
      unchanged: job.unchanged,
      failed: job.failed,
    },
    failures: job.failures,
  };
}

export interface ExportInput {
  vault_id: string;
  document_ids: string[];
  destination: { id: string };
}

/** Starts an export after checking the destination exists and the grant allows uploads. */
export async function startExport(
  deps: Deps,
  config: ConnectorConfig,
  organizationId: string,
  connectionId: string,
  input: ExportInput,
  log: Logger,
): Promise<JobStarted> {
  const store = ConnectionRepository.of(deps);
  const connection = await owned(store, organizationId, connectionId);
  await requireUsable(deps, connection);
  const tokens = await store.getTokens(connectionId);
  const missing = PROVIDERS[connection.provider].writeScopes.filter((s) => !tokens?.scopes.includes(s));
  if (missing.length) {
    throw new ConflictError(
      `The connection was not granted ${missing.join(', ')}, which uploads need; the user can reconnect to grant it`,
    );
  }
  const api = contentFor(config, connection.provider);
  try {
    await withProvider(deps, config, connectionId, log, (token) =>
      api.checkContainer(token, input.destination.id),
    );
  } catch (error) {
    throw apiErrorOf(
      error,
      deps.clock.now(),
      new InvalidRequestError(
        `destination.id: the provider has no container ${input.destination.id} this account can see`,
      ),
    );
  }
  const now = deps.clock.now();
  const documentIds = [...new Set(input.document_ids)];
  const job: ExportJobRecord = {
    id: newId('job'),
    organizationId,
    kind: 'export',
    connectionId,
    status: 'processing',
    vaultId: input.vault_id,
    destination: input.destination.id,
    documentIds,
    position: 0,
    requested: documentIds.length,
    exported: 0,
    unchanged: 0,
    failed: 0,
    failures: [],
    ticket: 0,
    attempts: 0,
    createdAt: now,
    updatedAt: now,
  };
  await JobRepository.of(deps).create(job, { heartbeatAt: now + STALE_JOB_MS });
  await queueStep(deps, job);
  log.info('export started', { jobId: job.id, connectionId, documents: documentIds.length });
  return { id: job.id, status: 'processing' };
}

export interface ExportOptions {
  log: Logger;
  sleep?: (ms: number) => Promise<void>;
}

/** One step of an export, as the syncs queue's worker takes it. */
export function runExportStep(
  deps: Deps,
  config: ConnectorConfig,
  message: StepMessage,
  options: ExportOptions,
): Promise<void> {
  return advanceJob<ExportJobRecord>(
    deps,
    message,
    {
      kind: 'export',
      work: (job) => exportPage(deps, config, job, options),
      finish: (job) => finishExport(deps, job, options.log),
    },
    options.log,
  );
}

type Outcome = { outcome: 'exported' | 'unchanged' } | { outcome: 'failed'; failure: ExportFailure };

async function exportPage(
  deps: Deps,
  config: ConnectorConfig,
  job: ExportJobRecord,
  options: ExportOptions,
): Promise<StepResult> {
  const connection = await ConnectionRepository.of(deps).get(job.connectionId);
  if (!connection) return { outcome: { status: 'failed', reason: 'connection_revoked' } };
  const api = contentFor(config, connection.provider);
  const ids = job.documentIds.slice(job.position, job.position + EXPORT_PAGE_SIZE);
  const outcomes: Outcome[] = [];
  for (const id of ids) outcomes.push(await exportDocument(deps, config, api, job, id, options));
  const add: Record<string, number> = {};
  for (const { outcome } of outcomes) add[outcome] = (add[outcome] ?? 0) + 1;
  const failures = [...job.failures, ...outcomes.flatMap((o) => ('failure' in o ? [o.failure] : []))].slice(
    0,
    MAX_RECORDED_FAILURES,
  );
  const position = job.position + ids.length;
  return {
    add,
    set: { position, failures },
    ...(position >= job.documentIds.length ? { outcome: { status: 'succeeded' as const } } : {}),
  };
}

async function exportDocument(
  deps: Deps,
  config: ConnectorConfig,
  api: ContentApi,
  job: ExportJobRecord,
  objectId: string,
  options: ExportOptions,
): Promise<Outcome> {
  const ref = { organizationId: job.organizationId, vaultId: job.vaultId, objectId };
  const document = await deps.vault.get(ref);
  if (!document)
    return { outcome: 'failed', failure: { document_id: objectId, reason: 'document_not_found' } };
  if (document.size > MAX_FILE_BYTES)
    return { outcome: 'failed', failure: { document_id: objectId, reason: 'too_large' } };
  const ledger = Ledger.of(deps);
  const previous = await ledger.getExport(job.connectionId, job.destination, job.vaultId, objectId);
  if (previous?.exportedVersion === document.version) {
    return { outcome: previous.lastJobId === job.id ? 'exported' : 'unchanged' };
  }
  const owner = { vaultId: job.vaultId, objectId };
  let name = previous?.name ?? document.name;
  if (!(await ledger.claimName(job.connectionId, job.destination, name, owner))) {
    name = disambiguatedName(document.name, objectId);
    await ledger.claimName(job.connectionId, job.destination, name, owner);
  }
  const uploaded = await withProvider(
    deps,
    config,
    job.connectionId,
    options.log,
    // The content is opened per attempt: a retry after a refused token sends it again from the start.
    async (token) =>
      api.upload(token, job.destination, {
        name,
        contentType: document.contentType,
        size: document.size,
        body: (await deps.vault.read(ref))!,
        idempotencyKey: exportUploadKey(
          job.connectionId,
          job.destination,
          `${job.vaultId}/${objectId}`,
          document.version,
        ),
      }),
    { sleep: options.sleep },
  );
  await ledger.recordExport({
    connectionId: job.connectionId,
    destination: job.destination,
    vaultId: job.vaultId,
    objectId,
    exportedVersion: document.version,
    providerFileId: uploaded.id,
    name,
    lastJobId: job.id,
    exportedAt: deps.clock.now(),
  });
  return { outcome: 'exported' };
}

async function finishExport(
  deps: Deps,
  job: ExportJobRecord & { outcome: JobOutcome },
  log: Logger,
): Promise<void> {
  const { outcome } = job;
  const common = { ...(await finishedEventFields(deps, job)), destinationId: job.destination };
  await publishEvent(deps, {
    id: derivedId('evt', `export:${job.id}:${outcome.status}`),
    organizationId: job.organizationId,
    ...(outcome.status === 'succeeded'
      ? {
          type: 'connector.export.completed',
          data: {
            ...common,
            requested: job.requested,
            exported: job.exported,
            unchanged: job.unchanged,
            failed: job.failed,
          },
        }
      : {
          type: 'connector.export.failed',
          data: { ...common, ...failedEventFields(outcome, 'The export failed') },
        }),
  });
  emitMetrics(
    { ExportJobs: 1, SyncItemFailures: job.failed },
    { status: outcome.status, provider: common.provider },
  );
  log.info('export finished', { jobId: job.id, status: outcome.status, reason: outcome.reason });
}
