// Exports: vault documents uploaded to a container at the provider (a matter, a folder), as a job of
// stepped messages (./job-steps.ts) with the same token refresh and rate-limit handling as imports.
// The export ledger makes them idempotent: a document whose version was already exported to that
// destination is not uploaded again, and each upload carries an idempotency key, so a step retried
// after a crash mid-upload makes no second file.
//
// Each document has its own outcome (exported, unchanged, skipped, failed with a reason): a document
// the provider refuses fails alone and the next is tried. Before an upload the destination is asked
// for the name (findFile): a file this service did not create is never replaced; the request's
// `conflict` policy (../domain/export-conflict.ts) says what happens instead. The export `succeeded`
// once every document was tried (some may have failed: counts.failed, failures); it `failed` only when
// it could not go on (the connection unusable, the destination gone), its counts what was done by then.
import { publishEvent } from '../../events';
import type { Deps } from '../../platform/ports';
import { ConflictError, InvalidRequestError } from '../../platform/errors';
import type { ProviderFile, Upload } from '../infra/content';
import { ProviderApiError, UploadRefusedError, nameProblem } from '../infra/content';
import type { ConflictPolicy, ExportFailureReason, NameHolder } from '../domain/export-conflict';
import {
  DEFAULT_CONFLICT_POLICY,
  MAX_RENAMES,
  decideConflict,
  numberedName,
  refusesDocument,
} from '../domain/export-conflict';
import { derivedId, newId } from '../../platform/ids';
import type { Logger } from '../../platform/logger';
import { emitMetrics } from '../../platform/metrics';
import type { ContentApi } from '../infra/content';
import { PROVIDERS } from '../domain/providers';
import {
  EXPORT_PAGE_SIZE,
  MAX_FILE_BYTES,
  MAX_RECORDED_FAILURES,
  STALE_JOB_MS,
  exportUploadKey,
} from '../domain/sync-policy';
import { owned } from './connections';
import type { ExportJob, JobStarted } from '../api/views';
import type { JobItem } from './jobs';
import type { JobOutcome, StepMessage, SteppedJob, StepResult } from './job-steps';
import { advanceJob, failedEventFields, finishedEventFields, queueStep, steppedJobView } from './job-steps';
import { Ledger } from '../infra/repositories/ledger';
import { JobRepository } from '../infra/repositories/jobs';
import { apiErrorOf, containersFor, contentFor, requireUsable, runFailureOf } from './provider-calls';
import type { ConnectorContext } from './context';
import { ConnectionRepository } from '../infra/repositories/connections';

export interface ExportCounts {
  requested: number;
  exported: number;
  unchanged: number;
  /** Left out by the `skip` conflict policy (absent on jobs made before the conflict policy: 0). */
  skipped?: number;
  failed: number;
}

export interface ExportFailure {
  document_id: string;
  reason: ExportFailureReason;
  /** What went wrong, for people (never a provider's body). */
  message?: string;
}

export interface ExportJobRecord extends SteppedJob, ExportCounts {
  kind: 'export';
  vaultId: string;
  /** The provider container the documents go to. */
  destination: string;
  documentIds: string[];
  /** What to do with a name taken at the destination (absent on jobs made before the conflict policy: rename). */
  conflict?: ConflictPolicy;
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
    conflict: job.conflict ?? DEFAULT_CONFLICT_POLICY,
    counts: {
      requested: job.requested,
      exported: job.exported,
      unchanged: job.unchanged,
      skipped: job.skipped ?? 0,
      failed: job.failed,
    },
    failures: job.failures,
  };
}

export interface ExportInput {
  vault_id: string;
  document_ids: string[];
  destination: { id: string };
  conflict?: ConflictPolicy;
}

/** Starts an export after checking the destination exists and the grant allows uploads. */
export async function startExport(
  ctx: ConnectorContext,
  organizationId: string,
  connectionId: string,
  input: ExportInput,
): Promise<JobStarted> {
  const { deps, config, log } = ctx;
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
  const api = await containersFor(config, connection);
  try {
    await ctx.connection(connectionId).call((token) => api.checkContainer(token, input.destination.id));
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
    conflict: input.conflict ?? DEFAULT_CONFLICT_POLICY,
    position: 0,
    requested: documentIds.length,
    exported: 0,
    unchanged: 0,
    skipped: 0,
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

/** One step of an export, as the syncs queue's worker takes it, in the worker invocation's context. */
export function runExportStep(ctx: ConnectorContext, message: StepMessage): Promise<void> {
  const { deps, log } = ctx;
  return advanceJob<ExportJobRecord>(
    deps,
    message,
    {
      kind: 'export',
      work: (job) => exportPage(ctx, job),
      failureOf: runFailureOf,
      finish: (job) => finishExport(deps, job, log),
    },
    log,
  );
}

type Outcome =
  { outcome: 'exported' | 'unchanged' | 'skipped' } | { outcome: 'failed'; failure: ExportFailure };

async function exportPage(ctx: ConnectorContext, job: ExportJobRecord): Promise<StepResult> {
  const { deps, config } = ctx;
  const connection = await ConnectionRepository.of(deps).get(job.connectionId);
  if (!connection) return { outcome: { status: 'failed', reason: 'connection_revoked' } };
  const api = await contentFor(config, connection);
  const ids = job.documentIds.slice(job.position, job.position + EXPORT_PAGE_SIZE);
  const outcomes: Outcome[] = [];
  for (const id of ids) {
    try {
      outcomes.push(await exportDocument(ctx, api, job, id));
    } catch (error) {
      // What stops the export (or must be retried) is met again by the next step, at this document:
      // the documents done before it are committed first, so the counts say what happened.
      if (!outcomes.length) throw error;
      ctx.log.info('export step ends early', { jobId: job.id, done: outcomes.length });
      break;
    }
  }
  const add: Record<string, number> = {};
  for (const { outcome } of outcomes) add[outcome] = (add[outcome] ?? 0) + 1;
  const failures = [...job.failures, ...outcomes.flatMap((o) => ('failure' in o ? [o.failure] : []))].slice(
    0,
    MAX_RECORDED_FAILURES,
  );
  const position = job.position + outcomes.length;
  return {
    add,
    set: { position, failures },
    ...(position >= job.documentIds.length ? { outcome: { status: 'succeeded' as const } } : {}),
  };
}

const failed = (document_id: string, reason: ExportFailureReason, message?: string): Outcome => ({
  outcome: 'failed',
  failure: { document_id, reason, ...(message ? { message } : {}) },
});

async function exportDocument(
  ctx: ConnectorContext,
  api: ContentApi,
  job: ExportJobRecord,
  objectId: string,
): Promise<Outcome> {
  const { deps } = ctx;
  const ref = { organizationId: job.organizationId, vaultId: job.vaultId, objectId };
  const document = await deps.vault.get(ref);
  if (!document) return failed(objectId, 'document_not_found');
  if (document.size > MAX_FILE_BYTES) return failed(objectId, 'too_large');
  const problem = nameProblem(document.name);
  if (problem) return failed(objectId, 'invalid_name', problem);
  const ledger = Ledger.of(deps);
  const previous = await ledger.getExport(job.connectionId, job.destination, job.vaultId, objectId);
  if (previous?.exportedVersion === document.version) {
    return { outcome: previous.lastJobId === job.id ? 'exported' : 'unchanged' };
  }
  const owner = { vaultId: job.vaultId, objectId };
  const policy = job.conflict ?? DEFAULT_CONFLICT_POLICY;
  // The step's documents share the connection's calls (one token read, renewed as the context says).
  const { call } = ctx.connection(job.connectionId);
  const upload = (name: string, replace?: ProviderFile) =>
    // The content is opened per attempt: a retry after a refused token sends it again from the start.
    call(async (token) =>
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
        ...(replace ? { replace } : {}),
      } satisfies Upload),
    );

  // The name this document had there last time first (a new version goes where the last one went),
  // then its own name, then `name (2).ext`, `name (3).ext`... as `rename` asks.
  const names = [...new Set([previous?.name, document.name].filter((n): n is string => !!n))];
  for (let n = 2; names.length < MAX_RENAMES; n++) names.push(numberedName(document.name, n));
  let uploaded: ProviderFile | undefined;
  const refused = new Set<string>(); // names a create-only upload proved held by someone else's file
  try {
    for (let i = 0, retries = 0; !uploaded && i < names.length;) {
      const name = names[i]!;
      const found = await call((token) => api.findFile(token, job.destination, name));
      let holder = found ? await holderOf(deps, job, owner, name, found, previous) : 'free';
      if (holder === 'claimed' && refused.has(name)) holder = 'theirs';
      const decided = decideConflict(policy, holder, api.replaces !== false);
      if (decided.action === 'skip') return { outcome: 'skipped' };
      if (decided.action === 'fail')
        return failed(
          objectId,
          decided.reason,
          decided.reason === 'not_ours'
            ? `${name} is there and this service did not create it: it is not replaced`
            : `${name} is taken at the destination`,
        );
      if (decided.action === 'rename') {
        i++;
        continue;
      }
      // The name is this document's from now on: a crash before the ledger records the upload leaves
      // it `claimed`, and the retry's create-only upload finds the file it made.
      await ledger.holdName(job.connectionId, job.destination, name, owner);
      try {
        uploaded = await upload(name, decided.action === 'replace' ? found : undefined);
      } catch (error) {
        // Taken (or changed) between the check and the upload: look again, a few times.
        if (!(error instanceof UploadRefusedError) || error.reason === 'invalid_name' || ++retries > 3)
          throw error;
        if (holder === 'claimed') refused.add(name);
      }
    }
  } catch (error) {
    if (error instanceof UploadRefusedError)
      return failed(
        objectId,
        error.reason === 'invalid_name' ? 'invalid_name' : 'name_conflict',
        error.message,
      );
    if (error instanceof ProviderApiError && refusesDocument(error.status))
      return failed(
        objectId,
        'provider_refused',
        `the provider refused the upload (HTTP ${error.status}${error.providerError ? `, ${error.providerError}` : ''})`,
      );
    throw error;
  }
  if (!uploaded)
    return failed(
      objectId,
      'name_conflict',
      `${document.name} and ${MAX_RENAMES - 1} numbered names are taken`,
    );
  await ledger.holdName(job.connectionId, job.destination, uploaded.name, owner);
  await ledger.recordExport({
    connectionId: job.connectionId,
    destination: job.destination,
    vaultId: job.vaultId,
    objectId,
    exportedVersion: document.version,
    providerFileId: uploaded.id,
    providerVersion: uploaded.version,
    name: uploaded.name,
    lastJobId: job.id,
    exportedAt: deps.clock.now(),
  });
  return { outcome: 'exported' };
}

/** Whose the file holding the name is: ours only while it is the file (and version) an export left. */
async function holderOf(
  deps: Deps,
  job: ExportJobRecord,
  owner: { vaultId: string; objectId: string },
  name: string,
  found: ProviderFile,
  previous: { providerFileId: string; providerVersion?: string } | undefined,
): Promise<NameHolder> {
  const left = (entry: { providerFileId: string; providerVersion?: string } | undefined) =>
    entry?.providerVersion !== undefined &&
    entry.providerFileId === found.id &&
    entry.providerVersion === found.version;
  if (left(previous)) return 'own';
  const ledger = Ledger.of(deps);
  const holder = await ledger.nameHolder(job.connectionId, job.destination, name);
  if (!holder) return 'theirs';
  if (holder.vaultId === owner.vaultId && holder.objectId === owner.objectId) return 'claimed';
  const theirs = await ledger.getExport(job.connectionId, job.destination, holder.vaultId, holder.objectId);
  return left(theirs) ? 'ours' : 'theirs';
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
            skipped: job.skipped ?? 0,
            failed: job.failed,
          },
        }
      : {
          type: 'connector.export.failed',
          data: { ...common, ...failedEventFields(outcome, 'The export failed') },
        }),
  });
  emitMetrics(
    { ExportJobs: 1, ExportJobsFailed: outcome.status === 'failed' ? 1 : 0, SyncItemFailures: job.failed },
    { status: outcome.status, provider: common.provider },
  );
  log.info('export finished', { jobId: job.id, status: outcome.status, reason: outcome.reason });
}
