// Purge during an import run, over HTTP against `npm start`'s server (and the
// emulated AWS runtime under e2e-aws): a run imports many files from the sandbox, and the connection is
// disconnected with ?purge=true as soon as its first documents appear, while the sandbox holds every
// download mid-way so files are being written as the purge begins. The purge must never report
// success while a document of the connection remains, the link's documents must keep answering (no
// 500), nothing stays readable afterwards, and asking again never returns a stale success.
import { importedObjectId } from '../../functions/connectors/domain/sync-policy';
import { providerE2e } from '../support/provider-e2e';
import { until } from '../support/until';

const e2e = providerE2e();
const { json } = e2e;

const ACCOUNT = 'acct-purge-run';
const VAULT = 'vlt_purge_run';
const FILES = 120;
const STALL_MS = process.env.E2E_RUNTIME === 'aws' ? 8_000 : 1_500;

const settled = (jobId: string) => e2e.settled(jobId, 120_000);

const documentStatus = async (objectId: string) =>
  (
    await fetch(
      `${e2e.server.baseUrl}/__dev/vault/${e2e.server.credentials.organizationId}/${VAULT}/${objectId}`,
    )
  ).status;

describe('DELETE ?purge=true while an import run is storing documents', () => {
  it('ends only when no document of the connection remains, and never reports success over leftovers', async () => {
    const { connectionId, sandbox } = await e2e.connect('practice', ACCOUNT);
    const matter = (
      await json<{ data: { id: string }[] }>(`/connectors/v1/connections/${connectionId}/sources`)
    ).data[0]!;
    await sandbox.hook('/__sandbox/seed', {
      provider: 'practice',
      account_id: ACCOUNT,
      container_id: matter.id,
      count: FILES,
      size: 256 * 1024,
    });
    const files = await sandbox.files(matter.id);
    // Every download pauses after its first chunk: the purge begins while files are being written (on
    // the emulated runtime, longer than its workflow takes to reach the first page).
    await sandbox.hook('/__sandbox/stall-downloads', { provider: 'practice', ms: STALL_MS });
    const link = await json<{ id: string }>(`/connectors/v1/connections/${connectionId}/links`, {
      method: 'POST',
      body: JSON.stringify({ vault_id: VAULT, source: { id: matter.id } }),
      expect: 201,
    });
    const run = await json<{ id: string }>(`/connectors/v1/links/${link.id}/runs`, {
      method: 'POST',
      expect: 202,
    });
    await until(
      'the first documents of the run',
      async () => {
        const documents = await json<{ data: unknown[] }>(
          `/connectors/v1/links/${link.id}/documents?limit=5`,
        );
        return documents.data.length > 0 ? true : undefined;
      },
      60_000,
    );
    const purge = await json<{ id: string }>(`/connectors/v1/connections/${connectionId}?purge=true`, {
      method: 'DELETE',
      expect: 202,
    });

    const job = await settled(purge.id);
    const runJob = await settled(run.id);
    await sandbox.hook('/__sandbox/stall-downloads', { provider: 'practice', ms: 0 });
    // Any download still stalled lands by now: what it stores counts as a leftover.
    await new Promise((resolve) => setTimeout(resolve, STALL_MS + 1_000));
    expect(runJob.status).toBe('failed');

    // Every file the run could have imported: none of its documents is readable.
    const objectIds = files.map((file) => importedObjectId(link.id, file.id));
    const leftovers = async () => {
      const statuses = await Promise.all(objectIds.map(documentStatus));
      return objectIds.filter((_, i) => statuses[i] !== 404);
    };
    // The purge did not report success over documents that remain.
    if (job.status === 'succeeded') expect(await leftovers()).toEqual([]);
    else expect({ status: job.status, reason: job.reason }).toEqual({ status: 'succeeded' });

    // The link's documents answer (200 with what the ledger holds, or 404 as designed), never 500.
    const listed = await e2e.call(`/connectors/v1/links/${link.id}/documents`);
    expect([200, 404]).toContain(listed.status);
    if (listed.status === 200) expect(((await listed.json()) as { data: unknown[] }).data).toEqual([]);

    // Asking again returns a job that does not claim success over leftovers.
    const again = await json<{ id: string; status: string }>(
      `/connectors/v1/connections/${connectionId}?purge=true`,
      { method: 'DELETE', expect: 202 },
    );
    const repeated = await settled(again.id);
    expect(repeated.status).toBe('succeeded');
    expect(await leftovers()).toEqual([]);
  }, 240_000);
});
