// The local queue behaves like SQS + a Lambda event source for attached handlers: real SQSEvent records,
// batch item failures come back with a higher receive count, and exhausted messages become dead letters.
import { jest } from '@jest/globals';
import type { SQSEvent } from 'aws-lambda';
import { LocalQueue } from '../../functions/adapters/local/local-queue';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('LocalQueue with an SQS-shaped consumer', () => {
  it('re-delivers only the reported failures, then dead-letters them after maxReceiveCount', async () => {
    const queue = new LocalQueue('test');
    const seen: { body: string; count: string }[] = [];
    queue.attach(
      async (event: SQSEvent) => {
        for (const r of event.Records)
          seen.push({ body: r.body, count: r.attributes.ApproximateReceiveCount });
        expect(event.Records[0]!.eventSource).toBe('aws:sqs');
        return {
          batchItemFailures: event.Records.filter((r) => r.body === 'bad').map((r) => ({
            itemIdentifier: r.messageId,
          })),
        };
      },
      { visibilityTimeoutMs: 20, maxReceiveCount: 3 },
    );
    await queue.sendBatch([{ body: 'good' }, { body: 'bad' }]);
    await wait(200);
    expect(seen.filter((s) => s.body === 'good')).toEqual([{ body: 'good', count: '1' }]);
    expect(seen.filter((s) => s.body === 'bad').map((s) => s.count)).toEqual(['1', '2', '3']);
    expect(queue.deadLetters).toEqual(['bad']);
    queue.close();
  });

  it('treats a handler that throws as a failure of its whole batch', async () => {
    const queue = new LocalQueue('test');
    let calls = 0;
    queue.attach(
      async () => {
        if (++calls === 1) throw new Error('crash');
        return { batchItemFailures: [] };
      },
      { visibilityTimeoutMs: 20, maxReceiveCount: 3 },
    );
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await queue.sendBatch([{ body: 'a' }, { body: 'b' }]);
    await wait(150);
    errors.mockRestore();
    expect(calls).toBe(2);
    expect(queue.deadLetters).toEqual([]);
    queue.close();
  });
});
