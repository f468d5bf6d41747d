// The Queue port's contract on both adapters, consumed as a Lambda event source consumes SQS: what is
// sent arrives, whole and once; delays hold; failures come back with a higher receive count and end
// as dead letters; and a consumer that dies mid-batch loses nothing: a new process (a new adapter on
// the same journal, or on the same SQS queue) receives every message it had not settled.
import {
  CreateQueueCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SetQueueAttributesCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { LocalQueue } from '../../functions/adapters/local/local-queue';
import { SqsQueue } from '../../functions/adapters/aws/sqs-queue';
import type { Queue } from '../../functions/platform/ports';
import { requireEmulators } from '../support/emulators';

type Handler = (event: SQSEvent) => Promise<{ batchItemFailures: { itemIdentifier: string }[] }>;

interface Harness {
  queue: Queue;
  /** Runs `handler` over what arrives (as the event source would) until `count` were settled or `ms` passed. */
  consume(handler: Handler, count: number, ms: number): Promise<void>;
  /** A new process: a new adapter on the same queue (the old one is dropped as a crash would). */
  restart(): Promise<Harness>;
  /** Makes in-flight messages visible again (SQS: wait out the visibility timeout; local: the clock). */
  expireVisibility(): Promise<void>;
}

const collect =
  (into: string[]): Handler =>
  async (event) => {
    into.push(...event.Records.map((r) => r.body));
    return { batchItemFailures: [] };
  };

const VISIBILITY_MS = 2_000;

async function localHarness(
  journal = join(mkdtempSync(join(tmpdir(), 'queue-')), 'q.jsonl'),
): Promise<Harness> {
  let offset = 0;
  const clock = { now: () => Date.now() + offset };
  const queue = new LocalQueue('contract', { clock, journal });
  return {
    queue,
    consume: async (handler, count, ms) => {
      let settled = 0;
      queue.attach(
        async (event) => {
          const result = await handler(event);
          settled += event.Records.length - result.batchItemFailures.length;
          return result;
        },
        { visibilityTimeoutMs: VISIBILITY_MS, maxReceiveCount: 3 },
      );
      const deadline = Date.now() + ms;
      while (settled < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    },
    restart: async () => {
      queue.close();
      return localHarness(journal);
    },
    expireVisibility: async () => {
      offset += VISIBILITY_MS + 1;
    },
  };
}

async function sqsHarness(existing?: { client: SQSClient; url: string; dlq: string }): Promise<Harness> {
  requireEmulators();
  const client = existing?.client ?? new SQSClient({});
  let url = existing?.url;
  let dlq = existing?.dlq;
  if (!url || !dlq) {
    const name = `contract-${randomBytes(4).toString('hex')}`;
    dlq = (await client.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }))).QueueUrl!;
    const { Attributes } = await client.send(
      new GetQueueAttributesCommand({ QueueUrl: dlq, AttributeNames: ['QueueArn'] }),
    );
    url = (await client.send(new CreateQueueCommand({ QueueName: name }))).QueueUrl!;
    await client.send(
      new SetQueueAttributesCommand({
        QueueUrl: url,
        Attributes: {
          VisibilityTimeout: String(VISIBILITY_MS / 1000),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes!.QueueArn, maxReceiveCount: 3 }),
        },
      }),
    );
  }
  const queueUrl = url;
  const queue = new SqsQueue('contract', queueUrl, client, () => dlq!);
  return {
    queue,
    consume: async (handler, count, ms) => {
      let settled = 0;
      const deadline = Date.now() + ms;
      while (settled < count && Date.now() < deadline) {
        const { Messages = [] } = await client.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: 10,
            WaitTimeSeconds: 1,
            MessageSystemAttributeNames: ['ApproximateReceiveCount'],
          }),
        );
        if (!Messages.length) continue;
        const event = {
          Records: Messages.map((m) => ({
            messageId: m.MessageId!,
            body: m.Body!,
            attributes: { ApproximateReceiveCount: m.Attributes?.ApproximateReceiveCount ?? '1' },
          })),
        } as unknown as SQSEvent;
        // A handler that never answers is a consumer that died: its messages stay in flight.
        // The timer is cleared once the race is decided: left pending, it would hold the jest worker
        // open until the consume's deadline, past the time jest gives a worker to exit.
        let timer: NodeJS.Timeout | undefined;
        const answered = await Promise.race([
          handler(event),
          new Promise<undefined>(
            (r) => (timer = setTimeout(() => r(undefined), Math.max(0, deadline - Date.now()))),
          ),
        ]);
        clearTimeout(timer);
        if (!answered) return;
        const { batchItemFailures } = answered;
        const failed = new Set(batchItemFailures.map((f) => f.itemIdentifier));
        for (const m of Messages) {
          if (failed.has(m.MessageId!)) continue;
          settled++;
          await client.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle }));
        }
      }
    },
    restart: async () => sqsHarness({ client, url: queueUrl, dlq: dlq! }),
    expireVisibility: () => new Promise((r) => setTimeout(r, VISIBILITY_MS + 200)),
  };
}

describe.each([
  ['local (journaled, in process)', () => localHarness()],
  ['aws (SQS)', () => sqsHarness()],
])('Queue port: %s', (_name, make) => {
  it('delivers a sent message body unchanged', async () => {
    const harness = await make();
    const body = JSON.stringify({ id: 'evt_1', text: 'ünïcode ✓' });
    await harness.queue.send({ body });
    const received: string[] = [];
    await harness.consume(collect(received), 1, 5_000);
    expect(received).toEqual([body]);
  });

  it('delivers every message of a batch larger than one SQS call', async () => {
    const harness = await make();
    const bodies = Array.from({ length: 23 }, (_, i) => `m${i}`);
    await harness.queue.sendBatch(bodies.map((body) => ({ body })));
    const received: string[] = [];
    await harness.consume(collect(received), 23, 10_000);
    expect(received.sort()).toEqual([...bodies].sort());
  });

  it('holds a delayed message back for its delay', async () => {
    const harness = await make();
    await harness.queue.send({ body: 'later', delaySeconds: 2 });
    const early: string[] = [];
    await harness.consume(collect(early), 1, 1_000);
    expect(early).toEqual([]);
    const received: string[] = [];
    await harness.consume(collect(received), 1, 5_000);
    expect(received).toEqual(['later']);
  });

  it('redelivers a reported failure with a higher receive count, then dead-letters it and lists it', async () => {
    const harness = await make();
    await harness.queue.send({ body: 'poison' });
    const counts: string[] = [];
    const failing: Handler = async (event) => {
      counts.push(...event.Records.map((r) => r.attributes.ApproximateReceiveCount));
      return { batchItemFailures: event.Records.map((r) => ({ itemIdentifier: r.messageId })) };
    };
    for (let receive = 0; receive < 3; receive++) {
      await harness.consume(failing, 1, 1_500);
      await harness.expireVisibility();
    }
    await harness.consume(failing, 1, 1_500); // SQS moves it to the DLQ on this receive
    expect(counts).toEqual(['1', '2', '3']);
    const dead = await harness.queue.listDeadLetters(10);
    expect(dead.map((d) => d.body)).toEqual(['poison']);
    expect(dead[0]!.receiveCount).toBeGreaterThanOrEqual(3);
    // What a consumer compares a record's receive count with to know its last chance.
    expect(await harness.queue.maxReceiveCount()).toBe(3);
  });

  it('loses nothing when the consumer dies mid-batch: a restarted process receives what was not settled', async () => {
    const harness = await make();
    const bodies = Array.from({ length: 12 }, (_, i) => `crash-${i}`);
    await harness.queue.sendBatch(bodies.map((body) => ({ body })));
    const settled: string[] = [];
    // The first process settles one batch, then dies holding the next one (never answers).
    let batches = 0;
    await harness.consume(
      async (event) => {
        if (++batches > 1) return new Promise(() => undefined);
        settled.push(...event.Records.map((r) => r.body));
        return { batchItemFailures: [] };
      },
      12,
      1_500,
    );
    const restarted = await harness.restart();
    await restarted.expireVisibility();
    const after: string[] = [];
    await restarted.consume(collect(after), 12 - settled.length, 10_000);
    expect([...settled, ...after].sort()).toEqual([...bodies].sort());
  });
});
