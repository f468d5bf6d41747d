// Wiring of the worker table (functions/platform/workers.ts) in the stack: each queue's consumer fed by
// an SQS event source with the table's batch, window and maximum concurrency and partial batch
// failures, no reserved concurrency anywhere, visibility timeouts of six times the consumer's timeout,
// the table's redrive counts, least-privilege grants, the alarms, and the scheduled workers' rules.
import type { Template } from 'aws-cdk-lib/assertions';
import { Match } from 'aws-cdk-lib/assertions';
import type { QueueName } from '../../functions/platform/workers';
import {
  DEAD_LETTER_RETENTION_DAYS,
  QUEUE_NAMES,
  QUEUE_WORKERS,
  SCHEDULED_WORKERS,
} from '../../functions/platform/workers';
import type { ServiceFunction } from '../../lib/service-function';
import type { ServiceStack } from '../../lib/service-stack';
import { actionsOfRole, logicalIdOf, roleIdOf, synthStack } from '../support/synth';

let stack: ServiceStack;
let template: Template;

beforeAll(() => {
  ({ stack, template } = synthStack({ context: { alarmEmail: 'ops@example.com' } }));
});

type Resources = Record<string, { Properties: Record<string, unknown> }>;
const id = (construct: { node: { defaultChild?: unknown } }) =>
  logicalIdOf(construct.node.defaultChild as never);

const fnProps = (fn: ServiceFunction) =>
  (template.findResources('AWS::Lambda::Function') as Resources)[id(fn.fn)]!.Properties;
const queueProps = (name: QueueName, which: 'queue' | 'deadLetterQueue' = 'queue') =>
  (template.findResources('AWS::SQS::Queue') as Resources)[id(stack.messaging.queues[name][which])]!
    .Properties;
const worker = (queue: QueueName) => stack.queueWorkers.functions[queue];

describe('the worker table in the service stack', () => {
  it.each(QUEUE_NAMES)(
    'feeds the %s queue to its worker with the batch, window and maximum concurrency of the table',
    (queue) => {
      const entry = QUEUE_WORKERS[queue];
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: id(worker(queue).fn) },
        EventSourceArn: { 'Fn::GetAtt': [id(stack.messaging.queues[queue].queue), 'Arn'] },
        BatchSize: entry.batchSize,
        MaximumBatchingWindowInSeconds: entry.batchingWindowSeconds,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        ScalingConfig: { MaximumConcurrency: entry.maxConcurrency },
      });
      expect(fnProps(worker(queue))).toMatchObject({
        Timeout: entry.timeoutSeconds,
        Description: entry.description,
      });
      expect(JSON.stringify(fnProps(worker(queue)))).not.toContain('whsec_');
    },
  );

  it('has exactly one event source per queue of the table, and one queue (with its DLQ) per entry', () => {
    expect(Object.keys(template.findResources('AWS::Lambda::EventSourceMapping'))).toHaveLength(
      QUEUE_NAMES.length,
    );
    // Plus the scheduled runs' failures queue.
    expect(Object.keys(template.findResources('AWS::SQS::Queue'))).toHaveLength(QUEUE_NAMES.length * 2 + 1);
  });

  it('reserves no concurrency for any function: accounts with a low concurrency quota refuse it', () => {
    const functions = template.findResources('AWS::Lambda::Function') as Resources;
    expect(Object.keys(functions).length).toBeGreaterThan(30);
    for (const [name, fn] of Object.entries(functions)) {
      expect({ name, reserved: fn.Properties.ReservedConcurrentExecutions }).toEqual({
        name,
        reserved: undefined,
      });
    }
  });

  it.each(QUEUE_NAMES)(
    'gives the %s queue a visibility timeout of six times its worker timeout and the table redrive',
    (queue) => {
      const entry = QUEUE_WORKERS[queue];
      const props = queueProps(queue);
      expect(props.VisibilityTimeout).toBe((fnProps(worker(queue)).Timeout as number) * 6);
      expect(props.VisibilityTimeout).toBe(entry.visibilityTimeoutSeconds);
      expect(props.MessageRetentionPeriod).toBe(entry.retentionDays * 24 * 3600);
      expect(props.RedrivePolicy).toEqual({
        deadLetterTargetArn: { 'Fn::GetAtt': [id(stack.messaging.queues[queue].deadLetterQueue), 'Arn'] },
        maxReceiveCount: entry.maxReceiveCount,
      });
      expect(queueProps(queue, 'deadLetterQueue').MessageRetentionPeriod).toBe(
        DEAD_LETTER_RETENTION_DAYS * 24 * 3600,
      );
    },
  );

  it('keeps 5 receives for deliveries as for events: a throttled receive must not dead-letter a step that never ran', () => {
    expect((queueProps('deliveries').RedrivePolicy as { maxReceiveCount: number }).maxReceiveCount).toBe(5);
    expect((queueProps('events').RedrivePolicy as { maxReceiveCount: number }).maxReceiveCount).toBe(5);
  });

  it('grants the workers only what they use: no KMS for fan-out, decrypt only for delivery', () => {
    const actions = (fn: ServiceFunction) => actionsOfRole(template, roleIdOf(stack, fn));
    const fanOut = actions(worker('events'));
    const deliver = actions(worker('deliveries'));
    expect(fanOut.filter((a) => a.startsWith('kms:'))).toEqual([]);
    expect(deliver.filter((a) => a.startsWith('kms:'))).toEqual(['kms:Decrypt']);
    for (const list of [fanOut, deliver]) {
      expect(list).toEqual(
        expect.arrayContaining([
          'dynamodb:GetItem',
          'dynamodb:PutItem',
          'dynamodb:UpdateItem',
          'dynamodb:Query',
          'sqs:SendMessage',
          'sqs:ReceiveMessage',
          'sqs:DeleteMessage',
        ]),
      );
      expect(list).not.toContain('dynamodb:Scan');
      expect(list).not.toContain('dynamodb:*');
    }
    const env = (fnProps(worker('deliveries')).Environment as { Variables: Record<string, unknown> })
      .Variables;
    expect(Object.keys(env)).toEqual(
      expect.arrayContaining(['TABLE_WEBHOOKS', 'KMS_KEY_ID', 'QUEUE_DELIVERIES_URL', 'QUEUE_EVENTS_URL']),
    );
  });

  it('alarms on dead letters and on the age of the oldest message, to the alarm topic', () => {
    for (const name of QUEUE_NAMES) {
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [
          {
            Name: 'QueueName',
            Value: { 'Fn::GetAtt': [id(stack.messaging.queues[name].deadLetterQueue), 'QueueName'] },
          },
        ],
        Threshold: 0,
        ComparisonOperator: 'GreaterThanThreshold',
        AlarmActions: [{ Ref: Match.anyValue() }],
      });
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        MetricName: 'ApproximateAgeOfOldestMessage',
        Threshold: QUEUE_WORKERS[name].oldestMessageAlarmMinutes * 60,
        Dimensions: [
          {
            Name: 'QueueName',
            Value: { 'Fn::GetAtt': [id(stack.messaging.queues[name].queue), 'QueueName'] },
          },
        ],
      });
    }
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
    });
  });

  it.each(SCHEDULED_WORKERS.map((w) => [w.id, w] as const))(
    'invokes the scheduled worker %s from an EventBridge rule at the table rate, without retries',
    (workerId, entry) => {
      const fn = stack.scheduledWorkers.functions.get(workerId)!;
      const rule = stack.scheduledWorkers.rules.get(workerId)!;
      const minutes = entry.rateMinutes;
      template.hasResourceProperties('AWS::Events::Rule', {
        ScheduleExpression: `rate(${minutes} ${minutes === 1 ? 'minute' : 'minutes'})`,
        Targets: [
          Match.objectLike({
            Arn: { 'Fn::GetAtt': [id(fn.fn), 'Arn'] },
            RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: minutes * 60 },
          }),
        ],
      });
      expect(id(rule)).toMatch(/^[A-Za-z0-9]+$/);
      expect(fnProps(fn)).toMatchObject({ Timeout: entry.timeoutSeconds, Description: entry.description });
      expect(entry.timeoutSeconds).toBeLessThan(minutes * 60);
    },
  );
});
