// The local queue behaves like SQS + a Lambda event source for attached handlers: real SQSEvent records,
// batch item failures come back with a higher receive count once their visibility timeout has passed
// on the clock port, exhausted messages become dead letters, and a journal keeps everything across a
// restart. Time moves by the clock, never by waiting.
import type { SQSEvent } from 'aws-lambda';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalQueue } from '../../functions/adapters/local/local-queue';
import { ManualClock } from '../../functions/platform/clock';

const failing = (bodies: string[]) => async (event: SQSEvent) => ({
  batchItemFailures: event.Records.filter((r) => bodies.includes(r.body)).map((r) => ({
    itemIdentifier: r.messageId,
  })),
});

describe('LocalQueue with an SQS-shaped consumer', () => {
  it('re-delivers only the reported failures after the visibility timeout, then dead-letters them', async () => {
    const clock = new ManualClock(0);
    const queue = new LocalQueue('test', { clock });
    const seen: { body: string; count: string }[] = [];
    const handler = failing(['bad']);
    queue.attach(
      async (event) => {
        for (const r of event.Records)
          seen.push({ body: r.body, count: r.attributes.ApproximateReceiveCount });
        expect(event.Records[0]!.eventSource).toBe('aws:sqs');
        return handler(event);
      },
      { visibilityTimeoutMs: 1_000, maxReceiveCount: 3 },
    );
    await queue.sendBatch([{ body: 'good' }, { body: 'bad' }]);
    await queue.pump();
    await queue.pump(); // not visible yet: nothing more
    expect(seen).toEqual([
      { body: 'good', count: '1' },
      { body: 'bad', count: '1' },
    ]);
    for (let i = 0; i < 2; i++) {
      clock.advance(1_000);
      await queue.pump();
    }
    expect(seen.filter((s) => s.body === 'bad').map((s) => s.count)).toEqual(['1', '2', '3']);
    expect(queue.deadLetters).toEqual(['bad']);
    expect((await queue.listDeadLetters())[0]).toMatchObject({ body: 'bad', receiveCount: 3, deadAt: 2_000 });
    expect(queue.size).toBe(0);
    queue.close();
  });

  it('treats a handler that throws as a failure of its whole batch', async () => {
    const clock = new ManualClock(0);
    const queue = new LocalQueue('test', { clock });
    let calls = 0;
    queue.attach(
      async () => {
        if (++calls === 1) throw new Error('crash');
        return { batchItemFailures: [] };
      },
      { visibilityTimeoutMs: 500, maxReceiveCount: 3 },
    );
    await queue.send({ body: 'x' });
    await queue.pump();
    expect(queue.size).toBe(1);
    clock.advance(500);
    await queue.pump();
    expect(calls).toBe(2);
    expect(queue.size).toBe(0);
    expect(queue.deadLetters).toEqual([]);
    queue.close();
  });

  it('holds a delayed message until the clock reaches it, however long the delay', async () => {
    const clock = new ManualClock(0);
    const queue = new LocalQueue('test', { clock });
    const received: string[] = [];
    queue.attach(async (event) => {
      received.push(...event.Records.map((r) => r.body));
      return { batchItemFailures: [] };
    });
    await queue.send({ body: 'in 15 minutes', delaySeconds: 900 });
    await queue.pump();
    expect(received).toEqual([]);
    clock.advance(899_999);
    await queue.pump();
    expect(received).toEqual([]);
    clock.advance(1);
    await queue.pump();
    expect(received).toEqual(['in 15 minutes']);
    queue.close();
  });

  it('keeps sent, in-flight and dead messages in its journal across a restart', async () => {
    const journal = join(mkdtempSync(join(tmpdir(), 'local-queue-')), 'deliveries.jsonl');
    const clock = new ManualClock(0);
    const first = new LocalQueue('deliveries', { clock, journal });
    await first.send({ body: 'poison' });
    first.attach(failing(['poison']), { maxReceiveCount: 1 });
    await first.pump();
    expect(first.deadLetters).toEqual(['poison']);
    first.close();

    const second = new LocalQueue('deliveries', { clock, journal });
    await second.send({ body: 'accepted' });
    await second.send({ body: 'delayed', delaySeconds: 60 });
    // A consumer that takes what is due and dies holding it.
    second.attach(() => new Promise(() => undefined), { visibilityTimeoutMs: 30_000, maxReceiveCount: 2 });
    await new Promise((r) => setImmediate(r));
    second.close(); // the process dies here

    const third = new LocalQueue('deliveries', { clock, journal });
    expect(third.size).toBe(2);
    expect(third.deadLetters).toEqual(['poison']);
    const received: string[] = [];
    third.attach(async (event) => {
      received.push(...event.Records.map((r) => `${r.body}#${r.attributes.ApproximateReceiveCount}`));
      return { batchItemFailures: [] };
    });
    await third.pump();
    expect(received).toEqual([]); // in flight (30 s) and delayed (60 s)
    clock.advance(30_000);
    await third.pump();
    expect(received).toEqual(['accepted#2']);
    clock.advance(30_000);
    await third.pump();
    expect(received).toEqual(['accepted#2', 'delayed#1']);
    third.close();

    const fourth = new LocalQueue('deliveries', { clock, journal });
    expect(fourth.size).toBe(0);
    expect(fourth.deadLetters).toEqual(['poison']);
    fourth.close();
  });

  it('hands back at once, when the owner reopens it, what the dead process held; a delayed message keeps its delay', async () => {
    const journal = join(mkdtempSync(join(tmpdir(), 'local-queue-')), 'syncs.jsonl');
    const clock = new ManualClock(0);
    const first = new LocalQueue('syncs', { clock, journal, owner: true });
    await first.send({ body: 'step' });
    await first.send({ body: 'later', delaySeconds: 60 });
    // The worker takes the step and the process dies holding it (its visibility timeout: 30 minutes).
    first.attach(() => new Promise(() => undefined), { visibilityTimeoutMs: 30 * 60_000 });
    await new Promise((r) => setImmediate(r));
    first.close();

    const restarted = new LocalQueue('syncs', { clock, journal, owner: true });
    expect(restarted.reclaimed).toBe(1);
    const received: string[] = [];
    restarted.attach(async (event) => {
      received.push(...event.Records.map((r) => `${r.body}#${r.attributes.ApproximateReceiveCount}`));
      return { batchItemFailures: [] };
    });
    await restarted.pump();
    expect(received).toEqual(['step#2']); // at once, not 30 minutes later
    clock.advance(60_000);
    await restarted.pump();
    expect(received).toEqual(['step#2', 'later#1']);
    restarted.close();
  });

  it('on shutdown finishes what settles within the grace and hands back the rest, visible at once to a reader of the journal', async () => {
    const journal = join(mkdtempSync(join(tmpdir(), 'local-queue-')), 'deliveries.jsonl');
    const clock = new ManualClock(0);
    const first = new LocalQueue('deliveries', { clock, journal });
    await first.send({ body: 'quick' });
    await first.send({ body: 'stuck' });
    const handled: string[] = [];
    first.attach(
      async (event) => {
        const body = event.Records[0]!.body;
        // One settles within the grace, the other never.
        await new Promise((r) => (body === 'stuck' ? undefined : setTimeout(r, 50)));
        handled.push(body);
        return { batchItemFailures: [] };
      },
      { batchSize: 1, visibilityTimeoutMs: 270_000 },
    );
    await new Promise((r) => setImmediate(r));
    const started = Date.now();
    expect(await first.shutdown(200)).toEqual({ settled: 1, handedBack: 1 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(handled).toEqual(['quick']);
    await first.send({ body: 'after' }); // journaled, never handed out by a stopped queue
    await new Promise((r) => setTimeout(r, 20));
    expect(handled).toEqual(['quick']);

    // Not even the owner's reclaim is needed: the journal says it is visible now.
    const next = new LocalQueue('deliveries', { clock, journal, owner: false });
    const received: string[] = [];
    next.attach(async (event) => {
      received.push(...event.Records.map((r) => `${r.body}#${r.attributes.ApproximateReceiveCount}`));
      return { batchItemFailures: [] };
    });
    await next.pump();
    expect(received.sort()).toEqual(['after#1', 'stuck#2']);
    next.close();
  });

  it('dead-letters a message whose consumer died holding it maxReceiveCount times, on its next receive', async () => {
    const journal = join(mkdtempSync(join(tmpdir(), 'local-queue-')), 'events.jsonl');
    const clock = new ManualClock(0);
    const dies = () => new Promise<never>(() => undefined);
    const crashing = new LocalQueue('events', { clock, journal });
    await crashing.send({ body: 'kills its consumer' });
    crashing.attach(dies, { visibilityTimeoutMs: 1_000, maxReceiveCount: 1 });
    await new Promise((r) => setImmediate(r));
    crashing.close();
    const restarted = new LocalQueue('events', { clock, journal });
    restarted.attach(dies, { visibilityTimeoutMs: 1_000, maxReceiveCount: 1 });
    clock.advance(1_000);
    await restarted.pump();
    expect(restarted.deadLetters).toEqual(['kills its consumer']);
    expect(restarted.size).toBe(0);
    restarted.close();
  });
});
