// SQS (events queue) -> one delivery per subscribed endpoint.
import { publishedEventSchema } from '../../../events';
import { fanOut } from '../../app/fan-out';
import { sqsHandler } from '../../../platform/sqs';

export const create = sqsHandler('fan-out', publishedEventSchema, async ({ message, deps, log }) => {
  await fanOut(deps, message, log);
  return 'done';
});
