// The asynchronous workers, made from the worker table (functions/platform/workers.ts): one Lambda per
// queue fed by an SQS event source (batch, window, partial batch failures, maximum concurrency), one
// Lambda per schedule invoked by an EventBridge rule, with the grants their `uses` declares, and
// alarms on what is stuck or dead in each queue. Adding a worker is an entry in the table, not here.
import { Duration } from 'aws-cdk-lib';
import type { IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import type { TableName } from '../functions/platform/ports';
import type { QueueName, QueueWorker, ResourceUses, ScheduledWorker } from '../functions/platform/workers';
import {
  DEAD_LETTER_RETENTION_DAYS,
  QUEUE_NAMES,
  QUEUE_WORKERS,
  SCHEDULE_RETRY_ATTEMPTS,
  SCHEDULED_WORKERS,
} from '../functions/platform/workers';
import type { DataStores } from './data';
import type { Messaging } from './messaging';
import { ServiceFunction } from './service-function';
import type { StageConfig } from './stage-config';

const pascal = (id: string) => id[0]!.toUpperCase() + id.slice(1);

/** Extra environment for a worker by id (the connector settings a sweep reads, for instance). */
export type WorkerEnvironment = (worker: { id: string }) => Record<string, string>;

/**
 * Grants a worker's function what its `uses` declares, with the environment that goes with each
 * grant. Workflow starts are granted by the workflow's construct (PurgeWorkflow.bindRoutes).
 */
export function bindUses(
  fn: ServiceFunction,
  uses: ResourceUses,
  resources: { data: DataStores; messaging: Messaging },
): ServiceFunction {
  const { data, messaging } = resources;
  for (const [name, access] of Object.entries(uses.tables ?? {})) {
    fn.bindTable(name as TableName, data.tables[name as TableName], access);
  }
  if (uses.kms) fn.bindKey(data.key, uses.kms);
  for (const queue of uses.queues ?? []) fn.bindQueue(queue, messaging.queues[queue].queue);
  for (const queue of uses.deadLetters ?? [])
    fn.bindDeadLetters(queue, messaging.queues[queue].deadLetterQueue);
  if (uses.vault) fn.bindVaultBucket(data.vaultBucket, uses.vault);
  return fn;
}

export interface WorkersProps {
  stage: StageConfig;
  data: DataStores;
  messaging: Messaging;
  environmentFor?: WorkerEnvironment;
  /** Lets a worker read the secrets it needs at run time (the connector settings' client secrets). */
  bindSecrets?: (worker: { id: string }, fn: ServiceFunction) => void;
  /**
   * Where a worker's function (and its schedule) is made: the nested stack of the area owning its
   * handler module (lib/area-stacks.ts). Omitted: in this construct.
   */
  functionScope?: (handler: string) => Construct;
}

/** A worker's function: its handler, timeout and environment, granted what its `uses` declares. */
function workerFunction(
  scope: Construct,
  id: string,
  worker: QueueWorker | ScheduledWorker,
  props: WorkersProps,
): ServiceFunction {
  const fn = new ServiceFunction(props.functionScope?.(worker.handler) ?? scope, id, {
    handler: worker.handler,
    stage: props.stage,
    description: worker.description,
    timeout: Duration.seconds(worker.timeoutSeconds),
    environment: props.environmentFor?.(worker),
  });
  bindUses(fn, worker.uses, props);
  props.bindSecrets?.(worker, fn);
  return fn;
}

/** Every queue's consumer, and the two alarms of each queue (dead letters, oldest message). */
export class QueueWorkers extends Construct {
  readonly functions: Record<QueueName, ServiceFunction>;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: WorkersProps) {
    super(scope, id);
    this.functions = Object.fromEntries(
      QUEUE_NAMES.map((queue) => [queue, this.worker(QUEUE_WORKERS[queue], props)]),
    ) as Record<QueueName, ServiceFunction>;

    const action = props.stage.alarmEmail ? this.alarmAction(props.stage.alarmEmail) : undefined;
    for (const name of QUEUE_NAMES) this.queueAlarms(name, props.messaging, action);
  }

  private worker(worker: QueueWorker, props: WorkersProps): ServiceFunction {
    const fn = workerFunction(this, pascal(worker.id), worker, props);
    // Bounded by the event source's maximum concurrency, not by reserved concurrency: an account
    // with a low concurrency quota refuses reservations (docs/decisions.md, "Maximum concurrency").
    fn.fn.addEventSource(
      new SqsEventSource(props.messaging.queues[worker.queue].queue, {
        batchSize: worker.batchSize,
        maxBatchingWindow: Duration.seconds(worker.batchingWindowSeconds),
        reportBatchItemFailures: true,
        maxConcurrency: worker.maxConcurrency,
      }),
    );
    return fn;
  }

  private queueAlarms(name: QueueName, messaging: Messaging, action: IAlarmAction | undefined): void {
    const queue = messaging.queues[name];
    this.alarm(`${name}DeadLetters`, action, {
      metric: queue.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(1),
      }),
      threshold: 0,
      description: `Messages in the ${name} dead-letter queue: work exhausted or poison messages`,
    });
    this.alarm(`${name}OldestMessage`, action, {
      metric: queue.queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(1) }),
      threshold: Duration.minutes(QUEUE_WORKERS[name].oldestMessageAlarmMinutes).toSeconds(),
      description: `The ${name} queue is not being drained`,
    });
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

/**
 * Every scheduled worker: its Lambda and the EventBridge rule that invokes it. A run is not retried
 * (the next one finds everything still due): no EventBridge retry and no Lambda async retry (its
 * default is two). A run that fails, or that EventBridge cannot deliver, lands in `failures` (the
 * on-failure destination records the error with the event), which Observability alarms on.
 */
export class ScheduledWorkers extends Construct {
  readonly functions = new Map<string, ServiceFunction>();
  readonly rules = new Map<string, Rule>();
  /** Failed runs and undeliverable schedule events of every scheduled worker. */
  readonly failures: Queue;

  constructor(scope: Construct, id: string, props: WorkersProps) {
    super(scope, id);
    this.failures = new Queue(this, 'Failures', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(DEAD_LETTER_RETENTION_DAYS),
    });
    for (const worker of SCHEDULED_WORKERS) this.schedule(worker, props);
  }

  private schedule(worker: ScheduledWorker, props: WorkersProps): void {
    const name = pascal(worker.id);
    const fn = workerFunction(this, name, worker, props);
    const rate = Duration.minutes(worker.rateMinutes);
    // Lambda's own retries of an asynchronous invocation: none; a failure goes to the queue.
    fn.fn.configureAsyncInvoke({
      retryAttempts: SCHEDULE_RETRY_ATTEMPTS,
      maxEventAge: rate,
      onFailure: new SqsDestination(this.failures),
    });
    const rule = new Rule(props.functionScope?.(worker.handler) ?? this, `${name}Schedule`, {
      description: worker.description,
      schedule: Schedule.rate(rate),
      // A missed run is not retried: the next one finds everything still due.
      targets: [
        new LambdaFunction(fn.fn, {
          retryAttempts: SCHEDULE_RETRY_ATTEMPTS,
          maxEventAge: rate,
          deadLetterQueue: this.failures,
        }),
      ],
    });
    this.functions.set(worker.id, fn);
    this.rules.set(worker.id, rule);
  }
}
