// SQS (events queue) -> one delivery per subscribed endpoint.
import { webhookEventSchema } from '../../../events';
import { fanOut } from '../../app/fan-out';
import { sqsHandler } from '../../../platform/sqs';

export const create = sqsHandler('fan-out', webhookEventSchema(), async ({ message, deps, log }) => {
  await fanOut(deps, message, log);
  return 'done';
});
