// Each import step invocation holds a lease while it may store documents (functions/connectors/app/ledger.ts
// `whileWriting`); a purge does not end while one is live (purge.ts `runsInFlight`). The interleavings
// with a purge are in import-purge-interleavings.test.ts; these pin the lease's own life.
import { createLocalDeps } from '../../functions/compose/local';
import { STEP_LEASE_MS, whileWriting } from '../../functions/connectors/app/ledger';
import { runsInFlight } from '../../functions/connectors/app/purge';
import { StepLeases } from '../../functions/connectors/infra/repositories/step-leases';
import { ManualClock } from '../../functions/platform/clock';
import { QUEUE_WORKERS } from '../../functions/platform/workers';

const CONNECTION = 'conn_leasesaaaaaaaaaaaa';
const run = { connectionId: CONNECTION, jobId: 'job_leasesaaaaaaaaaaaaa' };

function setup() {
  const clock = new ManualClock(Date.parse('2026-03-01T10:00:00Z'));
  const deps = createLocalDeps({ clock });
  return { clock, deps, live: () => StepLeases.of(deps).anyLive(CONNECTION, clock.now()) };
}

describe('a step invocation’s writer lease', () => {
  it('is live while the step runs, and given back when it returns or throws', async () => {
    const { deps, live } = setup();
    const seen: boolean[] = [];
    expect(await whileWriting(deps, run, async () => (seen.push(await live()), 'stored'))).toBe('stored');
    await expect(
      whileWriting(deps, run, async () => {
        seen.push(await live());
        throw new Error('provider failed');
      }),
    ).rejects.toThrow('provider failed');
    expect(seen).toEqual([true, true]);
    expect(await live()).toBe(false);
  });

  it('keeps a purge waiting while a step may store, even with no run in flight, until its worker’s timeout has passed', async () => {
    const { clock, deps, live } = setup();
    // A worker that died inside its step never gives the lease back.
    await StepLeases.of(deps).take(CONNECTION, run.jobId, clock.now() + STEP_LEASE_MS);
    expect(await runsInFlight(deps, CONNECTION)).toBe(true);
    clock.advance(STEP_LEASE_MS - 1);
    expect(await live()).toBe(true);
    clock.advance(1);
    expect(await live()).toBe(false);
    expect(await runsInFlight(deps, CONNECTION)).toBe(false);
  });

  it('outlasts the sync worker’s timeout', () => {
    expect(STEP_LEASE_MS).toBeGreaterThan(QUEUE_WORKERS.syncs.timeoutSeconds * 1000);
  });
});
