// Event delivery: the fan-out worker on the events queue and the delivery worker on the deliveries
// queue, each an SQS event source with partial batch failures, and alarms on what is stuck or dead.
import { Duration } from 'aws-cdk-lib';
import type { IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import type { QueueName } from '../functions/platform/ports';
import type { DataStores } from './data';
import type { Messaging } from './messaging';
import { DELIVERY_WORKER_TIMEOUT, FAN_OUT_TIMEOUT } from './messaging';
import { ServiceFunction } from './service-function';
import type { StageConfig } from './stage-config';

export interface DeliveryProps {
  stage: StageConfig;
  data: DataStores;
  messaging: Messaging;
}

/** Oldest-message age worth an alarm: fan-out is quick; delivery hops re-send at least every 15 minutes. */
const MAX_AGE: Record<Exclude<QueueName, 'syncs'>, Duration> = {
  events: Duration.minutes(10),
  deliveries: Duration.minutes(30),
};

export class Delivery extends Construct {
  readonly fanOut: ServiceFunction;
  readonly deliver: ServiceFunction;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: DeliveryProps) {
    super(scope, id);
    const { stage, data, messaging } = props;
    const { events, deliveries } = messaging.queues;

    this.fanOut = new ServiceFunction(this, 'FanOut', {
      handler: 'webhooks/api/handlers/fan-out',
      stage,
      description: 'Matches each event to subscribed endpoints and queues one delivery per endpoint',
      timeout: FAN_OUT_TIMEOUT,
      reservedConcurrency: 5,
    })
      .bindTable('webhooks', data.tables.webhooks, 'write')
      .bindQueue('deliveries', deliveries.queue);
    this.fanOut.fn.addEventSource(
      new SqsEventSource(events.queue, {
        batchSize: 10,
        maxBatchingWindow: Duration.seconds(1),
        reportBatchItemFailures: true,
        maxConcurrency: 5,
      }),
    );

    this.deliver = new ServiceFunction(this, 'Deliver', {
      handler: 'webhooks/api/handlers/deliver',
      stage,
      description: 'Sends signed webhook attempts, schedules retries, runs recover jobs',
      timeout: DELIVERY_WORKER_TIMEOUT,
      reservedConcurrency: 20,
    })
      .bindTable('webhooks', data.tables.webhooks, 'write')
      .bindKey(data.key, 'decrypt')
      .bindQueue('deliveries', deliveries.queue)
      .bindQueue('events', events.queue); // webhook.endpoint.disabled
    this.deliver.fn.addEventSource(
      new SqsEventSource(deliveries.queue, {
        batchSize: 10,
        maxBatchingWindow: Duration.seconds(1),
        reportBatchItemFailures: true,
        maxConcurrency: 20,
      }),
    );

    const action = stage.alarmEmail ? this.alarmAction(stage.alarmEmail) : undefined;
    for (const name of ['events', 'deliveries'] as const) {
      const queue = messaging.queues[name];
      this.alarm(`${name}DeadLetters`, action, {
        metric: queue.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
          period: Duration.minutes(1),
        }),
        threshold: 0,
        description: `Messages in the ${name} dead-letter queue: deliveries exhausted or poison messages`,
      });
      this.alarm(`${name}OldestMessage`, action, {
        metric: queue.queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(1) }),
        threshold: MAX_AGE[name].toSeconds(),
        description: `The ${name} queue is not being drained`,
      });
    }
  }

  private alarmAction(email: string): IAlarmAction {
    const topic = new Topic(this, 'Alarms', { enforceSSL: true });
    topic.addSubscription(new EmailSubscription(email));
    return new SnsAction(topic);
  }

  private alarm(
    id: string,
    action: IAlarmAction | undefined,
    props: { metric: Alarm['metric']; threshold: number; description: string },
  ): void {
    const alarm = new Alarm(this, id, {
      metric: props.metric,
      threshold: props.threshold,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
      alarmDescription: props.description,
    });
    if (action) alarm.addAlarmAction(action);
    this.alarms.push(alarm);
  }
}
