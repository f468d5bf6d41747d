// When the refresh sweep takes an idle connection (sweepDueAt), checked property-based against a
// simulated timeline: a connection used at random times (each use refreshing a token that is due, as
// getAccessToken does) and a sweep running every five minutes. Invariants: an unused refresh token
// never goes unused for its idle lifetime; the grant is tried at least once per status check; an idle
// connection costs one sweep refresh per min(check, idle lifetime less its lead), not one per access
// token lifetime; and whatever the order of uses and sweeps, the sweep never refreshes a connection
// whose refresh token was used within that interval.
import fc from 'fast-check';
import {
  IDLE_LEAD_MS,
  STATUS_CHECK_MS,
  sweepDueAt,
  tokenFreshness,
} from '../../functions/connectors/domain/token-policy';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const SWEEP_EVERY_MS = 5 * MIN;
const ACCESS_TOKEN_MS = HOUR;

interface Timeline {
  /** When the refresh token was used (issued at 0, then each refresh), by whom. */
  refreshes: { at: number; by: 'use' | 'sweep' }[];
}

/** Runs the timeline to `end`: uses at the given times, a sweep every five minutes. */
function simulate(idleLifetimeMs: number | null, uses: number[], end: number, checkMs = STATUS_CHECK_MS) {
  const timeline: Timeline = { refreshes: [{ at: 0, by: 'use' }] };
  let obtainedAt = 0;
  const events = [
    ...uses.map((at) => ({ at, kind: 'use' as const })),
    ...Array.from({ length: Math.floor(end / SWEEP_EVERY_MS) }, (_, i) => ({
      at: (i + 1) * SWEEP_EVERY_MS,
      kind: 'sweep' as const,
    })),
  ].sort((a, b) => a.at - b.at || (a.kind === 'use' ? -1 : 1));
  for (const event of events) {
    if (event.kind === 'use') {
      const freshness = tokenFreshness(
        { obtainedAt, accessTokenExpiresAt: obtainedAt + ACCESS_TOKEN_MS },
        event.at,
      );
      if (freshness === 'fresh') continue;
      obtainedAt = event.at;
      timeline.refreshes.push({ at: event.at, by: 'use' });
    } else if (sweepDueAt(obtainedAt, idleLifetimeMs, checkMs) <= event.at) {
      obtainedAt = event.at;
      timeline.refreshes.push({ at: event.at, by: 'sweep' });
    }
  }
  return timeline;
}

const idleLifetimes = fc.oneof(
  fc.constant(null),
  fc.integer({ min: 2 * HOUR, max: 200 * DAY }),
  fc.constantFrom(90 * DAY, 182 * DAY, 12 * HOUR),
);
const END = 60 * DAY;
const usesOver = (end: number) =>
  fc.array(fc.integer({ min: 1, max: end }), { maxLength: 60 }).map((at) => [...at].sort((a, b) => a - b));

describe('the sweep policy (sweepDueAt)', () => {
  it('states the documented intervals', () => {
    expect(sweepDueAt(0, null)).toBe(STATUS_CHECK_MS);
    expect(sweepDueAt(0, 90 * DAY)).toBe(STATUS_CHECK_MS);
    expect(sweepDueAt(0, 12 * HOUR)).toBe(9 * HOUR);
    expect(sweepDueAt(0, 90 * DAY, 120 * DAY)).toBe(90 * DAY - IDLE_LEAD_MS);
    expect(sweepDueAt(0, null, Infinity)).toBe(Infinity);
  });

  it('never lets a refresh token go unused for its idle lifetime, nor the grant untried past a check', () => {
    fc.assert(
      fc.property(
        idleLifetimes,
        usesOver(END),
        fc.constantFrom(STATUS_CHECK_MS, 7 * DAY, Infinity),
        (idle, uses, check) => {
          const { refreshes } = simulate(idle, uses, END, check);
          for (let i = 1; i <= refreshes.length; i++) {
            const gap = (refreshes[i]?.at ?? END) - refreshes[i - 1]!.at;
            if (idle !== null) expect(gap).toBeLessThan(idle);
            expect(gap).toBeLessThanOrEqual(check + SWEEP_EVERY_MS);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refreshes an idle connection once per interval, never per access-token lifetime', () => {
    fc.assert(
      fc.property(idleLifetimes, (idle) => {
        const { refreshes } = simulate(idle, [], 30 * DAY);
        const interval = sweepDueAt(0, idle);
        // Each sweep refresh comes at the first sweep after the interval: at most five minutes late.
        expect(refreshes.length - 1).toBeLessThanOrEqual(Math.ceil((30 * DAY) / interval));
        expect(refreshes.length - 1).toBeGreaterThanOrEqual(
          Math.floor((30 * DAY) / (interval + SWEEP_EVERY_MS)),
        );
        for (const refresh of refreshes.slice(1)) expect(refresh.by).toBe('sweep');
      }),
    );
    // The figure the cost model uses: 30 a month for a provider without a short idle lifetime.
    expect(simulate(null, [], 30 * DAY).refreshes).toHaveLength(1 + 30);
  });

  it('whatever the order of uses and sweeps, the sweep leaves alone a refresh token used within its interval', () => {
    fc.assert(
      fc.property(idleLifetimes, usesOver(10 * DAY), (idle, uses) => {
        const { refreshes } = simulate(idle, uses, 10 * DAY);
        for (let i = 1; i < refreshes.length; i++) {
          if (refreshes[i]!.by !== 'sweep') continue;
          expect(refreshes[i]!.at - refreshes[i - 1]!.at).toBeGreaterThanOrEqual(sweepDueAt(0, idle));
        }
      }),
      { numRuns: 200 },
    );
  });
});
