// Where the emulated AWS runtime sends a scheduled event that went wrong, as AWS sends it: an event
// EventBridge could not deliver goes to the rule target's dead-letter queue if the queue's policy lets
// EventBridge send it from that rule; a run that failed its retries goes, as Lambda's invocation record,
// to the function's on-failure destination if the function's execution role may send there. Otherwise
// it is lost, as it would be deployed, and logged as lost.
import { randomUUID } from 'node:crypto';
import type { ScheduleSpec } from './application';
import type { EventSourceLog } from './event-source';
import type { ProvisionedStack } from './provision';
import { resolveValue } from './provision';
import { eventBridgeMaySend } from './resource-policies';
import { sqs } from '../../compose/aws';

/**
 * EventBridge's dead-letter queue of a rule's target: the event it could not deliver, with the
 * attributes EventBridge adds, if the queue's policy lets EventBridge send it from that rule; else the
 * event is lost, as EventBridge loses it, and said so.
 */
export async function deadLetter(
  provisioned: ProvisionedStack,
  rule: ScheduleSpec,
  event: unknown,
  error: Error,
  log: EventSourceLog,
): Promise<void> {
  const queue = rule.deadLetterQueue ? provisioned.resources[rule.deadLetterQueue] : undefined;
  const policy = queue?.spec.policy
    ? resolveValue(queue.spec.policy, provisioned.resources, `${queue.spec.name} policy`)
    : undefined;
  if (!queue || !eventBridgeMaySend(policy, queue.arn, rule.ruleArn)) {
    log.error('EventBridge could not deliver a scheduled event, and it is lost', {
      rule: rule.ruleArn,
      function: rule.functionId,
      error,
      deadLetterQueue: queue
        ? `${rule.deadLetterQueue}: its policy does not let events.amazonaws.com send from the rule`
        : 'none',
    });
    return;
  }
  const { SendMessageCommand } = await import('@aws-sdk/client-sqs');
  const attribute = (value: string) => ({ DataType: 'String', StringValue: value });
  await (
    await sqs()
  ).send(
    new SendMessageCommand({
      QueueUrl: queue.ref,
      MessageBody: JSON.stringify(event),
      MessageAttributes: {
        RULE_ARN: attribute(rule.ruleArn),
        TARGET_ARN: attribute(`function:${rule.functionId}`),
        ERROR_CODE: attribute(error.name),
        ERROR_MESSAGE: attribute(error.message.slice(0, 1000)),
      },
    }),
  );
  log.error('EventBridge could not deliver a scheduled event: sent to the dead-letter queue', {
    rule: rule.ruleArn,
    function: rule.functionId,
    error,
    deadLetterQueue: rule.deadLetterQueue,
  });
}

/**
 * Lambda's on-failure destination of an asynchronous invocation whose retries are spent: the
 * invocation record Lambda sends (request and error), with the function's execution role, so only if
 * the template's role allows sqs:SendMessage on the queue; else the record is lost, and said so.
 */
export async function onFailureDestination(
  provisioned: ProvisionedStack,
  region: string,
  rule: ScheduleSpec,
  event: unknown,
  error: unknown,
  attempts: number,
  log: EventSourceLog,
): Promise<void> {
  const queue = rule.onFailure ? provisioned.resources[rule.onFailure.queue] : undefined;
  if (!rule.onFailure || !queue) return;
  if (rule.onFailure.roleLacksSend) {
    log.error(
      "the failed run's record is lost: the function's execution role may not send to its destination",
      {
        function: rule.functionId,
        destination: rule.onFailure.queue,
      },
    );
    return;
  }
  const failure = error as { errorType?: string; errorMessage?: string; name?: string; message?: string };
  const functionArn = `arn:aws:lambda:${region}:000000000000:function:${rule.functionId}:$LATEST`;
  const record = {
    version: '1.0',
    timestamp: new Date().toISOString(),
    requestContext: {
      requestId: randomUUID(),
      functionArn,
      condition: 'RetriesExhausted',
      approximateInvokeCount: attempts,
    },
    requestPayload: event,
    responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
    responsePayload: {
      errorType: failure.errorType ?? failure.name ?? 'Error',
      errorMessage: failure.errorMessage ?? failure.message ?? String(error),
    },
  };
  const { SendMessageCommand } = await import('@aws-sdk/client-sqs');
  await (
    await sqs()
  ).send(new SendMessageCommand({ QueueUrl: queue.ref, MessageBody: JSON.stringify(record) }));
}
