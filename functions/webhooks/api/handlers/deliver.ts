// SQS (deliveries queue) -> one signed attempt step per message, or a recover job.
import { getNumberFromEnv, loopbackAllowed } from '../../../platform/config';
import type { DeliverOptions } from '../../app/deliver';
import { processAttempt, processLastAttempt, readMessage } from '../../app/deliver';
import { deliveriesMessage } from '../../domain/messages';
import { runRecovery } from '../../app/replay';
import type { SqsHandlerFactory } from '../../../platform/sqs';
import { isLastReceive, sqsHandler } from '../../../platform/sqs';
import { ATTEMPT_TIMEOUT_MS } from '../../infra/send';

/** The worker with its options; tests shorten the timeout, change the address policy or the recover page. */
export function deliveryWorker(
  options: Partial<DeliverOptions> = {},
  recovery: { pageSize?: number } = {},
): SqsHandlerFactory {
  // Read once per worker, on its first message (not per message: config is read once).
  let settings: DeliverOptions | undefined;
  const configured = (): DeliverOptions =>
    (settings ??= {
      allowLoopback: loopbackAllowed(),
      timeoutMs: getNumberFromEnv('DELIVERY_ATTEMPT_TIMEOUT_MS', { default: ATTEMPT_TIMEOUT_MS }),
      ...options,
    });
  return sqsHandler('deliver', deliveriesMessage(), async ({ message, record, deps, log }) => {
    if (message.kind === 'recover') {
      await runRecovery(deps, message, log, recovery);
      return 'done';
    }
    // On its last receive a step marks its delivery first (docs/decisions.md, "A dead-lettered step").
    const last = await isLastReceive(deps.queues.deliveries, record, log);
    // Only a first receive may take the delivery its message carries: a later one reads what an
    // earlier receive made of it.
    const first = Number(record.attributes?.ApproximateReceiveCount ?? 1) <= 1;
    const step = first ? message : readMessage(message);
    const result = await (last ? processLastAttempt : processAttempt)(deps, step, configured(), log);
    return result === 'dead_letter' ? 'retry' : 'done';
  });
}

export const create = deliveryWorker();
