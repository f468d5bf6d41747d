// Queue port on SQS.
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { Queue, QueueMessage } from '../../platform/ports';
import type { ClientRef } from './clients';

const commands = () => import('@aws-sdk/client-sqs');

export class SqsQueue implements Queue {
  constructor(
    readonly name: string,
    private readonly url: string,
    private readonly client: ClientRef<SQSClient>,
  ) {}

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
