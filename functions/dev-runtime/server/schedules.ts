// The development runtimes run every scheduled worker of the worker table (functions/platform/workers.ts)
// as EventBridge does in AWS: the handler module the stack deploys, with a scheduled event, cut at its
// function timeout. Locally a schedule fires at most LOCAL_SCHEDULE_INTERVAL_MS apart (30 s by default,
// so a person trying the service need not wait 5 minutes; 0 turns the timers off).
// `npm start`: one run of a worker at a time, a tick while one is going is skipped. The emulated AWS
// runtime invokes as EventBridge does (`asynchronous`): every tick is an asynchronous invocation,
// whether or not a run is going, retried SCHEDULE_RETRY_ATTEMPTS times as the stack's rule and
// function are set (never), a failed run logged as the failures queue would receive it.
// The development hook's run (below) always waits for the run in progress, then runs afresh.
import { randomUUID } from 'node:crypto';
import { getNumberFromEnv } from '../../platform/config';
import type { Clock } from '../../platform/clock';
import { logger } from '../../platform/logger';
import { SCHEDULE_RETRY_ATTEMPTS, SCHEDULED_WORKERS } from '../../platform/workers';
import type { FunctionRef, Invoker } from './lambda-runtime';
import type { Extension } from './server';

export interface Schedules {
  /** Runs the worker now (after the run under way, if any) and answers what its handler returned. */
  run(id: string): Promise<unknown>;
  stop(): void;
}

/** The event an EventBridge schedule rule sends. */
function scheduledEvent(worker: ScheduleRule, clock: Clock) {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '000000000000',
    time: new Date(clock.now()).toISOString(),
    region: 'local',
    resources: [`arn:aws:events:local:000000000000:rule/${worker.id}`],
    detail: {},
  };
}

/** A schedule rule and its target: the worker table's, or the synthesized template's (emulated AWS). */
export interface ScheduleRule extends FunctionRef {
  rateMinutes: number;
  /** Retries of a failed asynchronous invocation (the function's MaximumRetryAttempts). */
  retryAttempts: number;
  /** The function's on-failure destination: given the event and the last error once the retries are spent. */
  onFailure?: (event: unknown, error: unknown, attempts: number) => Promise<void>;
}

const TABLE_RULES: ScheduleRule[] = SCHEDULED_WORKERS.map((w) => ({
  id: w.id,
  handler: w.handler,
  timeoutSeconds: w.timeoutSeconds,
  rateMinutes: w.rateMinutes,
  retryAttempts: SCHEDULE_RETRY_ATTEMPTS,
}));

export interface ScheduleOptions {
  /** The rules to run (default: the worker table's); the emulated AWS runtime gives the template's. */
  rules?: ScheduleRule[];
  /** Invoke as EventBridge does: every tick, overlapping runs, the stack's retry settings. */
  asynchronous?: boolean;
  /** At most this far apart (default LOCAL_SCHEDULE_INTERVAL_MS, 30 s; 0: no timers). */
  intervalMs?: number;
}

export function startSchedules(invoke: Invoker, clock: Clock, options: ScheduleOptions = {}): Schedules {
  const log = logger.child({ runtime: 'schedules' });
  const running = new Map<string, Promise<unknown>>();
  const rules = options.rules ?? TABLE_RULES;
  const run = async (worker: ScheduleRule): Promise<unknown> => {
    for (let current = running.get(worker.id); current; current = running.get(worker.id)) {
      await current.catch(() => undefined);
    }
    const started = invoke(worker, scheduledEvent(worker, clock));
    running.set(worker.id, started);
    try {
      return await started;
    } finally {
      running.delete(worker.id);
    }
  };

  /** EventBridge's asynchronous invocation: no waiting, no skipping, the stack's retries. */
  const invokeAsynchronously = async (worker: ScheduleRule): Promise<void> => {
    const event = scheduledEvent(worker, clock);
    for (let attempt = 0; ; attempt++) {
      try {
        await invoke(worker, event);
        return;
      } catch (error) {
        if (attempt >= worker.retryAttempts) {
          log.error('scheduled run failed', { worker: worker.id, attempts: attempt + 1, error });
          await worker.onFailure?.(event, error, attempt + 1).catch((failed: unknown) =>
            log.error('the on-failure destination did not take the failed run', {
              worker: worker.id,
              failed,
            }),
          );
          return;
        }
      }
    }
  };

  const interval = options.intervalMs ?? getNumberFromEnv('LOCAL_SCHEDULE_INTERVAL_MS', { default: 30_000 });
  const timers =
    interval > 0
      ? rules.map((worker) =>
          setInterval(
            () => {
              if (options.asynchronous) return void invokeAsynchronously(worker);
              if (running.has(worker.id)) return; // npm start: one run at a time, skip
              run(worker).catch((error: unknown) =>
                log.error('scheduled run failed', { worker: worker.id, error }),
              );
            },
            Math.min(worker.rateMinutes * 60_000, interval),
          ).unref(),
        )
      : [];

  return {
    run: (id) => {
      const worker = rules.find((w) => w.id === id);
      if (!worker) return Promise.reject(new Error(`No scheduled worker ${id}`));
      return run(worker);
    },
    stop: () => timers.forEach(clearInterval),
  };
}

/** Schedules that start later (the emulated AWS runtime's, once its functions have started). */
export function deferredSchedules(started: Promise<Schedules>): Schedules {
  return {
    run: async (id) => (await started).run(id),
    stop: () => void started.then((schedules) => schedules.stop()),
  };
}

/**
 * `POST /__dev/<id in kebab case>` (LOCAL_TEST_HOOKS=1) runs that scheduled worker now and answers its
 * summary, e.g. /__dev/sync-sweep: tests need not wait for the timer. /__dev/token-sweep is answered by
 * ./token-hooks.ts.
 */
export function devScheduleHooks(schedules: Schedules): Extension {
  const paths = new Map(
    SCHEDULED_WORKERS.map((w) => [`/__dev/${w.id.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, w.id]),
  );
  return async (request, response, url) => {
    const id = paths.get(url.pathname);
    if (process.env.LOCAL_TEST_HOOKS !== '1' || request.method !== 'POST' || !id) return false;
    const summary = await schedules.run(id);
    response.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    response.end(JSON.stringify(summary ?? {}));
    return true;
  };
}
