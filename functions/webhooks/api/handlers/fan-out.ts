// SQS (events queue) -> one delivery per subscribed endpoint.
import { webhookEventSchema } from '../../../events';
import { fanOut } from '../../app/fan-out';
import { sqsHandler } from '../../../platform/sqs';
import { QUEUE_WORKERS } from '../../../platform/workers';

export const create = sqsHandler('fan-out', webhookEventSchema(), async ({ message, record, deps, log }) => {
  // Its next failure would dead-letter the event. Read from the worker table, which sets the queue's
  // redrive policy, not from the queue (isLastReceive): this worker holds no grant or URL of its own
  // queue beyond the event source's.
  const received = Number(record.attributes?.ApproximateReceiveCount ?? 1);
  const { unsettled } = await fanOut(deps, message, log, {
    lastReceive: received >= QUEUE_WORKERS.events.maxReceiveCount,
  });
  // A delivery whose first message may have died with the fan-out that made it: seen again after the
  // visibility timeout, by when it is old enough to be told apart (fan-out.ts).
  return unsettled ? 'retry' : 'done';
});
