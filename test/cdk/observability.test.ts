// Alarms and dashboard: every Lambda watched, the queues' dead letters and age, the API, the delivery
// and connection outcomes from the embedded metrics, the workflows and schedules; one topic when
// `alarmEmail` is set, and no action without it.
import type { Template } from 'aws-cdk-lib/assertions';
import { Match } from 'aws-cdk-lib/assertions';
import { METRICS, METRICS_NAMESPACE } from '../../functions/platform/metrics';
import { QUEUE_NAMES } from '../../functions/platform/workers';
import type { Observability } from '../../lib/observability';
import { ServiceFunction } from '../../lib/service-function';
import type { ServiceStack } from '../../lib/service-stack';
import { logicalIdOf, synthStack } from '../support/synth';

type Resources = Record<string, { Properties: Record<string, unknown> }>;

const alarmsOf = (template: Template) =>
  Object.values(template.findResources('AWS::CloudWatch::Alarm') as Resources);
const described = (template: Template, text: string) =>
  alarmsOf(template).filter((a) => String(a.Properties.AlarmDescription).includes(text));

describe('observability (prod, with an alarm email)', () => {
  let stack: ServiceStack;
  let template: Template;
  beforeAll(() => {
    ({ stack, template } = synthStack({ stage: 'prod', context: { alarmEmail: 'ops@example.com' } }));
  });

  it('sends every alarm to one topic that refuses plain HTTP and mails the address', () => {
    const topics = template.findResources('AWS::SNS::Topic');
    expect(Object.keys(topics)).toHaveLength(1);
    const topic = Object.keys(topics)[0]!;
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
    });
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
    for (const alarm of alarmsOf(template)) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topic }]);
  });

  it('watches the error rate of every Lambda of the service', () => {
    const functions = stack.node.findAll().filter((c) => c instanceof ServiceFunction);
    expect(functions.length).toBeGreaterThan(30);
    expect(described(template, 'ended in an error')).toHaveLength(functions.length);
    for (const alarm of described(template, 'ended in an error')) {
      expect(alarm.Properties.Threshold).toBe(2);
      expect(JSON.stringify(alarm.Properties.Metrics)).toContain('100 * errors / invocations');
    }
  });

  it('watches the throttles of the account (no function reserves concurrency of its own)', () => {
    expect(described(template, 'was throttled')).toEqual([]);
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/Lambda',
      MetricName: 'Throttles',
      Dimensions: Match.absent(),
    });
  });

  it('watches every dead-letter queue and the age of the oldest message', () => {
    for (const name of QUEUE_NAMES) {
      const dlq = logicalIdOf(stack.messaging.queues[name].deadLetterQueue.node.defaultChild as never);
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [dlq, 'QueueName'] } }],
        Threshold: 0,
      });
    }
    expect(
      alarmsOf(template).filter((a) => a.Properties.MetricName === 'ApproximateAgeOfOldestMessage'),
    ).toHaveLength(QUEUE_NAMES.length);
  });

  it('alarms on failed deliveries, runs, exports and purges, refresh failures and throttles from the embedded metrics', () => {
    for (const [name, threshold] of [
      ['DeliveriesFailed', 50],
      ['TokenRefreshFailures', 10],
      ['ConnectionThrottles', 20],
      ['SyncRunsFailed', 5],
      ['ExportJobsFailed', 5],
      ['PurgeJobsFailed', 0],
    ] as const) {
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        Namespace: METRICS_NAMESPACE,
        MetricName: name,
        // CloudWatch sorts dimensions by name; the EMF records carry the same two (service, Stage).
        Dimensions: [
          { Name: 'Stage', Value: 'prod' },
          { Name: 'service', Value: 'connector-event-service' },
        ],
        Statistic: 'Sum',
        Period: 900,
        Threshold: threshold,
      });
    }
  });

  it('alarms on the API 5xx share and latency, failed purge executions and a schedule that cannot run', () => {
    expect(described(template, 'API requests answered 5xx')).toHaveLength(1);
    expect(described(template, 'API p99 latency')).toHaveLength(1);
    expect(described(template, 'failed, timed out or was aborted')).toHaveLength(1);
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'AWS/Events',
      MetricName: 'FailedInvocations',
    });
  });

  it('points every alarm at the runbook', () => {
    for (const alarm of alarmsOf(template)) {
      expect(String(alarm.Properties.AlarmDescription)).toMatch(/runbook|dead-letter|not being drained/);
    }
  });

  it('draws a dashboard with the delivery, connection, queue, API and web ACL figures', () => {
    const dashboards = template.findResources('AWS::CloudWatch::Dashboard') as Resources;
    expect(Object.keys(dashboards)).toHaveLength(1);
    const body = JSON.stringify(Object.values(dashboards)[0]!.Properties.DashboardBody);
    for (const name of Object.keys(METRICS)) expect(body).toContain(name);
    for (const text of ['ApproximateAgeOfOldestMessage', '5XXError', 'Latency', 'BlockedRequests', 'alarm']) {
      expect(body).toContain(text);
    }
    const observability = stack.node.findChild('Observability') as Observability;
    expect(observability.alarms.length).toBeGreaterThan(40);
  });
});

describe('observability (dev, no alarm email)', () => {
  const { template } = synthStack({ stage: 'dev' });

  it('makes the alarms without actions and no topic', () => {
    expect(Object.keys(template.findResources('AWS::SNS::Topic'))).toHaveLength(0);
    for (const alarm of alarmsOf(template)) expect(alarm.Properties.AlarmActions).toBeUndefined();
  });

  it('uses the looser dev thresholds', () => {
    for (const alarm of described(template, 'ended in an error')) expect(alarm.Properties.Threshold).toBe(10);
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'DeliveriesFailed',
      Threshold: 200,
    });
    template.hasResourceProperties('AWS::CloudWatch::Alarm', { MetricName: 'SyncRunsFailed', Threshold: 20 });
  });
});
