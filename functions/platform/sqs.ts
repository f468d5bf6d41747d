// The one wrapper every SQS-triggered worker is built with: parse and validate each record, run the
// records of a batch concurrently, log with request and message ids, and report only the records that
// failed (batchItemFailures), so one bad message never redelivers its neighbours.
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type * as z from 'zod/mini';
import { AppError } from './errors';
import type { Deps, Queue } from './ports';
import { mappedStack } from './stack-trace';
import { describeZodError } from './validation';
import type { Logger } from './logger';
import { logSink, logger as rootLogger } from './logger';

export interface RecordInput<T> {
  message: T;
  record: SQSRecord;
  deps: Deps;
  log: Logger;
}

/** `retry`: report the record failed (SQS makes it visible again, and the redrive policy counts it). */
export type RecordResult = 'done' | 'retry';

export type SqsHandler = (event: SQSEvent, context?: Partial<Context>) => Promise<SQSBatchResponse>;

/** What a worker module exports: its SQS handler, built once from the runtime's ports. */
export type SqsHandlerFactory = (deps: Deps) => SqsHandler;

export function sqsHandler<S extends z.ZodMiniType>(
  worker: string,
  schema: S,
  run: (input: RecordInput<z.infer<S>>) => Promise<RecordResult>,
): SqsHandlerFactory {
  return (deps) => async (event, context) => {
    const requestId = context?.awsRequestId ?? 'local';
    // Lambda context (request id, cold start, function) on every line, as the HTTP stack's middleware adds it.
    if (context?.awsRequestId && context.functionName) logSink.addContext(context as Context);
    const outcomes = await Promise.all(
      event.Records.map(async (record): Promise<boolean> => {
        const log = rootLogger.child({
          worker,
          requestId,
          messageId: record.messageId,
          receiveCount: Number(record.attributes?.ApproximateReceiveCount ?? 1),
        });
        try {
          const parsed = schema.safeParse(JSON.parse(record.body));
          if (!parsed.success) {
            log.error('malformed message', { problem: describeZodError(parsed.error) });
            return false;
          }
          return (await run({ message: parsed.data, record, deps, log })) === 'done';
        } catch (error) {
          // An AppError is a named outcome; anything else is a bug, logged with its stack at its
          // original source lines (the error itself is logged as name and message).
          const unexpected = error instanceof Error && !(error instanceof AppError);
          log.error('message failed', { error, ...(unexpected ? { stack: mappedStack(error) } : {}) });
          return false;
        }
      }),
    );
    const batchItemFailures = event.Records.filter((_, i) => !outcomes[i]).map((r) => ({
      itemIdentifier: r.messageId,
    }));
    if (batchItemFailures.length) {
      rootLogger.warn('batch item failures', {
        worker,
        requestId,
        failed: batchItemFailures.length,
        of: event.Records.length,
      });
    }
    return { batchItemFailures };
  };
}

/**
 * Whether this is the record's last receive before its queue's redrive policy moves it to the
 * dead-letter queue. Unknown (no policy, or the policy could not be read): false, and logged, so a
 * worker never stops on it.
 */
export async function isLastReceive(queue: Queue, record: SQSRecord, log: Logger): Promise<boolean> {
  const received = Number(record.attributes?.ApproximateReceiveCount ?? 1);
  try {
    const max = await queue.maxReceiveCount();
    return max !== undefined && received >= max;
  } catch (error) {
    log.warn('redrive policy unreadable: last receive not recognised', { queue: queue.name, error });
    return false;
  }
}
