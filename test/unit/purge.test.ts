// Purge on disconnect on the local adapters: the deployed definition run by the local interpreter,
// the page task deleting vault documents and ledger entries, the job record and its counts.
import { createLocalDeps } from '../../functions/compose/local';
import type { LocalDeps } from '../../functions/compose/local';
import { Readable } from 'node:stream';
import { importDocument } from '../../functions/connectors/app/ledger';
import { Ledger } from '../../functions/connectors/infra/repositories/ledger';
import type { ImportLinkRecord } from '../../functions/connectors/infra/repositories/import-links';
import { Links } from '../../functions/connectors/infra/repositories/import-links';
import { getConnectorJob } from '../../functions/connectors/app/job-status';
import type { JobView } from '../../functions/connectors/app/purge';
import { failureReason, nothingLeft, purgePage, startPurge } from '../../functions/connectors/app/purge';
import type { VaultRef } from '../../functions/platform/ports';
import { ConnectionRepository } from '../../functions/connectors/infra/repositories/connections';
import { ManualClock } from '../../functions/platform/clock';
import { ConflictError, NotFoundError } from '../../functions/platform/errors';
import { newId } from '../../functions/platform/ids';
import { recordMetrics } from '../support/metrics';

const ORG = 'org_unitpurgeaaaaaaaaaaa';
const OTHER_ORG = 'org_unitotheraaaaaaaaaa';

let deps: LocalDeps;
let sleeps: number[];

beforeEach(() => {
  sleeps = [];
  deps = createLocalDeps({
    clock: new ManualClock(Date.parse('2026-03-01T10:00:00Z')),
    sleep: async (ms) => void sleeps.push(ms),
  });
});

async function connection(status: 'revoked' | 'healthy' = 'revoked', organizationId = ORG): Promise<string> {
  const id = newId('conn');
  await ConnectionRepository.of(deps).create({
    id,
    organizationId,
    provider: 'practice',
    status,
    scopeTier: 'standard',
    returnUrl: 'https://app.example.com/back',
    createdAt: Date.parse('2026-03-01T09:00:00.000Z'),
    updatedAt: Date.parse('2026-03-01T09:00:00.000Z'),
  });
  return id;
}

const getPurgeJob = (d: typeof deps, organizationId: string, id: string) =>
  getConnectorJob(d, organizationId, id) as Promise<JobView>;

/** An import link of the connection and `count` documents it imported (ledger and vault). */
async function seed(connectionId: string, count: number, vaultId = 'vlt_main'): Promise<ImportLinkRecord> {
  const now = deps.clock.now();
  const link: ImportLinkRecord = {
    id: newId('lnk'),
    organizationId: ORG,
    connectionId,
    provider: 'practice',
    vaultId,
    sourceId: 'matter-1',
    createdAt: now,
    updatedAt: now,
  };
  await Links.of(deps).put(link);
  for (let i = 0; i < count; i++) {
    await importDocument(
      deps,
      link,
      {
        sourceId: `file-${i}`,
        name: `doc ${i}.pdf`,
        version: '1',
        contentType: 'application/pdf',
        content: Readable.from(['%PDF']),
      },
      { jobId: 'job_seed', outcome: 'imported' },
    );
  }
  return link;
}

/** Documents left in the vault (every vault this file uses). */
async function vaultSize(): Promise<number> {
  let count = 0;
  for (const vaultId of ['vlt_main'])
    count += (await deps.vault.list(ORG, vaultId, { limit: 1000 })).items.length;
  return count;
}

async function finished(jobId: string, organizationId = ORG): Promise<JobView> {
  await deps.workflows.settle();
  return getPurgeJob(deps, organizationId, jobId);
}

describe('purge on disconnect (local runtime)', () => {
  it('deletes every document the connection imported, page by page, and only those', async () => {
    const purged = await connection();
    const kept = await connection();
    await seed(purged, 250);
    await seed(kept, 5);

    const job = await startPurge(deps, ORG, purged, { pageSize: 100 });
    expect(job).toEqual({ id: expect.stringMatching(/^job_/), status: 'processing' });

    expect(await finished(job.id)).toMatchObject({
      id: job.id,
      kind: 'purge',
      status: 'succeeded',
      connection_id: purged,
      // Three pages of the ledger, then three of the files' holds.
      counts: { deleted: 250, pages: 6 },
    });
    expect(await vaultSize()).toBe(5);
    expect(await nothingLeft(deps, purged)).toBe(true);
    const keptEntries = (await Ledger.of(deps).page(kept, { limit: 10 })).items;
    expect(keptEntries).toHaveLength(5);
    expect(
      await deps.vault.get({ organizationId: ORG, vaultId: 'vlt_main', objectId: keptEntries[0]!.objectId }),
    ).toMatchObject({
      vaultId: 'vlt_main',
      objectId: keptEntries[0]!.objectId,
    });
  });

  it('succeeds with nothing to delete when the connection imported nothing', async () => {
    const id = await connection();
    const job = await startPurge(deps, ORG, id);
    expect(await finished(job.id)).toMatchObject({ status: 'succeeded', counts: { deleted: 0, pages: 2 } });
  });

  it('retries a page that failed half-way and still counts every document once', async () => {
    const id = await connection();
    await seed(id, 120);
    const remove = deps.vault.delete.bind(deps.vault);
    let calls = 0;
    deps.vault.delete = async (ref) => {
      if (++calls === 70) throw new Error('vault briefly unavailable');
      return remove(ref);
    };
    const job = await startPurge(deps, ORG, id, { pageSize: 50 });
    expect(await finished(job.id)).toMatchObject({ status: 'succeeded', counts: { deleted: 120, pages: 6 } });
    expect(await vaultSize()).toBe(0);
    expect(sleeps).toEqual([1000]); // one retry after the first interval
  });

  it('marks the job failed with a reason once the retries are spent, keeping what was not deleted', async () => {
    const id = await connection();
    await seed(id, 30);
    deps.vault.delete = async () => {
      throw new Error('internal detail: arn:aws:dynamodb:secret-table');
    };
    const metrics = recordMetrics();
    const job = await startPurge(deps, ORG, id);
    const view = await finished(job.id).finally(metrics.stop);
    // The failure is a metric of its own, which the PurgeJobsFailed alarm reads by name.
    expect(metrics.records).toContainEqual(expect.objectContaining({ PurgeJobs: 1, PurgeJobsFailed: 1 }));
    expect(view).toMatchObject({
      status: 'failed',
      reason: "Deleting the connection's documents kept failing after retries (Error)",
      counts: { deleted: 0 },
    });
    expect(view.reason).not.toContain('arn:');
    expect(sleeps).toEqual([1000, 2000, 4000]);
    expect(await vaultSize()).toBe(30);
    const execution = await deps.workflows.describe(
      `arn:aws:states:local:000000000000:execution:purge:${job.id}`,
    );
    expect(execution).toMatchObject({ status: 'FAILED', error: 'PurgeFailed' });
  });

  it('returns the same job to a repeated request, and starts a new one after a failure', async () => {
    const id = await connection();
    await seed(id, 3);
    const first = await startPurge(deps, ORG, id);
    expect((await startPurge(deps, ORG, id)).id).toBe(first.id);
    await deps.workflows.settle();
    expect(await startPurge(deps, ORG, id)).toEqual({ id: first.id, status: 'succeeded' });

    const failing = await connection();
    await seed(failing, 2);
    const remove = deps.vault.delete.bind(deps.vault);
    deps.vault.delete = async () => {
      throw new Error('down');
    };
    const failed = await startPurge(deps, ORG, failing);
    expect((await finished(failed.id)).status).toBe('failed');
    deps.vault.delete = remove;
    const again = await startPurge(deps, ORG, failing);
    expect(again.id).not.toBe(failed.id);
    expect(await finished(again.id)).toMatchObject({ status: 'succeeded', counts: { deleted: 2 } });
  });

  it('starts a new purge when the previous workflow ended without marking its job', async () => {
    const id = await connection();
    await seed(id, 4);
    const lost = { ...deps, workflows: { start: async () => 'arn:lost', describe: async () => undefined } };
    const first = await startPurge(lost, ORG, id);
    const second = await startPurge(deps, ORG, id);
    expect(second.id).not.toBe(first.id);
    expect(await getPurgeJob(deps, ORG, first.id)).toMatchObject({
      status: 'failed',
      reason: 'The purge workflow ended (lost) before it could record an outcome',
    });
    expect(await finished(second.id)).toMatchObject({ status: 'succeeded', counts: { deleted: 4 } });
  });

  it('purges only a revoked connection of the caller', async () => {
    await expect(startPurge(deps, ORG, await connection('healthy'))).rejects.toBeInstanceOf(ConflictError);
    await expect(startPurge(deps, ORG, await connection('revoked', OTHER_ORG))).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(startPurge(deps, ORG, newId('conn'))).rejects.toBeInstanceOf(NotFoundError);
  });

  it("reads another organization's job, or a malformed id, as not found", async () => {
    const job = await startPurge(deps, ORG, await connection());
    await expect(getPurgeJob(deps, OTHER_ORG, job.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(getPurgeJob(deps, ORG, 'job_nope')).rejects.toBeInstanceOf(NotFoundError);
    await deps.workflows.settle();
  });
});

describe('the page task', () => {
  it('resumes the page an interrupted attempt recorded, so the count stays exact', async () => {
    const id = await connection();
    await seed(id, 10);
    // A job whose pages this test runs by hand (its workflow start is a no-op).
    const idle = { ...deps, workflows: { start: async () => 'not-run', describe: async () => undefined } };
    const job = await startPurge(idle, ORG, id);
    const remove = deps.vault.delete.bind(deps.vault);
    let calls = 0;
    const flaky = Object.assign(Object.create(deps.vault) as typeof deps.vault, {
      delete: async (ref: VaultRef) => {
        if (++calls === 5) throw new Error('crash after four deletions');
        return remove(ref);
      },
    });
    const input = { jobId: job.id, organizationId: ORG, connectionId: id, cursor: null, pageSize: 8 };
    await expect(purgePage({ ...deps, vault: flaky }, input)).rejects.toThrow('crash');
    expect(await purgePage({ ...deps, vault: flaky }, input)).toMatchObject({ count: 8, done: false });
    expect((await getPurgeJob(deps, ORG, job.id)).counts.deleted).toBe(8);
    expect(await vaultSize()).toBe(2);
  });

  it("refuses another organization's job without retrying", async () => {
    const id = await connection();
    const job = await startPurge(deps, ORG, id);
    await deps.workflows.settle();
    await expect(
      purgePage(deps, { jobId: job.id, organizationId: OTHER_ORG, connectionId: id }),
    ).rejects.toMatchObject({ name: 'PurgeRefused' });
  });

  it('names failures without quoting them, except its own refusals', () => {
    expect(
      failureReason({ Error: 'PurgeRefused', Cause: '{"errorType":"PurgeRefused","errorMessage":"No job"}' }),
    ).toBe('Purge refused: No job');
    expect(failureReason({ Error: 'States.Timeout', Cause: 'x' })).toBe(
      'A purge step timed out on every retry',
    );
    expect(failureReason({ Error: 'Lambda.ServiceException', Cause: 'secret' })).not.toContain('secret');
  });
});
