// Queue port on SQS.
import type { SQSClient } from './sdk/sqs';
import { ConfigurationError } from '../../platform/errors';
import type { DeadLetter, Queue, QueueMessage } from '../../platform/ports';
import type { ClientRef } from './clients';

const commands = () => import('./sdk/sqs');

export class SqsQueue implements Queue {
  private redrive: Promise<number | undefined> | undefined;

  constructor(
    readonly name: string,
    /**
     * The queue's URL, or how to read it when first needed: a function that only reads the dead-letter
     * queue (listDeadLetters) is deployed with that queue's URL alone.
     */
    private readonly queueUrl: string | (() => string),
    private readonly client: ClientRef<SQSClient>,
    /** The queue's dead-letter queue (its redrive target), read by listDeadLetters. */
    private readonly deadLetterUrl?: () => string,
  ) {}

  private get url(): string {
    return typeof this.queueUrl === 'string' ? this.queueUrl : this.queueUrl();
  }

  /**
   * Peeks at the dead-letter queue: received with a zero visibility timeout, so the messages stay
   * there for an operator to redrive. SQS hands out a sample per call; repeated calls gather up to
   * `limit` distinct messages.
   */
  async listDeadLetters(limit = 100): Promise<DeadLetter[]> {
    if (!this.deadLetterUrl)
      throw new ConfigurationError(`No dead-letter queue is configured for ${this.name}`);
    const [client, { ReceiveMessageCommand }] = await Promise.all([this.client, commands()]);
    const found = new Map<string, DeadLetter>();
    for (let call = 0; call < Math.ceil(limit / 10) + 2 && found.size < limit; call++) {
      const { Messages = [] } = await client.send(
        new ReceiveMessageCommand({
          QueueUrl: this.deadLetterUrl(),
          MaxNumberOfMessages: 10,
          VisibilityTimeout: 0,
          WaitTimeSeconds: 0,
          MessageSystemAttributeNames: ['ApproximateReceiveCount', 'SentTimestamp'],
        }),
      );
      const before = found.size;
      for (const m of Messages) {
        found.set(m.MessageId!, {
          id: m.MessageId!,
          body: m.Body ?? '',
          receiveCount: Number(m.Attributes?.ApproximateReceiveCount ?? 0),
          deadAt: Number(m.Attributes?.SentTimestamp ?? 0),
        });
      }
      if (found.size === before) break;
    }
    return [...found.values()].sort((a, b) => b.deadAt - a.deadAt).slice(0, limit);
  }

  /** Read once per container from the queue's redrive policy (sqs:GetQueueAttributes). */
  maxReceiveCount(): Promise<number | undefined> {
    this.redrive ??= (async () => {
      const [client, { GetQueueAttributesCommand }] = await Promise.all([this.client, commands()]);
      const { Attributes } = await client.send(
        new GetQueueAttributesCommand({ QueueUrl: this.url, AttributeNames: ['RedrivePolicy'] }),
      );
      const policy = Attributes?.RedrivePolicy;
      if (!policy) return undefined;
      const count = Number((JSON.parse(policy) as { maxReceiveCount?: unknown }).maxReceiveCount);
      return Number.isInteger(count) && count > 0 ? count : undefined;
    })().catch((error: unknown) => {
      this.redrive = undefined; // not cached: the next message asks again
      throw error;
    });
    return this.redrive;
  }

  async send(message: QueueMessage): Promise<void> {
    const [client, { SendMessageCommand }] = await Promise.all([this.client, commands()]);
    await client.send(
      new SendMessageCommand({
        QueueUrl: this.url,
        MessageBody: message.body,
        DelaySeconds: message.delaySeconds,
      }),
    );
  }

  async sendBatch(messages: QueueMessage[]): Promise<void> {
    const [client, { SendMessageBatchCommand }] = await Promise.all([this.client, commands()]);
    for (let i = 0; i < messages.length; i += 10) {
      const chunk = messages.slice(i, i + 10);
      const out = await client.send(
        new SendMessageBatchCommand({
          QueueUrl: this.url,
          Entries: chunk.map((m, j) => ({
            Id: String(j),
            MessageBody: m.body,
            DelaySeconds: m.delaySeconds,
          })),
        }),
      );
      if (out.Failed?.length) {
        throw new Error(
          `SQS refused ${out.Failed.length} of ${chunk.length} messages: ${out.Failed[0]?.Code}`,
        );
      }
    }
  }
}
