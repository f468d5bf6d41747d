// What a recover job picks up: failed and skipped deliveries, and pending or retrying ones whose next
// step is long overdue (their queue message was lost or dead-lettered), never one still on schedule.
import { createLocalDeps } from '../../functions/compose/local';
import type { Principal } from '../../functions/directory/app/directory';
import { receiverBody, webhookEventSchema } from '../../functions/events/domain/event';
import { newId } from '../../functions/platform/ids';
import { ManualClock } from '../../functions/platform/clock';
import { PERMISSIONS } from '../../functions/platform/permissions';
import { deliveryWorker } from '../../functions/webhooks/api/handlers/deliver';
import { createEndpoint } from '../../functions/webhooks/app/endpoints';
import { STUCK_AFTER_MS, getJob, recoverable, startRecovery } from '../../functions/webhooks/app/replay';
import { deliveriesMessage } from '../../functions/webhooks/domain/messages';
import type { DeliveryItem } from '../../functions/webhooks/domain/records';
import { newDelivery } from '../../functions/webhooks/domain/records';
import { deliveryItem } from '../../functions/webhooks/infra/repositories/deliveries';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const delivery = (fields: Partial<DeliveryItem>) =>
  ({ status: 'pending', createdAt: NOW - 3_600_000, updatedAt: NOW - 3_600_000, ...fields }) as DeliveryItem;

describe('recoverable deliveries', () => {
  it('takes failed and skipped deliveries, never delivered ones', () => {
    expect(recoverable(delivery({ status: 'failed' }), NOW)).toBe(true);
    expect(recoverable(delivery({ status: 'skipped_disabled' }), NOW)).toBe(true);
    expect(recoverable(delivery({ status: 'delivered' }), NOW)).toBe(false);
  });

  it('takes a retrying delivery only once its next attempt is overdue by the stuck threshold', () => {
    const due = NOW - STUCK_AFTER_MS;
    expect(recoverable(delivery({ status: 'retrying', nextAttemptAt: due }), NOW)).toBe(false);
    expect(recoverable(delivery({ status: 'retrying', nextAttemptAt: due - 1 }), NOW)).toBe(true);
    expect(recoverable(delivery({ status: 'retrying', nextAttemptAt: NOW + 3_600_000 }), NOW)).toBe(false);
  });

  it('takes a pending delivery untouched for longer than the threshold', () => {
    expect(recoverable(delivery({ status: 'pending', updatedAt: NOW - 60_000 }), NOW)).toBe(false);
    expect(recoverable(delivery({ status: 'pending', updatedAt: NOW - STUCK_AFTER_MS - 1 }), NOW)).toBe(true);
  });
});

describe('a recover job in pages', () => {
  const PAGE = 5;
  const DELIVERIES = 23; // more than four pages
  const owner: Principal = {
    organizationId: 'org_recoveraaaaaaaaaaaa',
    keyId: 'key_a',
    permissions: [...PERMISSIONS],
    system: false,
  };

  /** An endpoint with `count` failed deliveries an hour old, and no consumer on the queues. */
  async function setup(count: number) {
    const clock = new ManualClock(NOW);
    const deps = createLocalDeps({ clock });
    const { endpoint } = await createEndpoint(deps, owner, {
      url: 'https://receiver.example.com/hook',
      eventTypeFilters: ['*'],
    });
    for (let i = 0; i < count; i++) {
      const event = webhookEventSchema().parse({
        id: newId('evt'),
        organizationId: owner.organizationId,
        type: 'vault.ingest.completed',
        occurred_at: new Date(NOW - 3_600_000).toISOString(),
        data: { vaultId: 'v', objectId: `o${i}`, durationMs: 1, chunkCount: 1 },
      });
      const item = newDelivery(event, receiverBody(event), endpoint.id, 'pending', NOW - 3_600_000 + i);
      await deps.tables.webhooks.put(
        deliveryItem({
          ...item,
          status: 'failed',
          failureReason: 'exhausted',
          attemptCount: 12,
        }),
      );
    }
    const worker = deliveryWorker({ allowLoopback: true }, { pageSize: PAGE })(deps);
    const job = await startRecovery(deps, owner.organizationId, endpoint.id, {
      since: new Date(NOW - 2 * 3_600_000).toISOString(),
    });
    const attempts: string[] = [];
    /** Takes what was queued: attempt messages are noted, recover messages returned to be run. */
    const take = (): string[] => {
      const recover: string[] = [];
      for (const body of deps.queues.deliveries.drain()) {
        const message = deliveriesMessage().parse(JSON.parse(body));
        if (message.kind === 'attempt') attempts.push(message.deliveryId);
        else recover.push(body);
      }
      return recover;
    };
    const run = (body: string) =>
      worker({ Records: [{ messageId: body, body, attributes: { ApproximateReceiveCount: '1' } }] } as never);
    const read = () => getJob(deps, owner.organizationId, job.id);
    return { deps, job, attempts, take, run, read };
  }

  it('replays more deliveries than a page, one page per message, each delivery once', async () => {
    const { take, run, read, attempts } = await setup(DELIVERIES);
    let messages = 0;
    for (let queued = take(); queued.length; queued = take()) {
      for (const body of queued) {
        expect(JSON.parse(body)).toMatchObject({ kind: 'recover', page: messages });
        messages++;
        await run(body);
      }
      if (messages < Math.ceil(DELIVERIES / PAGE)) expect((await read()).status).toBe('processing');
    }
    expect(messages).toBe(Math.ceil(DELIVERIES / PAGE));
    expect(await read()).toMatchObject({
      status: 'succeeded',
      counts: { matched: DELIVERIES, replayed: DELIVERIES, failed: 0 },
    });
    expect(new Set(attempts).size).toBe(DELIVERIES);
    expect(attempts).toHaveLength(DELIVERIES);
  });

  it('treats a redelivered message as done, re-sending its successor, and counts nothing twice', async () => {
    const { take, run, read, attempts } = await setup(DELIVERIES);
    let handled = 0;
    for (let queued = take(); queued.length; queued = take()) {
      for (const body of queued) {
        await run(body);
        await run(body); // SQS delivers at least once
        handled += 2;
      }
      expect(handled).toBeLessThan(100); // duplicates must die out, not multiply
    }
    expect(await read()).toMatchObject({
      status: 'succeeded',
      counts: { matched: DELIVERIES, replayed: DELIVERIES, failed: 0 },
    });
    expect(attempts).toHaveLength(DELIVERIES);
  });

  it('runs a page again after a crash before its commit, replaying none of it twice and counting it once', async () => {
    const { deps, job, take, run, read, attempts } = await setup(DELIVERIES);
    const [first] = take();
    const before = await deps.tables.webhooks.get({ pk: `JOB#${job.id}`, sk: 'JOB' });
    await run(first!);
    // The crash: the page's replays happened, its commit and the next message did not.
    await deps.tables.webhooks.put(before!);
    take();
    await run(first!);
    for (let queued = take(); queued.length; queued = take()) for (const body of queued) await run(body);
    expect(await read()).toMatchObject({
      status: 'succeeded',
      counts: { matched: DELIVERIES, replayed: DELIVERIES, failed: 0 },
    });
    expect(new Set(attempts).size).toBe(DELIVERIES);
    expect(attempts).toHaveLength(DELIVERIES);
  });
});
