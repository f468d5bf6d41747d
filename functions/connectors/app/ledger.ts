// Importing one document, so that no imported document exists without a record a purge finds, with one
// ledger write per document. The record before the document is written: for a file the link imported
// before, its ledger entry; for a new file, its hold (file-holds.ts), taken naming the run. Then the
// document, then the entry's one write: over the revision read (a purge that removed or changed the
// entry meanwhile makes it fail: the run takes its document back out if the entry is gone, and stops),
// or for a new file a new entry. A purge passes over the connection's holds as over its ledger,
// deleting the document a hold names unless the hold's run is still in flight, and does not end while
// either holds anything (purge.ts).
// A purge fences the connection: once it began, nothing more is stored. The fence is read once per
// import step (syncPage, at the step's start), not once per file: a step that read no purge may store
// its files after a purge began, and that is safe without a second read, because the purge does not end
// on a pass that could miss them. It ends only when the ledger and the holds are empty and no import
// run of the connection is in flight (decidePurgeEnd: such a step stores only while its run is); it
// leaves the hold of a run in flight for a later pass (entryAction), so a new file's document is deleted
// by a pass after the run stopped; and the write of an existing entry is conditional on the revision
// the run read. The per-file read only made the window shorter, at one read per file.
// A run's status alone does not say whether one of its steps still stores: two copies of one step
// message can run at once, and once one commits, the run may finish or wait while the other still
// stores its page. So each step invocation holds a lease (step-leases.ts) from before its fence read
// until after its last write (`whileWriting`), and a purge also waits while any lease is live.
import type { Readable } from 'node:stream';
import type { Deps } from '../../platform/ports';
import type { LedgerEntryItem } from '../infra/repositories/ledger';
import { Ledger } from '../infra/repositories/ledger';
import { FileHolds } from '../infra/repositories/file-holds';
import { Links } from '../infra/repositories/import-links';
import { JobRepository } from '../infra/repositories/jobs';
import { StepLeases } from '../infra/repositories/step-leases';
import { QUEUE_WORKERS } from '../../platform/workers';

/** The connection is being (or was) purged: an import stores nothing more. */
export class ImportFencedError extends Error {
  constructor(connectionId: string) {
    super(`Connection ${connectionId} is being purged: nothing more is imported`);
    this.name = 'ImportFencedError';
  }
}

/**
 * How long a step invocation's lease lasts: its worker's timeout (no invocation runs longer), and a
 * minute for clocks that differ between the worker and the purge.
 */
export const STEP_LEASE_MS = (QUEUE_WORKERS.syncs.timeoutSeconds + 60) * 1000;

/**
 * Runs an import step of run `jobId` that may store the connection's documents, holding its lease
 * throughout: taken before `step` reads the purge fence, given back after its last write (or its
 * failure). A worker that dies leaves it to expire with its timeout.
 */
export async function whileWriting<T>(
  deps: Pick<Deps, 'tables' | 'clock'>,
  run: { connectionId: string; jobId: string },
  step: () => Promise<T>,
): Promise<T> {
  const leases = StepLeases.of(deps);
  const lease = await leases.take(run.connectionId, run.jobId, deps.clock.now() + STEP_LEASE_MS);
  try {
    return await step();
  } finally {
    // A lease not given back only makes a purge wait until it expires: never the step's failure.
    await leases.release(lease).catch(() => undefined);
  }
}

/** Whether a purge of the connection began (its purge job is claimed before its first deletion). */
export async function purgeBegan(deps: Pick<Deps, 'tables'>, connectionId: string): Promise<boolean> {
  return (await JobRepository.of(deps).purgeOf(connectionId)) !== undefined;
}

/**
 * Which link holds a provider file in the link's vault, taking it for the link (naming run `jobId`)
 * unless a link that still exists holds it.
 */
export const holderOf = (
  deps: Pick<Deps, 'tables'>,
  link: { id: string; connectionId: string; vaultId: string },
  sourceId: string,
  jobId: string,
): Promise<string> =>
  FileHolds.of(deps).hold(link, sourceId, jobId, async (id) => (await Links.of(deps).get(id)) !== undefined);

/** What the caller of importDocument read before it: the fence (at its step's start), the entry, the hold. */
export interface ImportRead {
  /** The file's ledger entry as read; undefined: none, and the link holds the file for this run. */
  entry: LedgerEntryItem | undefined;
}

/**
 * Brings one document in as an import does (see above). Without `read`, it reads the fence and the
 * entry and takes the hold itself; an import step passes what it read. Throws ImportFencedError once a
 * purge of the connection began (as far as it reads it), or when a purge removed the entry while the
 * document was written (the document is deleted again). Used by imports, and by the development hook
 * and tests that seed a ledger.
 */
export async function importDocument(
  deps: Pick<Deps, 'tables' | 'clock' | 'vault'>,
  link: { id: string; connectionId: string; organizationId: string; vaultId: string },
  file: { sourceId: string; name: string; version: string; contentType: string; content: Readable },
  run: { jobId: string; outcome: 'imported' | 'updated'; step?: number },
  read?: ImportRead,
): Promise<{ objectId: string; vaultVersion: number; size: number; chunkCount: number }> {
  const ledger = Ledger.of(deps);
  const { ref, get } = ledger.entryFor(link, file.sourceId);
  let entry = read?.entry;
  if (!read) {
    if (await purgeBegan(deps, link.connectionId)) throw new ImportFencedError(link.connectionId);
    entry = await get();
    if (!entry && (await holderOf(deps, link, file.sourceId, run.jobId)) !== link.id)
      throw new Error(`Another import link holds ${file.sourceId} in vault ${link.vaultId}`);
  }
  const document = await deps.vault.put({
    organizationId: link.organizationId,
    vaultId: link.vaultId,
    objectId: ref.objectId,
    name: file.name,
    contentType: file.contentType,
    source: { connectionId: link.connectionId, linkId: link.id, providerFileId: file.sourceId },
    content: file.content,
  });
  const recorded = await ledger.recordImported(
    {
      connectionId: link.connectionId,
      organizationId: link.organizationId,
      ...ref,
      sourceId: file.sourceId,
      name: file.name,
    },
    {
      name: file.name,
      sourceVersion: file.version,
      vaultVersion: document.version,
      jobId: run.jobId,
      outcome: run.outcome,
      step: run.step,
    },
    entry,
    deps.clock.now(),
  );
  // Not recorded and the entry gone: a purge removed it while the document was written. Take the
  // document back out. Not recorded and the entry there: a duplicate of this step recorded it first,
  // or another run wrote its own version.
  if (!recorded && !(await get())) {
    await deps.vault.delete({
      organizationId: link.organizationId,
      vaultId: link.vaultId,
      objectId: ref.objectId,
    });
    throw new ImportFencedError(link.connectionId);
  }
  return {
    objectId: ref.objectId,
    vaultVersion: document.version,
    size: document.size,
    chunkCount: document.chunkCount,
  };
}
