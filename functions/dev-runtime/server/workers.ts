// The local runtime runs every queue worker of the worker table (functions/platform/workers.ts) on its
// in-process queue, as the SQS event sources feed them in AWS: the handler module the stack deploys,
// the table's batch size, visibility timeout, receive limit and concurrency, partial batch failures,
// dead letters, and the function timeout. On the aws adapters the emulated runtime's event sources do
// this instead (./emulated-aws.ts). At start the local runtime resumes what the last process held, and
// on SIGTERM it drains or hands back what it holds.
import type { SQSBatchResponse } from 'aws-lambda';
import { LocalQueue } from '../../compose/local';
import { redriveAbandonedJobs } from '../../connectors/index';
import { logger } from '../../platform/logger';
import type { Deps } from '../../platform/ports';
import { QUEUE_NAMES, QUEUE_WORKERS } from '../../platform/workers';
import type { HandlerLoader } from './lambda-runtime';
import { invokeFunction } from './lambda-runtime';

export function attachLocalWorkers(deps: Deps, load: HandlerLoader): boolean {
  const queues = QUEUE_NAMES.map((name) => [name, deps.queues[name]] as const);
  if (!queues.every(([, queue]) => queue instanceof LocalQueue)) return false;
  for (const [name, queue] of queues) {
    const worker = QUEUE_WORKERS[name];
    (queue as LocalQueue).attach(
      (event) => invokeFunction(load, worker, event) as Promise<SQSBatchResponse | void>,
      {
        batchSize: worker.batchSize,
        visibilityTimeoutMs: worker.visibilityTimeoutSeconds * 1000,
        maxReceiveCount: worker.maxReceiveCount,
        maxConcurrency: worker.maxConcurrency,
      },
    );
  }
  return true;
}

/**
 * Before the workers consume, at a start of `npm start`: the import runs and exports the last process
 * was moving are re-driven now (connectors' redriveAbandonedJobs), as the queues already hand back the
 * messages it held (LocalQueue's open). Nothing outlives this single process, so nothing in flight at
 * its stop is still being worked on; without this a run whose step message was lost waited for the sync
 * sweep's stale-job threshold (20 minutes).
 */
export async function resumeAbandonedJobs(deps: Deps): Promise<number> {
  return redriveAbandonedJobs(deps, logger.child({ runtime: 'start' }));
}

/**
 * SIGTERM on `npm start`: every queue stops handing out work, finishes what is in hand within `graceMs`
 * (all queues at once, so the grace bounds the whole stop), and hands back the rest (LocalQueue.shutdown).
 */
export async function stopLocalWorkers(deps: Deps, graceMs: number) {
  const queues = QUEUE_NAMES.map((name) => deps.queues[name]).filter((q) => q instanceof LocalQueue);
  const results = await Promise.all(queues.map((queue) => queue.shutdown(graceMs)));
  return results.reduce(
    (sum, r) => ({ settled: sum.settled + r.settled, handedBack: sum.handedBack + r.handedBack }),
    { settled: 0, handedBack: 0 },
  );
}
