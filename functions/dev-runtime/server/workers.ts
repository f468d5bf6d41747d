// The local runtime runs every queue worker of the worker table (functions/platform/workers.ts) on its
// in-process queue, as the SQS event sources feed them in AWS: the handler module the stack deploys,
// the table's batch size, visibility timeout, receive limit and concurrency, partial batch failures,
// dead letters, and the function timeout. On the aws adapters the emulated runtime's event sources do
// this instead (./emulated-aws.ts).
import type { SQSBatchResponse } from 'aws-lambda';
import { LocalQueue } from '../../compose/local';
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
