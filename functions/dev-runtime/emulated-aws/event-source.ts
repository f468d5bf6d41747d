// What Lambda's SQS event source mapping does, for a runtime without Lambda (the emulated AWS runtime):
// long-polls the queue, gathers a batch within the batching window, hands it to the function as an
// SQSEvent (receive counts and the other system attributes included), deletes what succeeded and
// leaves the rest. A partial batch response leaves exactly the records it names; a thrown error, a
// timeout or an identifier that is not in the batch leaves the whole batch. What is left becomes
// visible again after the queue's visibility timeout and SQS itself moves it to the dead-letter queue
// after maxReceiveCount receives: the redrive is the queue's, not ours. At most `maxConcurrency`
// invocations run at once, as the mapping's maximum concurrency allows.
import type { Message, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { ClientRef } from '../../compose/aws';
import { sqs } from '../../compose/aws';
import { systemClock } from '../../platform/clock';

const commands = () => import('@aws-sdk/client-sqs');

/** SQS's longest long poll. */
const POLL_SECONDS = 20;
/** SQS hands out at most 10 messages per receive. */
const MAX_PER_RECEIVE = 10;

export interface EventSourceSettings {
  /** The function's name, for logs. */
  name: string;
  queueUrl: string;
  queueArn: string;
  batchSize: number;
  batchingWindowSeconds: number;
  maxConcurrency: number;
  /** How long a received message stays invisible (the queue's attribute); kept to move it on. */
  visibilityTimeoutSeconds: number;
}

/** Invokes the function with one batch; rejects on a crash or a timeout. */
export type BatchInvoker = (event: SQSEvent) => Promise<SQSBatchResponse | void | null | undefined>;

export interface EventSourceLog {
  error(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

/** A message the function did not settle: its receipt handle and when it becomes visible again. */
interface Held {
  receiptHandle: string;
  visibleAt: number;
}

export class SqsEventSource {
  private running = false;
  private poller: Promise<void> | undefined;
  /** Cuts the long poll under way short on stop (what it would have received comes back later). */
  private readonly stopping = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly held = new Map<string, Held>();
  private readonly receivedAt = new WeakMap<Message, number>();
  private readonly region: string;

  constructor(
    private readonly settings: EventSourceSettings,
    private readonly invoke: BatchInvoker,
    private readonly log: EventSourceLog,
    private readonly client: ClientRef<SQSClient> = sqs(),
  ) {
    this.region = settings.queueArn.split(':')[3] ?? '';
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.poller = this.poll();
  }

  /** Stops polling and waits for the invocations under way to finish. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopping.abort();
    await this.poller;
    await Promise.all([...this.inFlight]);
  }

  /**
   * Moves the visibility of the messages this source left on the queue (failed records, whole failed
   * batches) `ms` closer, as if that much time had passed: the development clock's counterpart for
   * SQS's own timers. Messages of an invocation under way are not touched.
   */
  async advance(ms: number): Promise<void> {
    const [client, { ChangeMessageVisibilityCommand }] = await Promise.all([this.client, commands()]);
    const now = systemClock.now();
    await Promise.all(
      [...this.held.entries()].map(async ([messageId, held]) => {
        if (held.visibleAt <= now) return void this.held.delete(messageId);
        const visibleAt = Math.max(now, held.visibleAt - ms);
        held.visibleAt = visibleAt;
        await client
          .send(
            new ChangeMessageVisibilityCommand({
              QueueUrl: this.settings.queueUrl,
              ReceiptHandle: held.receiptHandle,
              VisibilityTimeout: Math.ceil((visibleAt - now) / 1000),
            }),
          )
          .catch(() => this.held.delete(messageId)); // received again since: the handle is stale
      }),
    );
  }

  private async poll(): Promise<void> {
    while (this.running) {
      if (this.inFlight.size >= this.settings.maxConcurrency) {
        await Promise.race([...this.inFlight]);
        continue;
      }
      let batch: Message[];
      try {
        batch = await this.receiveBatch();
      } catch (error) {
        if (!this.running) break;
        this.log.error('receive failed', { worker: this.settings.name, error });
        await new Promise((resolve) => setTimeout(resolve, 1000));
        continue;
      }
      if (!batch.length) continue;
      const run = this.run(batch).finally(() => this.inFlight.delete(run));
      this.inFlight.add(run);
    }
  }

  /** One long poll; once a message is there, more receives until the batch is full or the window ends. */
  private async receiveBatch(): Promise<Message[]> {
    const { batchSize, batchingWindowSeconds } = this.settings;
    const batch = await this.receive(Math.min(batchSize, MAX_PER_RECEIVE), POLL_SECONDS);
    const windowEnds = systemClock.now() + batchingWindowSeconds * 1000;
    while (batch.length && batch.length < batchSize && systemClock.now() < windowEnds) {
      const wait = Math.max(1, Math.ceil((windowEnds - systemClock.now()) / 1000));
      const more = await this.receive(Math.min(batchSize - batch.length, MAX_PER_RECEIVE), wait);
      if (!more.length) break;
      batch.push(...more);
    }
    return batch;
  }

  private async receive(max: number, waitSeconds: number): Promise<Message[]> {
    const [client, { ReceiveMessageCommand }] = await Promise.all([this.client, commands()]);
    const { Messages = [] } = await client.send(
      new ReceiveMessageCommand({
        QueueUrl: this.settings.queueUrl,
        MaxNumberOfMessages: max,
        WaitTimeSeconds: waitSeconds,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
      { abortSignal: this.stopping.signal },
    );
    const receivedAt = systemClock.now();
    for (const m of Messages) this.receivedAt.set(m, receivedAt);
    return Messages;
  }

  private async run(batch: Message[]): Promise<void> {
    const event: SQSEvent = { Records: batch.map((m) => this.record(m)) };
    let left: Set<string>;
    try {
      left = this.failures(batch, await this.invoke(event));
    } catch (error) {
      this.log.error('invocation failed: the whole batch stays on the queue', {
        worker: this.settings.name,
        records: batch.length,
        error,
      });
      left = new Set(batch.map((m) => m.MessageId!));
    }
    // Only settled messages are held: moving an invocation's own messages would hand them out twice.
    for (const m of batch.filter((m) => left.has(m.MessageId!))) {
      this.held.set(m.MessageId!, {
        receiptHandle: m.ReceiptHandle!,
        visibleAt: this.receivedAt.get(m)! + this.settings.visibilityTimeoutSeconds * 1000,
      });
    }
    await this.delete(batch.filter((m) => !left.has(m.MessageId!)));
  }

  /** The records to leave on the queue, as Lambda reads a partial batch response. */
  private failures(batch: Message[], response: SQSBatchResponse | void | null | undefined): Set<string> {
    const ids = new Set(batch.map((m) => m.MessageId!));
    const failures = response?.batchItemFailures ?? [];
    // An identifier that is empty or not in the batch fails the whole batch, as Lambda does.
    if (failures.some((f) => !f.itemIdentifier || !ids.has(f.itemIdentifier))) {
      this.log.warn('partial batch response names a record not in the batch: the whole batch stays', {
        worker: this.settings.name,
      });
      return ids;
    }
    return new Set(failures.map((f) => f.itemIdentifier));
  }

  private async delete(messages: Message[]): Promise<void> {
    if (!messages.length) return;
    const [client, { DeleteMessageBatchCommand }] = await Promise.all([this.client, commands()]);
    try {
      const out = await client.send(
        new DeleteMessageBatchCommand({
          QueueUrl: this.settings.queueUrl,
          Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
        }),
      );
      if (out.Failed?.length) {
        this.log.warn('some deletes failed: those messages will be received again', {
          worker: this.settings.name,
          failed: out.Failed.length,
        });
      }
    } catch (error) {
      // The messages come back after their visibility timeout: at-least-once, as on Lambda.
      this.log.error('delete failed', { worker: this.settings.name, error });
    }
  }

  private record(m: Message): SQSRecord {
    const a = m.Attributes ?? {};
    return {
      messageId: m.MessageId!,
      receiptHandle: m.ReceiptHandle!,
      body: m.Body ?? '',
      attributes: {
        ApproximateReceiveCount: a.ApproximateReceiveCount ?? '1',
        SentTimestamp: a.SentTimestamp ?? String(systemClock.now()),
        SenderId: a.SenderId ?? '',
        ApproximateFirstReceiveTimestamp: a.ApproximateFirstReceiveTimestamp ?? String(systemClock.now()),
      },
      messageAttributes: Object.fromEntries(
        Object.entries(m.MessageAttributes ?? {}).map(([k, v]) => [
          k,
          {
            dataType: v.DataType ?? 'String',
            ...(v.StringValue !== undefined ? { stringValue: v.StringValue } : {}),
          },
        ]),
      ),
      md5OfBody: m.MD5OfBody ?? '',
      eventSource: 'aws:sqs',
      eventSourceARN: this.settings.queueArn,
      awsRegion: this.region,
    };
  }
}
