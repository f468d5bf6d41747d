// Development-only routes of the local server (never deployed): moving the clock forward so a person
// or an e2e test can see a connect link expire or a throttle clear. Enabled by LOCAL_TEST_HOOKS=1.
// `onAdvance` lets a runtime move timers the clock port does not drive (the emulated runtime's SQS
// visibility timeouts) by the same amount, before the hook answers.
import type { OffsetClock } from '../../platform/clock';
import type { Extension } from '../server/server';

export function devHooks(clock: OffsetClock, onAdvance?: (ms: number) => Promise<void>): Extension {
  return async (request, response, url, body) => {
    if (url.pathname !== '/__dev/clock' || process.env.LOCAL_TEST_HOOKS !== '1') return false;
    if (request.method === 'POST') {
      const { advanceMs } = JSON.parse(body.toString('utf8') || '{}') as { advanceMs?: number };
      if (typeof advanceMs === 'number' && advanceMs > 0) {
        clock.offsetMs += advanceMs;
        await onAdvance?.(advanceMs);
      }
    }
    response.setHeader('Content-Type', 'application/json');
    response.end(JSON.stringify({ now: new Date(clock.now()).toISOString(), offsetMs: clock.offsetMs }));
    return true;
  };
}
