// Queue port in process: messages go to a registered consumer after their delay, as SQS + Lambda would.
// An SQS-shaped consumer (`attach`) gets the real aws-lambda SQSEvent in batches, and the records it
// reports in batchItemFailures (or the whole batch, when it throws) come back after the visibility
// timeout with a higher receive count, until maxReceiveCount sends them to the dead-letter list: the
// same redrive SQS applies, so the same handlers run here.
import { createHash, randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { Queue, QueueMessage } from '../../platform/ports';

export type Consumer = (bodies: string[]) => Promise<void>;
export type SqsConsumer = (event: SQSEvent) => Promise<SQSBatchResponse | void>;

export interface SqsConsumerOptions {
  batchSize?: number;
  visibilityTimeoutMs?: number;
  maxReceiveCount?: number;
}

interface Message {
  id: string;
  body: string;
  sentAt: number;
  receiveCount: number;
}

export class LocalQueue implements Queue {
  private consumer: Consumer | undefined;
  private sqsConsumer: { run: SqsConsumer; options: Required<SqsConsumerOptions> } | undefined;
  private readonly held: Message[] = [];
  private readonly ready: Message[] = [];
  private flushScheduled = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Bodies of messages that failed maxReceiveCount times (the dead-letter queue). */
  readonly deadLetters: string[] = [];

  constructor(readonly name: string) {}

  /** Attach the worker; messages sent before it was attached are handed over at once. */
  consume(consumer: Consumer): void {
    this.consumer = consumer;
    const backlog = this.held.splice(0);
    if (backlog.length) void this.dispatch(backlog.map((m) => m.body));
  }

  /** Attach an SQS-triggered Lambda handler, with SQS's batch, visibility and redrive behaviour. */
  attach(run: SqsConsumer, options: SqsConsumerOptions = {}): void {
    this.sqsConsumer = {
      run,
      options: { batchSize: 10, visibilityTimeoutMs: 30_000, maxReceiveCount: 5, ...options },
    };
    for (const message of this.held.splice(0)) this.enqueueMessage(message);
  }

  /** Take the messages waiting for a consumer (tests use it to read what was sent). */
  drain(): string[] {
    return this.held.splice(0).map((m) => m.body);
  }

  async send(message: QueueMessage): Promise<void> {
    const delayMs = (message.delaySeconds ?? 0) * 1000;
    const item: Message = { id: randomUUID(), body: message.body, sentAt: Date.now(), receiveCount: 0 };
    if (delayMs === 0) return this.enqueueMessage(item);
    this.later(delayMs, () => this.enqueueMessage(item));
  }

  async sendBatch(messages: QueueMessage[]): Promise<void> {
    for (const message of messages) await this.send(message);
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  private enqueueMessage(message: Message): void {
    if (this.sqsConsumer) {
      this.ready.push(message);
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
      return;
    }
    if (!this.consumer) {
      this.held.push(message);
      return;
    }
    setImmediate(() => void this.dispatch([message.body]));
  }

  private flush(): void {
    this.flushScheduled = false;
    const { batchSize } = this.sqsConsumer!.options;
    while (this.ready.length) void this.deliverBatch(this.ready.splice(0, batchSize));
  }

  private toRecord(message: Message): SQSRecord {
    return {
      messageId: message.id,
      receiptHandle: `${message.id}#${message.receiveCount}`,
      body: message.body,
      attributes: {
        ApproximateReceiveCount: String(message.receiveCount),
        SentTimestamp: String(message.sentAt),
        SenderId: 'local',
        ApproximateFirstReceiveTimestamp: String(Date.now()),
      },
      messageAttributes: {},
      md5OfBody: createHash('md5').update(message.body).digest('hex'),
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:local:000000000000:${this.name}`,
      awsRegion: 'local',
    };
  }

  private async deliverBatch(batch: Message[]): Promise<void> {
    const { run, options } = this.sqsConsumer!;
    for (const message of batch) message.receiveCount++;
    let failed: Set<string>;
    try {
      const response = await run({ Records: batch.map((m) => this.toRecord(m)) });
      failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch (error) {
      this.logFailure(error);
      failed = new Set(batch.map((m) => m.id));
    }
    for (const message of batch) {
      if (!failed.has(message.id)) continue;
      if (message.receiveCount >= options.maxReceiveCount) this.deadLetters.push(message.body);
      else this.later(options.visibilityTimeoutMs, () => this.enqueueMessage(message));
    }
  }

  private logFailure(error: unknown): void {
    console.error(
      JSON.stringify({
        level: 'error',
        msg: 'local queue consumer failed',
        queue: this.name,
        error: String(error),
      }),
    );
  }

  private async dispatch(bodies: string[]): Promise<void> {
    try {
      await this.consumer?.(bodies);
    } catch (error) {
      this.logFailure(error);
    }
  }
}
