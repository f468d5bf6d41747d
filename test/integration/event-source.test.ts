// The emulated runtime's SQS event source (functions/dev-runtime/emulated-aws/event-source.ts) on moto's SQS, held
// to what Lambda's event source mapping does: a real SQSEvent (receive counts, ARN), partial batch
// responses leave exactly the named records, a throw or a foreign identifier leaves the whole batch,
// SQS's own redrive dead-letters what keeps failing, the batching window gathers a batch, and no more
// than the maximum concurrency runs at once. Queues here have long visibility timeouts; `advance`
// (the development clock's hook) moves them instead of the test waiting them out.
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { randomBytes } from 'node:crypto';
import type {
  BatchInvoker,
  EventSourceSettings,
} from '../../functions/dev-runtime/emulated-aws/event-source';
import { SqsEventSource } from '../../functions/dev-runtime/emulated-aws/event-source';
import { requireEmulators } from '../support/emulators';
import { until } from '../support/until';

const sqs = new SQSClient({});
const VISIBILITY_SECONDS = 300;
const silent = { error: () => undefined, warn: () => undefined };
const running: SqsEventSource[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((source) => source.stop()));
});

async function queueWithDlq(maxReceiveCount: number) {
  requireEmulators();
  const suffix = randomBytes(4).toString('hex');
  const attributesOf = async (url: string) =>
    (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] })))
      .Attributes!.QueueArn!;
  const { QueueUrl: dlq } = await sqs.send(new CreateQueueCommand({ QueueName: `es-dlq-${suffix}` }));
  const { QueueUrl: url } = await sqs.send(
    new CreateQueueCommand({
      QueueName: `es-${suffix}`,
      Attributes: {
        VisibilityTimeout: String(VISIBILITY_SECONDS),
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: await attributesOf(dlq!), maxReceiveCount }),
      },
    }),
  );
  return { url: url!, arn: await attributesOf(url!), dlq: dlq! };
}

async function send(url: string, bodies: string[]): Promise<void> {
  for (let i = 0; i < bodies.length; i += 10) {
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: url,
        Entries: bodies.slice(i, i + 10).map((body, j) => ({ Id: String(j), MessageBody: body })),
      }),
    );
  }
}

function start(
  queue: { url: string; arn: string },
  invoke: BatchInvoker,
  settings: Partial<EventSourceSettings> = {},
): SqsEventSource {
  const source = new SqsEventSource(
    {
      name: 'test',
      queueUrl: queue.url,
      queueArn: queue.arn,
      batchSize: 10,
      batchingWindowSeconds: 1,
      maxConcurrency: 5,
      visibilityTimeoutSeconds: VISIBILITY_SECONDS,
      ...settings,
    },
    invoke,
    silent,
  );
  source.start();
  running.push(source);
  return source;
}

/** What the function saw, record by record. */
function recorder(decide: (record: SQSRecord, event: SQSEvent) => 'ok' | 'fail' | 'throw' = () => 'ok') {
  const seen: SQSRecord[] = [];
  const batches: number[] = [];
  const invoke: BatchInvoker = async (event) => {
    seen.push(...event.Records);
    batches.push(event.Records.length);
    const decisions = event.Records.map((r) => decide(r, event));
    if (decisions.includes('throw')) throw new Error('the function crashed');
    return {
      batchItemFailures: event.Records.filter((_, i) => decisions[i] === 'fail').map((r) => ({
        itemIdentifier: r.messageId,
      })),
    };
  };
  return { seen, batches, invoke, bodies: () => seen.map((r) => r.body) };
}

const count = (list: string[], value: string) => list.filter((v) => v === value).length;

async function deadLetters(dlq: string): Promise<string[]> {
  const { Messages = [] } = await sqs.send(
    new ReceiveMessageCommand({ QueueUrl: dlq, MaxNumberOfMessages: 10, VisibilityTimeout: 0 }),
  );
  return Messages.map((m) => m.Body!);
}

describe('SQS event source on the emulator', () => {
  it('hands the function an SQSEvent with receive counts and deletes what it did not report', async () => {
    const queue = await queueWithDlq(5);
    const fn = recorder((r) => (r.body === 'bad' ? 'fail' : 'ok'));
    const source = start(queue, fn.invoke);
    await send(queue.url, ['a', 'bad', 'b']);
    await until('three records', async () => (fn.seen.length >= 3 ? true : undefined));
    const first = fn.seen.find((r) => r.body === 'a')!;
    expect(first).toMatchObject({
      eventSource: 'aws:sqs',
      eventSourceARN: queue.arn,
      awsRegion: queue.arn.split(':')[3],
      attributes: { ApproximateReceiveCount: '1' },
    });
    expect(first.messageId).toMatch(/\S/);
    expect(Number(first.attributes.SentTimestamp)).toBeGreaterThan(0);

    // Only the reported record comes back (after its visibility timeout: moved, not waited).
    await source.advance(VISIBILITY_SECONDS * 1000);
    const again = await until('the failed record again', async () =>
      fn.seen.find((r) => r.body === 'bad' && r.attributes.ApproximateReceiveCount === '2'),
    );
    expect(again.messageId).toBe(fn.seen.find((r) => r.body === 'bad')!.messageId);
    await source.advance(VISIBILITY_SECONDS * 1000);
    await until('the failed record a third time', async () =>
      count(fn.bodies(), 'bad') >= 3 ? true : undefined,
    );
    expect(count(fn.bodies(), 'a')).toBe(1);
    expect(count(fn.bodies(), 'b')).toBe(1);
  });

  it('leaves the whole batch when the function throws, and SQS dead-letters it after maxReceiveCount', async () => {
    const queue = await queueWithDlq(2);
    const fn = recorder((r) => (r.body.startsWith('poison') ? 'throw' : 'ok'));
    const source = start(queue, fn.invoke, { batchSize: 2 });
    await send(queue.url, ['poison-1', 'poison-2']);
    await until('the batch', async () => (fn.seen.length >= 2 ? true : undefined));
    await source.advance(VISIBILITY_SECONDS * 1000);
    await until('the batch again', async () => (fn.seen.length >= 4 ? true : undefined));
    expect(fn.seen.slice(2).map((r) => r.attributes.ApproximateReceiveCount)).toEqual(['2', '2']);
    // A third receive would exceed maxReceiveCount 2: SQS moves both to the DLQ instead.
    await source.advance(VISIBILITY_SECONDS * 1000);
    const dead = await until('both in the DLQ', async () => {
      const letters = await deadLetters(queue.dlq);
      return letters.length === 2 ? letters : undefined;
    });
    expect(dead.sort()).toEqual(['poison-1', 'poison-2']);
    expect(fn.seen).toHaveLength(4);
  });

  it('leaves the whole batch when the response names a record that is not in it', async () => {
    const queue = await queueWithDlq(5);
    let calls = 0;
    const seen: string[] = [];
    const source = start(queue, async (event): Promise<SQSBatchResponse> => {
      seen.push(...event.Records.map((r) => r.body));
      calls++;
      return { batchItemFailures: calls === 1 ? [{ itemIdentifier: 'not-in-this-batch' }] : [] };
    });
    await send(queue.url, ['x', 'y']);
    await until('the first batch', async () => (seen.length >= 2 ? true : undefined));
    await source.advance(VISIBILITY_SECONDS * 1000);
    await until('both records again', async () => (seen.length >= 4 ? true : undefined));
    expect(seen.sort()).toEqual(['x', 'x', 'y', 'y']);
  });

  it('gathers a batch within the batching window, up to the batch size', async () => {
    const queue = await queueWithDlq(5);
    const fn = recorder();
    start(queue, fn.invoke, { batchSize: 20, batchingWindowSeconds: 2 });
    await send(
      queue.url,
      Array.from({ length: 20 }, (_, i) => `m${i}`),
    );
    await until('all twenty', async () => (fn.seen.length >= 20 ? true : undefined));
    // More than SQS's 10 per receive in one invocation: the window gathered them.
    expect(Math.max(...fn.batches)).toBeGreaterThan(10);
    expect(new Set(fn.bodies()).size).toBe(20);
  });

  it('runs no more invocations at once than its maximum concurrency', async () => {
    const queue = await queueWithDlq(5);
    let active = 0;
    let peak = 0;
    const done: string[] = [];
    const gate: (() => void)[] = [];
    start(
      queue,
      async (event) => {
        active++;
        peak = Math.max(peak, active);
        await new Promise<void>((resolve) => gate.push(resolve));
        active--;
        done.push(...event.Records.map((r) => r.body));
      },
      { batchSize: 1, batchingWindowSeconds: 0, maxConcurrency: 2 },
    );
    await send(queue.url, ['c1', 'c2', 'c3', 'c4', 'c5']);
    await until('two invocations under way', async () => (active === 2 ? true : undefined));
    // The source does not take a third batch while both slots are busy.
    await until('the slots to stay full', async () => (gate.length === 2 ? true : undefined));
    expect(active).toBe(2);
    for (let released = 0; released < 5; released++) {
      await until('an invocation to release', async () => (gate.length ? true : undefined));
      gate.shift()!();
    }
    await until('all five', async () => (done.length === 5 ? true : undefined));
    expect(peak).toBe(2);
  });
});
