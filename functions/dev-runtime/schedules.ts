// The local server runs each scheduled worker the way its EventBridge rule does in AWS: on a timer,
// one run at a time (as reserved concurrency 1). With LOCAL_TEST_HOOKS=1, `POST <hookPath>` runs one
// now and answers its summary, so tests need not wait for the timer.
import { getNumberFromEnv } from '../platform/config';
import type { Logger } from '../platform/logger';
import type { Extension } from './server';

export interface LocalSchedule<S> {
  log: Logger;
  /** Milliseconds between runs; 0 turns the timer off. */
  intervalEnv: string;
  defaultIntervalMs: number;
  hookPath: string;
  run(): Promise<S & { entries: number }>;
  /** What a finished run with work logs. */
  done: string;
}

export function localSchedule<S>(schedule: LocalSchedule<S>): Extension {
  let running: Promise<S & { entries: number }> | undefined;
  const runNow = async (): Promise<S & { entries: number }> => {
    while (running) await running.catch(() => undefined);
    running = schedule.run();
    try {
      const summary = await running;
      if (summary.entries) schedule.log.info(schedule.done, summary as Record<string, unknown>);
      return summary;
    } finally {
      running = undefined;
    }
  };
  const interval = getNumberFromEnv(schedule.intervalEnv, { default: schedule.defaultIntervalMs });
  if (interval > 0) {
    setInterval(() => {
      if (!running)
        runNow().catch((error: unknown) => schedule.log.error(`${schedule.done}: failed`, { error }));
    }, interval).unref();
  }
  return async (request, response, url) => {
    if (
      process.env.LOCAL_TEST_HOOKS !== '1' ||
      request.method !== 'POST' ||
      url.pathname !== schedule.hookPath
    )
      return false;
    const summary = await runNow();
    response.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    response.end(JSON.stringify(summary));
    return true;
  };
}
