// The auto-disable's webhook.endpoint.disabled rides in the endpoint's outbox: written by the same
// conditional write as the disable, published after it, and published by the crashed step's
// redelivered message when the worker died (here: the events queue failed) before publishing.
import { createLocalDeps } from '../../functions/compose/local';
import type { Principal } from '../../functions/directory/app/directory';
import { ManualClock } from '../../functions/platform/clock';
import { Logger } from '../../functions/platform/logger';
import { PERMISSIONS } from '../../functions/platform/permissions';
import type { Deps, QueueMessage } from '../../functions/platform/ports';
import { processAttempt } from '../../functions/webhooks/app/deliver';
import { createEndpoint } from '../../functions/webhooks/app/endpoints';
import { afterPermanentFailure } from '../../functions/webhooks/app/health';
import { endpointPendingEvents as pendingEvents } from '../../functions/webhooks/app/outbox';
import type { DeliveryItem } from '../../functions/webhooks/domain/records';
import { AUTO_DISABLE_AFTER_MS } from '../../functions/webhooks/domain/retry-policy';
import { createDelivery } from '../../functions/webhooks/infra/repositories/deliveries';
import { getEndpoint } from '../../functions/webhooks/infra/repositories/endpoints';
import { startFailingStreak } from '../../functions/webhooks/infra/repositories/health';

const NOW = Date.parse('2026-06-01T00:00:00.000Z');
const log = new Logger({}, 'error');
const owner: Principal = {
  organizationId: 'org_outboxaaaaaaaaaaaaa',
  keyId: 'key_a',
  permissions: [...PERMISSIONS],
  system: false,
};

async function setup() {
  const clock = new ManualClock(NOW);
  const local = createLocalDeps({ clock });
  const sent: QueueMessage[] = [];
  let failSends = 0;
  const events = {
    ...local.queues.events,
    name: 'events',
    send: async (message: QueueMessage) => {
      if (failSends > 0) {
        failSends--;
        throw new Error('queue unavailable');
      }
      sent.push(message);
    },
  };
  const deps = { ...local, queues: { ...local.queues, events } } as unknown as Deps;
  const { endpoint: view } = await createEndpoint(deps, owner, {
    url: 'https://receiver.example.com/hook',
    eventTypeFilters: ['*'],
  });
  await startFailingStreak(deps, view.id, NOW - AUTO_DISABLE_AFTER_MS - 1);
  const stored = async () => (await getEndpoint(deps, owner.organizationId, view.id))!;
  const published = () => sent.map((m) => JSON.parse(m.body) as { id: string; type: string; data: unknown });
  return { deps, stored, published, failNextSends: (n: number) => (failSends = n), endpointId: view.id };
}

describe('webhook.endpoint.disabled', () => {
  it('is written with the disable and published once the write won', async () => {
    const { deps, stored, published, endpointId } = await setup();
    expect(await afterPermanentFailure(deps, await stored(), log)).toBe(true);
    expect(published()).toEqual([
      expect.objectContaining({
        type: 'webhook.endpoint.disabled',
        data: expect.objectContaining({ endpointId }),
      }),
    ]);
    expect((await stored()).enabled).toBe(false);
    expect(pendingEvents(await stored())).toEqual([]);
    // Already disabled: the write does not win, no second event exists.
    expect(await afterPermanentFailure(deps, await stored(), log)).toBe(false);
    expect(published()).toHaveLength(1);
  });

  it('survives a worker that dies after the disable: the redelivered step publishes it, same id', async () => {
    const { deps, stored, published, failNextSends, endpointId } = await setup();
    const endpoint = await stored();
    failNextSends(1);
    await expect(afterPermanentFailure(deps, endpoint, log)).rejects.toThrow('queue unavailable');
    expect((await stored()).enabled).toBe(false);
    const [pending] = pendingEvents(await stored());
    expect(pending).toMatchObject({
      type: 'webhook.endpoint.disabled',
      organizationId: owner.organizationId,
    });
    expect(published()).toEqual([]);

    // The step's message comes back: its attempt is recorded (failed for good), nothing is attempted.
    const failed: DeliveryItem = {
      id: 'dlv_outboxaaaaaaaaaaaaa',
      organizationId: owner.organizationId,
      endpointId,
      eventId: 'evt_outboxaaaaaaaaaaaaa',
      eventType: 'matter.created',
      occurredAt: NOW,
      body: '{}',
      status: 'failed',
      failureReason: 'rejected',
      attemptCount: 1,
      cycle: 0,
      cycleStart: 1,
      createdAt: NOW,
      updatedAt: NOW,
      ttl: 0,
    };
    await createDelivery(deps, failed);
    const message = { kind: 'attempt' as const, deliveryId: failed.id, cycle: 0, attempt: 1, dueAt: NOW };
    expect(await processAttempt(deps, message, { allowLoopback: false }, log)).toBe('done');
    expect(published()).toEqual([
      expect.objectContaining({ id: pending!.id, type: 'webhook.endpoint.disabled' }),
    ]);
    expect(pendingEvents(await stored())).toEqual([]);
  });
});
