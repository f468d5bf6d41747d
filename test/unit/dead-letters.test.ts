// The organization's dead letters through the Queue port (here the local queues): events and delivery
// steps that exhausted their receives, shown by id and count only, and never another tenant's.
import { createLocalDeps } from '../../functions/compose/local';
import type { WebhookEvent } from '../../functions/events';
import { receiverBody } from '../../functions/events';
import { ManualClock } from '../../functions/platform/clock';
import { listDeadLetters } from '../../functions/webhooks/app/dead-letters';
import { attemptBody } from '../../functions/webhooks/domain/messages';
import { newDelivery } from '../../functions/webhooks/domain/records';
import { deliveryItem } from '../../functions/webhooks/infra/repositories/deliveries';

const event = (organizationId: string, id: string): WebhookEvent => ({
  id,
  organizationId,
  type: 'matter.created',
  occurred_at: '2026-03-01T00:00:00.000Z',
  data: { matterId: 'mat_1', name: 'secret matter name' },
});

it('lists the events and delivery steps of one organization that reached the dead letters', async () => {
  const clock = new ManualClock(Date.parse('2026-03-01T00:00:00.000Z'));
  const deps = createLocalDeps({ clock });
  const ours = event('org_aaaaaaaaaaaaaaaaaaaa', 'evt_aaaaaaaaaaaaaaaaaaaa');
  const theirs = event('org_bbbbbbbbbbbbbbbbbbbb', 'evt_bbbbbbbbbbbbbbbbbbbb');
  const delivery = newDelivery(ours, receiverBody(ours), 'we_aaaaaaaaaaaaaaaaaaaa', 'pending', clock.now());
  await deps.tables.webhooks.put(deliveryItem(delivery));
  await deps.queues.events.sendBatch([ours, theirs].map((e) => ({ body: JSON.stringify(e) })));
  await deps.queues.deliveries.send({
    body: attemptBody({ deliveryId: delivery.id, cycle: 0, attempt: 1, dueAt: clock.now() }),
  });
  const refuse = async () => {
    throw new Error('consumer down');
  };
  for (const queue of [deps.queues.events, deps.queues.deliveries]) {
    queue.attach(refuse, { maxReceiveCount: 1 });
    await queue.pump();
  }
  const letters = await listDeadLetters(deps, ours.organizationId, 50);
  expect(letters).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ queue: 'events', kind: 'event', eventId: ours.id, receiveCount: 1 }),
      expect.objectContaining({
        queue: 'deliveries',
        kind: 'attempt',
        deliveryId: delivery.id,
        endpointId: 'we_aaaaaaaaaaaaaaaaaaaa',
        eventId: ours.id,
      }),
    ]),
  );
  expect(letters).toHaveLength(2);
  expect(JSON.stringify(letters)).not.toContain('secret matter name');
  expect(await listDeadLetters(deps, theirs.organizationId, 50)).toEqual([
    expect.objectContaining({ eventId: theirs.id }),
  ]);
});
