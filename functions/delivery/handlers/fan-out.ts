// SQS (events queue) -> one delivery per subscribed endpoint.
import { publishedEventSchema } from '../../events/publish';
import { fanOut } from '../fan-out';
import { sqsHandler } from '../sqs-handler';

export const handler = sqsHandler('fan-out', publishedEventSchema, async ({ message, deps, log }) => {
  await fanOut(deps, message, log);
  return 'done';
});
