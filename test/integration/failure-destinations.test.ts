// Where the emulated runtime sends a scheduled event that went wrong, on the emulators with the
// template's resources provisioned: EventBridge's undeliverable event reaches the rule's dead-letter
// queue (the schedules' failures queue) with EventBridge's attributes, and not once the queue policy
// lost the rule's statement; a run that failed its retries reaches the function's on-failure
// destination as Lambda's invocation record, and not when the function's role may not send there.
import { ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { randomBytes } from 'node:crypto';
import type { ResourceSpec, ScheduleSpec } from '../../lib/emulated-functions';
import { resourceSpecs, scheduleSpecs } from '../../lib/emulated-functions';
import type { ProvisionedStack } from '../../functions/dev-runtime/emulated-aws/provision';
import { provisionStack } from '../../functions/dev-runtime/emulated-aws/provision';
import {
  deadLetter,
  onFailureDestination,
} from '../../functions/dev-runtime/emulated-aws/failure-destinations';
import { InvokePermissionError } from '../../functions/dev-runtime/emulated-aws/resource-policies';
import type { EventSourceLog } from '../../functions/dev-runtime/emulated-aws/event-source';
import { requireEmulators } from '../support/emulators';
import { synthStack } from '../support/synth';

const prefix = `fail-${randomBytes(3).toString('hex')}`;
let provisioned: ProvisionedStack;
let rule: ScheduleSpec;
const lost: string[] = [];
const log: EventSourceLog = { error: (message) => void lost.push(message), warn: () => undefined };

beforeAll(async () => {
  requireEmulators();
  const { stack, template } = synthStack();
  [rule] = scheduleSpecs(stack, template) as [ScheduleSpec];
  provisioned = await provisionStack({ prefix, resources: resourceSpecs(stack, template) });
}, 180_000);

const received = async () => {
  const out = await new SQSClient({}).send(
    new ReceiveMessageCommand({
      QueueUrl: provisioned.resources['queue:schedules-failures']!.ref,
      MaxNumberOfMessages: 10,
      MessageAttributeNames: ['All'],
      WaitTimeSeconds: 1,
    }),
  );
  return out.Messages ?? [];
};

const event = { source: 'aws.events', 'detail-type': 'Scheduled Event', detail: {} };

describe("a scheduled event that went wrong, on the template's resources", () => {
  it("reaches the rule's dead-letter queue when EventBridge could not deliver it, as the queue policy allows", async () => {
    const refused = new InvokePermissionError(rule.functionId, 'events.amazonaws.com', rule.ruleArn);
    await deadLetter(provisioned, rule, event, refused, log);
    const [message, ...more] = await received();
    expect(more).toEqual([]);
    expect(JSON.parse(message!.Body!)).toEqual(event);
    expect(message!.MessageAttributes!.RULE_ARN!.StringValue).toBe(rule.ruleArn);
    expect(message!.MessageAttributes!.ERROR_CODE!.StringValue).toBe('AccessDeniedException');
  });

  it("is lost, and said so, when the queue's policy lacks the rule's statement", async () => {
    const queue = provisioned.resources['queue:schedules-failures']!;
    const policy = queue.spec.policy as { Statement: ResourceSpec['properties'][] };
    expect(policy.Statement.filter((s) => JSON.stringify(s).includes(rule.ruleArn))).toHaveLength(1);
    const withoutRule = {
      ...provisioned,
      resources: {
        ...provisioned.resources,
        'queue:schedules-failures': {
          ...queue,
          spec: {
            ...queue.spec,
            policy: {
              ...policy,
              Statement: policy.Statement.filter((s) => !JSON.stringify(s).includes(rule.ruleArn)),
            },
          },
        },
      },
    };
    lost.length = 0;
    await deadLetter(withoutRule, rule, event, new Error('refused'), log);
    expect(await received()).toEqual([]);
    expect(lost).toEqual(['EventBridge could not deliver a scheduled event, and it is lost']);
  });

  it("reaches the function's on-failure destination as Lambda's record once its retries are spent", async () => {
    const failure = Object.assign(new Error('sweep failed'), {
      errorType: 'SweepError',
      errorMessage: 'sweep failed',
    });
    await onFailureDestination(provisioned, 'us-east-1', rule, event, failure, 1, log);
    const [message] = await received();
    expect(JSON.parse(message!.Body!)).toMatchObject({
      version: '1.0',
      requestContext: { condition: 'RetriesExhausted', approximateInvokeCount: 1 },
      requestPayload: event,
      responsePayload: { errorType: 'SweepError', errorMessage: 'sweep failed' },
    });
    lost.length = 0;
    const roleCannotSend = { ...rule, onFailure: { ...rule.onFailure!, roleLacksSend: true } };
    await onFailureDestination(provisioned, 'us-east-1', roleCannotSend, event, failure, 1, log);
    expect(await received()).toEqual([]);
    expect(lost).toHaveLength(1);
  });
});
