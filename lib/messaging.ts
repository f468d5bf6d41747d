// Queues: every one encrypted, SSL-only, with a dead-letter queue.
import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { QueueName } from '../functions/platform/ports';

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
      retentionPeriod: Duration.days(14),
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

/** Worker timeouts; each queue's visibility timeout is six times its worker's (AWS's guidance for SQS sources). */
export const FAN_OUT_TIMEOUT = Duration.seconds(30);
/** Two attempts of 15 s and the inline pause, with room for the table and KMS calls. */
export const DELIVERY_WORKER_TIMEOUT = Duration.seconds(45);
/** One step of an import run or export: a page of files, each streamed provider -> vault (up to 1 GiB). */
export const SYNC_WORKER_TIMEOUT = Duration.minutes(5);

export class Messaging extends Construct {
  readonly queues: Record<QueueName, ServiceQueue>;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.queues = {
      events: new ServiceQueue(this, 'Events', {
        visibilityTimeout: Duration.seconds(FAN_OUT_TIMEOUT.toSeconds() * 6),
        maxReceiveCount: 5,
      }),
      deliveries: new ServiceQueue(this, 'Deliveries', {
        visibilityTimeout: Duration.seconds(DELIVERY_WORKER_TIMEOUT.toSeconds() * 6),
        // Retries travel as new messages; only an exhausted delivery is reported failed on purpose,
        // so a low count moves it to the DLQ soon while still riding out a crashed worker or two.
        maxReceiveCount: 3,
        retentionPeriod: Duration.days(14),
      }),
      syncs: new ServiceQueue(this, 'Syncs', {
        visibilityTimeout: Duration.seconds(SYNC_WORKER_TIMEOUT.toSeconds() * 6),
        // A step that keeps failing for our own reasons; the sync sweep re-drives its job after that.
        maxReceiveCount: 5,
        retentionPeriod: Duration.days(14),
      }),
    };
  }
}
