// Queues: one per entry of the worker table (functions/platform/workers.ts), every one encrypted,
// SSL-only, with a dead-letter queue and the redrive its consumer's maxReceiveCount sets.
import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { QueueName } from '../functions/platform/workers';
import { DEAD_LETTER_RETENTION_DAYS, QUEUE_NAMES, QUEUE_WORKERS } from '../functions/platform/workers';

export interface ServiceQueueProps {
  visibilityTimeout: Duration;
  maxReceiveCount: number;
  retentionPeriod?: Duration;
}

export class ServiceQueue extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: ServiceQueueProps) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'Dlq', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(DEAD_LETTER_RETENTION_DAYS),
    });
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: props.visibilityTimeout,
      retentionPeriod: props.retentionPeriod ?? Duration.days(4),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: props.maxReceiveCount },
    });
  }
}

const pascal = (id: string) => id[0]!.toUpperCase() + id.slice(1);

/** One queue per entry of the worker table, with the settings its consumer needs. */
export class Messaging extends Construct {
  readonly queues: Record<QueueName, ServiceQueue>;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.queues = Object.fromEntries(
      QUEUE_NAMES.map((name) => {
        const worker = QUEUE_WORKERS[name];
        const queue = new ServiceQueue(this, pascal(name), {
          // Six times the consumer's timeout (AWS's guidance for SQS event sources).
          visibilityTimeout: Duration.seconds(worker.visibilityTimeoutSeconds),
          maxReceiveCount: worker.maxReceiveCount,
          retentionPeriod: Duration.days(worker.retentionDays),
        });
        return [name, queue];
      }),
    ) as Record<QueueName, ServiceQueue>;
  }
}
