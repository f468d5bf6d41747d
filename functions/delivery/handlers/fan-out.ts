// SQS (events queue) -> one delivery per subscribed endpoint.
import { webhookEventSchema } from '../../events/event';
import { fanOut } from '../fan-out';
import { sqsHandler } from '../sqs-handler';

export const handler = sqsHandler('fan-out', webhookEventSchema, async ({ message, deps, log }) => {
  await fanOut(deps, message, log);
  return 'done';
});
