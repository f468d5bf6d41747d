// Wiring of event delivery: both workers on their queues with partial batch failures, visibility
// timeouts that outlast the workers, least-privilege grants, the DLQ redrive and the alarms.
import type { Template } from 'aws-cdk-lib/assertions';
import { Match } from 'aws-cdk-lib/assertions';
import type { Delivery } from '../../lib/delivery';
import type { ServiceStack } from '../../lib/service-stack';
import { actionsOfRole, synthStack } from '../support/synth';

let stack: ServiceStack;
let template: Template;
let delivery: Delivery;

beforeAll(() => {
  ({ stack, template } = synthStack({ context: { alarmEmail: 'ops@example.com' } }));
  delivery = stack.node.findChild('Delivery') as Delivery;
});

type Resources = Record<string, { Properties: Record<string, unknown> }>;
const id = (construct: { node: { defaultChild?: unknown } }) =>
  stack.getLogicalId(construct.node.defaultChild as never);

function actions(fn: Delivery['deliver']): string[] {
  return actionsOfRole(template, id(fn.fn.role! as never));
}

const fnProps = (fn: Delivery['deliver']) =>
  (template.findResources('AWS::Lambda::Function') as Resources)[id(fn.fn)]!.Properties;
const queueProps = (name: 'events' | 'deliveries') =>
  (template.findResources('AWS::SQS::Queue') as Resources)[id(stack.messaging.queues[name].queue)]!
    .Properties;

describe('event delivery in the service stack', () => {
  it.each([
    ['fan-out', 'events', () => delivery.fanOut, 'webhooks/api/handlers/fan-out'],
    ['delivery', 'deliveries', () => delivery.deliver, 'webhooks/api/handlers/deliver'],
  ] as const)(
    'feeds the %s worker from the %s queue with partial batch failures',
    (_n, queue, fn, handler) => {
      template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: id(fn().fn) },
        EventSourceArn: { 'Fn::GetAtt': [id(stack.messaging.queues[queue].queue), 'Arn'] },
        BatchSize: 10,
        MaximumBatchingWindowInSeconds: 1,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        ScalingConfig: { MaximumConcurrency: Match.anyValue() },
      });
      expect(fnProps(fn()).ReservedConcurrentExecutions).toBeGreaterThan(0);
      expect(fn().node.path).toContain('Delivery');
      expect(JSON.stringify(fnProps(fn()))).not.toContain('whsec_');
      expect(handler).toMatch(/^webhooks\/api\/handlers\//);
    },
  );

  it('gives each queue a visibility timeout of six times its worker timeout and a redrive to its DLQ', () => {
    for (const [name, fn] of [
      ['events', delivery.fanOut],
      ['deliveries', delivery.deliver],
    ] as const) {
      const props = queueProps(name);
      expect(props.VisibilityTimeout).toBe((fnProps(fn).Timeout as number) * 6);
      expect(props.RedrivePolicy).toEqual({
        deadLetterTargetArn: { 'Fn::GetAtt': [id(stack.messaging.queues[name].deadLetterQueue), 'Arn'] },
        maxReceiveCount: expect.any(Number),
      });
    }
    expect((queueProps('deliveries').RedrivePolicy as { maxReceiveCount: number }).maxReceiveCount).toBe(3);
  });

  it('grants the workers only what they use: no KMS for fan-out, decrypt only for delivery', () => {
    const fanOut = actions(delivery.fanOut);
    const deliver = actions(delivery.deliver);
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
    const env = (fnProps(delivery.deliver).Environment as { Variables: Record<string, unknown> }).Variables;
    expect(Object.keys(env)).toEqual(
      expect.arrayContaining(['TABLE_WEBHOOKS', 'KMS_KEY_ID', 'QUEUE_DELIVERIES_URL', 'QUEUE_EVENTS_URL']),
    );
  });

  it('alarms on dead letters and on the age of the oldest message, to the alarm topic', () => {
    for (const name of ['events', 'deliveries'] as const) {
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
});
