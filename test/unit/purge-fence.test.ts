// Purge during an import run on the local adapters: the fence a purge sets, the
// hold a run names itself on before it writes a new file's document, the page task leaving the holds
// (and marked entries) of runs in flight, and the decisions (on plain values) of what a page does with
// a record and how the last step ends a purge.
import { Readable } from 'node:stream';
import { createLocalDeps } from '../../functions/compose/local';
import type { LocalDeps } from '../../functions/compose/local';
import { ImportFencedError, holderOf, importDocument } from '../../functions/connectors/app/ledger';
import {
  PURGE_SETTLE_MS,
  decidePurgeEnd,
  entryAction,
  finishPurge,
  nothingLeft,
  purgePage,
  startPurge,
} from '../../functions/connectors/app/purge';
import { ConnectionRepository } from '../../functions/connectors/infra/repositories/connections';
import type { ImportLinkRecord } from '../../functions/connectors/infra/repositories/import-links';
import { Ledger } from '../../functions/connectors/infra/repositories/ledger';
import { Links } from '../../functions/connectors/infra/repositories/import-links';
import { JobRepository } from '../../functions/connectors/infra/repositories/jobs';
import { ManualClock } from '../../functions/platform/clock';
import { newId } from '../../functions/platform/ids';
import type { VaultWrite } from '../../functions/platform/ports';

const ORG = 'org_unitfenceaaaaaaaaaaa';

let deps: LocalDeps;

beforeEach(() => {
  deps = createLocalDeps({ clock: new ManualClock(Date.parse('2026-03-01T10:00:00Z')) });
});

async function revokedConnection(): Promise<string> {
  const id = newId('conn');
  await ConnectionRepository.of(deps).create({
    id,
    organizationId: ORG,
    provider: 'practice',
    status: 'revoked',
    scopeTier: 'standard',
    returnUrl: 'https://app.example.com/back',
    createdAt: deps.clock.now(),
    updatedAt: deps.clock.now(),
  });
  return id;
}

const linkOf = (connectionId: string): ImportLinkRecord => ({
  id: newId('lnk'),
  organizationId: ORG,
  connectionId,
  provider: 'practice',
  vaultId: 'vlt_main',
  sourceId: 'matter-1',
  createdAt: deps.clock.now(),
  updatedAt: deps.clock.now(),
});

const file = (sourceId: string) => ({
  sourceId,
  name: `${sourceId}.txt`,
  version: '1',
  contentType: 'text/plain',
  content: Readable.from(['text']),
});

/** A processing run, as the purge sees one: only its status matters here. */
async function runInFlight(connectionId: string): Promise<string> {
  const id = newId('job');
  const now = deps.clock.now();
  await JobRepository.of(deps).create({
    id,
    organizationId: ORG,
    kind: 'sync',
    connectionId,
    status: 'processing',
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

/** A purge job whose workflow this test drives by hand. */
const idle = () => ({
  ...deps,
  workflows: { start: async () => 'not-run', describe: async () => undefined },
});

/** One pass of page tasks over the ledger and the holds, as the workflow runs them: entries deleted. */
async function passOver(input: Parameters<typeof purgePage>[1]): Promise<number> {
  let deleted = 0;
  for (let cursor = input.cursor, done = false; !done;) {
    const page = await purgePage(deps, { ...input, cursor });
    deleted += page.count;
    ({ cursor, done } = page);
  }
  return deleted;
}

const documents = async () => (await deps.vault.list(ORG, 'vlt_main', { limit: 100 })).items.length;

describe('decisions', () => {
  it('leaves a record a run in flight may be writing (named on it, or of its link), deletes any other', () => {
    expect(entryAction({ writer: true, linkRun: false })).toBe('wait');
    expect(entryAction({ writer: false, linkRun: true })).toBe('wait');
    expect(entryAction({ writer: true, linkRun: true })).toBe('wait');
    expect(entryAction({ writer: false, linkRun: false })).toBe('delete');
  });

  it('ends a purge only over an empty ledger and no run in flight; passes again while runs may write; gives up after the settle time', () => {
    const base = { outcome: 'succeeded' as const, startedAt: 1_000, now: 2_000, runsInFlight: false };
    expect(decidePurgeEnd({ ...base, ledgerEmpty: true })).toEqual({ status: 'succeeded' });
    // A run in flight may still store what a step that read no purge began: another pass.
    expect(decidePurgeEnd({ ...base, ledgerEmpty: true, runsInFlight: true })).toEqual({ status: 'again' });
    expect(decidePurgeEnd({ ...base, ledgerEmpty: false })).toEqual({ status: 'again' });
    expect(decidePurgeEnd({ ...base, ledgerEmpty: false, now: 1_000 + PURGE_SETTLE_MS })).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('still being written'),
    });
    expect(
      decidePurgeEnd({ ...base, outcome: 'failed', ledgerEmpty: true, error: { Error: 'States.Timeout' } }),
    ).toEqual({ status: 'failed', reason: 'A purge step timed out on every retry' });
  });
});

describe('the fence and the run mark', () => {
  it('stores nothing once a purge of the connection began', async () => {
    const connectionId = await revokedConnection();
    const link = linkOf(connectionId);
    await startPurge(idle(), ORG, connectionId);
    await expect(
      importDocument(deps, link, file('a'), { jobId: 'job_run', outcome: 'imported' }),
    ).rejects.toBeInstanceOf(ImportFencedError);
    expect(await Ledger.of(deps).isEmpty(connectionId)).toBe(true);
    expect(await documents()).toBe(0);
  });

  it('takes a document back out when the purge removed its entry while it was written, and never rewrites the entry', async () => {
    const connectionId = await revokedConnection();
    const link = linkOf(connectionId);
    const ledger = Ledger.of(deps);
    const { ref } = ledger.entryFor(link, 'a');
    await importDocument(deps, link, file('a'), { jobId: 'job_old', outcome: 'imported' });
    // The purge removes the entry while the run's vault write of a new version is under way.
    const put = deps.vault.put.bind(deps.vault);
    const racing = Object.assign(Object.create(deps.vault) as typeof deps.vault, {
      put: async (write: VaultWrite) => {
        await ledger.remove(connectionId, ref);
        return put(write);
      },
    });
    await expect(
      importDocument({ ...deps, vault: racing }, link, file('a'), { jobId: 'job_run', outcome: 'updated' }),
    ).rejects.toBeInstanceOf(ImportFencedError);
    expect(await ledger.get(connectionId, ref)).toBeUndefined();
    expect(await documents()).toBe(0);
  });

  it('leaves the hold of a run in flight for another pass, then deletes its document once the run stopped', async () => {
    const connectionId = await revokedConnection();
    const link = linkOf(connectionId);
    const ledger = Ledger.of(deps);
    const run = await runInFlight(connectionId);
    await importDocument(deps, link, file('done'), { jobId: run, outcome: 'imported' });
    // Another file of the same run: held, its document written, its entry not yet, when the purge passes.
    expect(await holderOf(deps, link, 'writing', run)).toBe(link.id);
    await deps.vault.put({
      organizationId: ORG,
      vaultId: link.vaultId,
      objectId: ledger.entryFor(link, 'writing').ref.objectId,
      name: 'w',
      contentType: 'text/plain',
      content: Readable.from(['w']),
    });
    const job = await startPurge(idle(), ORG, connectionId);
    const input = { jobId: job.id, organizationId: ORG, connectionId, cursor: null, pageSize: 10 };
    expect(await passOver(input)).toBe(1);
    const pass = { jobId: job.id, organizationId: ORG, outcome: 'succeeded' as const, pages: 1 };
    expect(await finishPurge(deps, pass, undefined, { recheckMs: 0 })).toMatchObject({
      status: 'processing',
    });
    expect(await documents()).toBe(1);

    await JobRepository.of(deps).failProcessing(run, 'connection_purged', deps.clock.now());
    expect(await passOver(input)).toBe(0);
    expect(await finishPurge(deps, { ...pass, pages: 2 }, undefined, { recheckMs: 0 })).toMatchObject({
      status: 'succeeded',
      counts: { deleted: 1 },
    });
    expect(await nothingLeft(deps, connectionId)).toBe(true);
    expect(await documents()).toBe(0);
  });

  it('waits for a run of the link that may be writing, not for one waiting out a rate limit', async () => {
    const connectionId = await revokedConnection();
    const link = linkOf(connectionId);
    await Links.of(deps).put(link);
    await importDocument(deps, link, file('a'), { jobId: 'job_before', outcome: 'imported' });
    const run = await runInFlight(connectionId);
    await Links.of(deps).claimRun(link.id, run, deps.clock.now());
    const job = await startPurge(idle(), ORG, connectionId);
    const input = { jobId: job.id, organizationId: ORG, connectionId, cursor: null, pageSize: 10 };
    const pass = { jobId: job.id, organizationId: ORG, outcome: 'succeeded' as const, pages: 1 };
    // Processing: its step may be writing a new version of the file over its entry. Left alone.
    expect(await passOver(input)).toBe(0);
    expect(await finishPurge(deps, pass, undefined, { recheckMs: 0 })).toMatchObject({
      status: 'processing',
    });
    expect(await documents()).toBe(1);
    // Waiting for the provider until later: no step of it runs before then, and that one reads the fence.
    // (As a step that met a provider's rate limit leaves its job: run-decide.ts sets waitUntil.)
    const waiting = { ...(await JobRepository.of(deps).get(run))!, waitUntil: deps.clock.now() + 3_600_000 };
    await deps.tables.connectors.put(waiting);
    expect(await passOver(input)).toBe(1);
    expect(await finishPurge(deps, pass, undefined, { recheckMs: 0 })).toMatchObject({ status: 'succeeded' });
    expect(await documents()).toBe(0);
  });

  it('removes an entry only at the revision it read: one a run rewrote since waits for the next pass', async () => {
    const connectionId = await revokedConnection();
    const link = linkOf(connectionId);
    const ledger = Ledger.of(deps);
    await importDocument(deps, link, file('a'), { jobId: 'job_old', outcome: 'imported' });
    const read = (await ledger.page(connectionId, { limit: 10 })).items[0]!;
    await importDocument(deps, link, file('a'), { jobId: 'job_new', outcome: 'updated' });
    expect(await ledger.removeUnchanged(connectionId, read, read.rev)).toBe(false);
    const now = (await ledger.page(connectionId, { limit: 10 })).items[0]!;
    expect(now).toMatchObject({ lastJobId: 'job_new', sourceId: 'a', objectId: read.objectId });
    expect(await ledger.removeUnchanged(connectionId, now, now.rev)).toBe(true);
  });

  it('asks again over leftovers: a succeeded purge does not answer a repeated request while entries remain', async () => {
    const connectionId = await revokedConnection();
    const first = await startPurge(deps, ORG, connectionId);
    await deps.workflows.settle();
    // A hold taken around the fence (a run that read no purge just before it began).
    await holderOf(deps, linkOf(connectionId), 'x', 'job_gone');
    const again = await startPurge(deps, ORG, connectionId);
    expect(again.id).not.toBe(first.id);
    await deps.workflows.settle();
    expect(await nothingLeft(deps, connectionId)).toBe(true);
  });
});
