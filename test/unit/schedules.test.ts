// Schedules on the emulated AWS runtime invoke as EventBridge does: every tick is an
// asynchronous invocation, overlapping a run still going, and a failed run is retried as the stack sets
// it (SCHEDULE_RETRY_ATTEMPTS, never). `npm start` keeps one run at a time.
import { OffsetClock } from '../../functions/platform/clock';
import type { Schedules } from '../../functions/dev-runtime/server/schedules';
import { startSchedules } from '../../functions/dev-runtime/server/schedules';
import type { HandlerLoader } from '../../functions/dev-runtime/server/lambda-runtime';
import { inProcess } from '../../functions/dev-runtime/server/lambda-runtime';
import { SCHEDULE_RETRY_ATTEMPTS, SCHEDULED_WORKERS } from '../../functions/platform/workers';

const worker = SCHEDULED_WORKERS[0]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let calls = 0;
let running = 0;
let mostAtOnce = 0;
let behaviour: 'slow' | 'fail' = 'slow';

const load: HandlerLoader = async (module) => async () => {
  if (module !== worker.handler) return {};
  calls++;
  running++;
  mostAtOnce = Math.max(mostAtOnce, running);
  try {
    if (behaviour === 'fail') throw new Error('sweep failed');
    await sleep(350);
    return {};
  } finally {
    running--;
  }
};

let schedules: Schedules | undefined;
beforeEach(() => {
  calls = running = mostAtOnce = 0;
});
afterEach(async () => {
  schedules?.stop();
  await sleep(400); // runs already started end
});

describe('schedules', () => {
  it('on the emulated AWS runtime, invoke on every tick even while a run is going', async () => {
    behaviour = 'slow';
    schedules = startSchedules(inProcess(load), new OffsetClock(), { asynchronous: true, intervalMs: 100 });
    await sleep(480);
    expect(mostAtOnce).toBeGreaterThanOrEqual(3);
  });

  it('on the emulated AWS runtime, retry a failed run as the stack sets it', async () => {
    behaviour = 'fail';
    schedules = startSchedules(inProcess(load), new OffsetClock(), { asynchronous: true, intervalMs: 200 });
    await sleep(300); // one tick
    expect(calls).toBe(1 + SCHEDULE_RETRY_ATTEMPTS);
  });

  it("on the emulated AWS runtime, give a run that failed its retries to the function's on-failure destination", async () => {
    behaviour = 'fail';
    const failed: { event: unknown; error: unknown; attempts: number }[] = [];
    schedules = startSchedules(inProcess(load), new OffsetClock(), {
      asynchronous: true,
      intervalMs: 200,
      rules: [
        {
          id: worker.id,
          handler: worker.handler,
          timeoutSeconds: worker.timeoutSeconds,
          rateMinutes: worker.rateMinutes,
          retryAttempts: 1,
          onFailure: async (event, error, attempts) => void failed.push({ event, error, attempts }),
        },
      ],
    });
    await sleep(300); // one tick
    expect(calls).toBe(2);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ attempts: 2, event: { source: 'aws.events' } });
    expect((failed[0]!.error as Error).message).toContain('sweep failed');
  });

  it('under npm start, skip a tick while a run is going', async () => {
    behaviour = 'slow';
    schedules = startSchedules(inProcess(load), new OffsetClock(), { intervalMs: 100 });
    await sleep(480);
    expect(mostAtOnce).toBe(1);
  });
});
