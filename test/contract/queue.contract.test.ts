// The Queue port's contract on both adapters: what is sent arrives, whole and once; delays hold.
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { randomBytes } from 'node:crypto';
import { LocalQueue } from '../../functions/adapters/local/local-queue';
import { SqsQueue } from '../../functions/adapters/aws/sqs-queue';
import type { Queue } from '../../functions/platform/ports';
import { requireEmulators } from '../support/emulators';

interface Harness {
  queue: Queue;
  /** Collects messages until `count` arrived or `ms` passed. */
  receive(count: number, ms: number): Promise<string[]>;
}

async function localHarness(): Promise<Harness> {
  const queue = new LocalQueue('contract');
  const received: string[] = [];
  queue.consume(async (bodies) => void received.push(...bodies));
  return {
    queue,
    receive: async (count, ms) => {
      const deadline = Date.now() + ms;
      while (received.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      return received.splice(0);
    },
  };
}

async function sqsHarness(): Promise<Harness> {
  requireEmulators();
  const client = new SQSClient({});
  const { QueueUrl } = await client.send(
    new CreateQueueCommand({ QueueName: `contract-${randomBytes(4).toString('hex')}` }),
  );
  return {
    queue: new SqsQueue('contract', QueueUrl!, client),
    receive: async (count, ms) => {
      const deadline = Date.now() + ms;
      const out: string[] = [];
      while (out.length < count && Date.now() < deadline) {
        const { Messages = [] } = await client.send(
          new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
        );
        for (const m of Messages) {
          out.push(m.Body!);
          await client.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: m.ReceiptHandle }));
        }
      }
      return out;
    },
  };
}

describe.each([
  ['local (in process)', localHarness],
  ['aws (SQS)', sqsHarness],
])('Queue port: %s', (_name, make) => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await make();
  });

  it('delivers a sent message body unchanged', async () => {
    const body = JSON.stringify({ id: 'evt_1', text: 'ünïcode ✓' });
    await harness.queue.send({ body });
    expect(await harness.receive(1, 5_000)).toEqual([body]);
  });

  it('delivers every message of a batch larger than one SQS call', async () => {
    const bodies = Array.from({ length: 23 }, (_, i) => `m${i}`);
    await harness.queue.sendBatch(bodies.map((body) => ({ body })));
    expect((await harness.receive(23, 10_000)).sort()).toEqual([...bodies].sort());
  });

  it('holds a delayed message back for its delay', async () => {
    await harness.queue.send({ body: 'later', delaySeconds: 2 });
    expect(await harness.receive(1, 1_000)).toEqual([]);
    expect(await harness.receive(1, 5_000)).toEqual(['later']);
  });
});
