// Importing one document: the ledger entry first, then the document, then the entry's version, so no
// imported document can exist without its entry (what a purge deletes from the vault).
import type { Readable } from 'node:stream';
import type { Deps } from '../../platform/ports';
import { Ledger } from '../infra/repositories/ledger';

/**
 * Brings one document in as an import does: the ledger entry first, then the document, then the
 * entry's version. Used by imports, and by the development hook and tests that seed a ledger.
 */
export async function importDocument(
  deps: Pick<Deps, 'tables' | 'clock' | 'vault'>,
  link: { id: string; connectionId: string; organizationId: string; vaultId: string },
  file: { sourceId: string; name: string; version: string; contentType: string; content: Readable },
  run: { jobId: string; outcome: 'imported' | 'updated' },
): Promise<{ objectId: string; vaultVersion: number; size: number; chunkCount: number }> {
  const ledger = Ledger.of(deps);
  const { ref } = ledger.entryFor(link, file.sourceId);
  const now = deps.clock.now();
  await ledger.recordIntent({
    connectionId: link.connectionId,
    organizationId: link.organizationId,
    ...ref,
    sourceId: file.sourceId,
    name: file.name,
    importedAt: now,
  });
  const document = await deps.vault.put({
    organizationId: link.organizationId,
    vaultId: link.vaultId,
    objectId: ref.objectId,
    name: file.name,
    contentType: file.contentType,
    source: { connectionId: link.connectionId, linkId: link.id, providerFileId: file.sourceId },
    content: file.content,
  });
  await ledger.recordStored(
    link.connectionId,
    ref,
    {
      name: file.name,
      sourceVersion: file.version,
      vaultVersion: document.version,
      jobId: run.jobId,
      outcome: run.outcome,
    },
    deps.clock.now(),
  );
  return {
    objectId: ref.objectId,
    vaultVersion: document.version,
    size: document.size,
    chunkCount: document.chunkCount,
  };
}
