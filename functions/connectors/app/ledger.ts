// Importing one document: the ledger entry first, then the document, then the entry's version, so no
// imported document can exist without its entry (what a purge deletes from the vault). A purge fences
// the connection: once it began, nothing more is stored.
// The fence is read once per import step (syncPage, at the step's start), not once per file: a step
// that read no purge may store its files after a purge began, and that is safe without a second read,
// because the purge does not end on a pass that could miss them. It passes over the ledger again until
// the ledger is empty (decidePurgeEnd), and it leaves an entry a run in flight is writing for a later
// pass (entryAction), so a document stored by a step the fence did not stop is deleted by a later pass.
// And a purge that removed an entry while its document was written makes the run's recordStored fail
// (conditional on the run's mark): the run takes the document back out and stops, fenced. The per-file
// read only made the window shorter, at one read per file.
import type { Readable } from 'node:stream';
import type { Deps } from '../../platform/ports';
import { Ledger } from '../infra/repositories/ledger';
import { JobRepository } from '../infra/repositories/jobs';

/** The connection is being (or was) purged: an import stores nothing more. */
export class ImportFencedError extends Error {
  constructor(connectionId: string) {
    super(`Connection ${connectionId} is being purged: nothing more is imported`);
    this.name = 'ImportFencedError';
  }
}

/** Whether a purge of the connection began (its purge job is claimed before its first deletion). */
export async function purgeBegan(deps: Pick<Deps, 'tables'>, connectionId: string): Promise<boolean> {
  return (await JobRepository.of(deps).purgeOf(connectionId)) !== undefined;
}

/**
 * Brings one document in as an import does: the ledger entry first (marked with the run), then the
 * document, then the entry's version over the run's mark. Throws ImportFencedError once a purge of the
 * connection began (read here unless the caller read it: `fenceChecked`, an import step at its start);
 * a document stored while the purge removed its entry is deleted again. Used by imports, and by the
 * development hook and tests that seed a ledger.
 */
export async function importDocument(
  deps: Pick<Deps, 'tables' | 'clock' | 'vault'>,
  link: { id: string; connectionId: string; organizationId: string; vaultId: string },
  file: { sourceId: string; name: string; version: string; contentType: string; content: Readable },
  run: { jobId: string; outcome: 'imported' | 'updated'; step?: number; fenceChecked?: boolean },
): Promise<{ objectId: string; vaultVersion: number; size: number; chunkCount: number }> {
  const ledger = Ledger.of(deps);
  const { ref } = ledger.entryFor(link, file.sourceId);
  const now = deps.clock.now();
  if (!run.fenceChecked && (await purgeBegan(deps, link.connectionId)))
    throw new ImportFencedError(link.connectionId);
  await ledger.recordIntent(
    {
      connectionId: link.connectionId,
      organizationId: link.organizationId,
      ...ref,
      sourceId: file.sourceId,
      name: file.name,
      importedAt: now,
    },
    run.jobId,
  );
  const document = await deps.vault.put({
    organizationId: link.organizationId,
    vaultId: link.vaultId,
    objectId: ref.objectId,
    name: file.name,
    contentType: file.contentType,
    source: { connectionId: link.connectionId, linkId: link.id, providerFileId: file.sourceId },
    content: file.content,
  });
  const recorded = await ledger.recordStored(
    link.connectionId,
    ref,
    {
      name: file.name,
      sourceVersion: file.version,
      vaultVersion: document.version,
      jobId: run.jobId,
      outcome: run.outcome,
      step: run.step,
    },
    deps.clock.now(),
  );
  // Not recorded and the entry gone: a purge removed it while the document was written (a purge
  // leaves a marked entry alone only while it sees the run in flight). Take the document back out.
  // Not recorded and the entry there: a duplicate of this step recorded it first, or a newer run
  // marked it and records its own version.
  if (!recorded && !(await ledger.entryFor(link, file.sourceId).get())) {
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
