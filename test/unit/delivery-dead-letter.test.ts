// A delivery step whose message fails on every receive ends in the dead-letter queue; the delivery must
// not stay pending or retrying forever with no message left to move it. On the last receive the worker
// marks it failed (dead_lettered) before doing anything, so even a crash leaves it marked; a last
// receive that ends normally replaces or takes back the mark. The local queue applies SQS's redrive.
import { createLocalDeps } from '../../functions/compose/local';
import type { LocalDeps } from '../../functions/compose/local';
import type { Principal } from '../../functions/directory/app/directory';
import { receiverBody, webhookEventSchema } from '../../functions/events/domain/event';
import { ManualClock } from '../../functions/platform/clock';
import { newId } from '../../functions/platform/ids';
import { PERMISSIONS } from '../../functions/platform/permissions';
import { deliveryWorker } from '../../functions/webhooks/api/handlers/deliver';
import { createEndpoint } from '../../functions/webhooks/app/endpoints';
import { getDeliveryWithAttempts } from '../../functions/webhooks/app/history';
import { recoverable } from '../../functions/webhooks/app/replay';
import { attemptBody } from '../../functions/webhooks/domain/messages';
import type { DeliveryItem } from '../../functions/webhooks/domain/records';
import { newDelivery } from '../../functions/webhooks/domain/records';
import type { AttemptOutcome, SendInput } from '../../functions/webhooks/infra/send';
import { deliveryItem, getDelivery } from '../../functions/webhooks/infra/repositories/deliveries';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const VISIBILITY_MS = 1_000;
const MAX_RECEIVES = 3;
const owner: Principal = {
  organizationId: 'org_deadletteraaaaaaaaa',
  keyId: 'key_a',
  permissions: [...PERMISSIONS],
  system: false,
};

type Send = (input: SendInput) => Promise<AttemptOutcome>;
const delivered: AttemptOutcome = { kind: 'delivered', statusCode: 204, latencyMs: 3, responseBody: '' };

/** A pending (or retrying) delivery with its step's message queued, and the worker on the local queue. */
async function setup(send: Send, state: Partial<DeliveryItem> = {}, dueAt = NOW) {
  const clock = new ManualClock(NOW);
  const deps: LocalDeps = createLocalDeps({ clock });
  const { endpoint } = await createEndpoint(deps, owner, {
    url: 'https://receiver.example.com/hook',
    eventTypeFilters: ['*'],
  });
  const event = webhookEventSchema().parse({
    id: newId('evt'),
    organizationId: owner.organizationId,
    type: 'vault.ingest.completed',
    occurred_at: new Date(NOW).toISOString(),
    data: { vaultId: 'v', objectId: 'o', durationMs: 1, chunkCount: 1 },
  });
  const item = { ...newDelivery(event, receiverBody(event), endpoint.id, 'pending', NOW), ...state };
  await deps.tables.webhooks.put(deliveryItem(item));
  await deps.queues.deliveries.send({
    body: attemptBody({ deliveryId: item.id, cycle: 0, attempt: item.attemptCount + 1, dueAt }),
  });
  deps.queues.deliveries.attach(
    deliveryWorker({ allowLoopback: false, inlinePauseMs: 0, send: (input) => send(input) })(deps),
    { batchSize: 10, visibilityTimeoutMs: VISIBILITY_MS, maxReceiveCount: MAX_RECEIVES },
  );
  opened.push(deps.queues.deliveries);
  const stored = async () => (await getDelivery(deps, item.id))!;
  let received = 0;
  /**
   * One receive: the visibility timeout of the previous one passes, and what is due is handed out at
   * once (in the same tick, so the queue's own timer cannot take it first).
   */
  const receive = () => {
    if (received++) clock.advance(VISIBILITY_MS);
    return deps.queues.deliveries.pump();
  };
  return { deps, item, stored, receive, clock };
}

const opened: { close(): void }[] = [];
afterEach(() => {
  for (const queue of opened.splice(0)) queue.close();
});

const failing: Send = async () => {
  throw new Error('an outage of ours, on every receive');
};

describe('a delivery step that reaches the dead-letter queue', () => {
  it('leaves its delivery failed (dead_lettered), recoverable, never pending or retrying', async () => {
    const { deps, item, stored, receive } = await setup(failing);
    for (let i = 1; i < MAX_RECEIVES; i++) {
      await receive();
      expect((await stored()).status).toBe('pending'); // earlier receives change nothing
    }
    await receive();
    expect(await deps.queues.deliveries.listDeadLetters()).toEqual([
      expect.objectContaining({ receiveCount: MAX_RECEIVES }),
    ]);
    const now = await stored();
    expect(now).toMatchObject({ status: 'failed', failureReason: 'dead_lettered', strandedFrom: 'pending' });
    expect(recoverable(now, NOW)).toBe(true);
    expect(await getDeliveryWithAttempts(deps, owner.organizationId, item.id)).toMatchObject({
      status: 'failed',
      failureReason: 'dead_lettered',
    });
  });

  it('is marked before its last receive does anything, so a crash there leaves the mark', async () => {
    let calls = 0;
    let reached!: () => void;
    const atLastSend = new Promise<void>((resolve) => (reached = resolve));
    let finish!: (outcome: AttemptOutcome) => void;
    const { stored, receive } = await setup(async () => {
      if (++calls < MAX_RECEIVES) throw new Error('failing receive');
      reached();
      return new Promise<AttemptOutcome>((resolve) => (finish = resolve)); // hangs, as a dying worker
    });
    for (let i = 1; i < MAX_RECEIVES; i++) await receive();
    const last = receive();
    await atLastSend;
    // What a crash or a timeout now would leave behind:
    expect(await stored()).toMatchObject({ status: 'failed', failureReason: 'dead_lettered' });
    finish(delivered);
    await last;
    expect(await stored()).toMatchObject({ status: 'delivered' });
  });

  it('records the last receive’s attempt in place of the mark when it ends well', async () => {
    let calls = 0;
    const { stored, receive, deps } = await setup(async () => {
      if (++calls < MAX_RECEIVES) throw new Error('failing receive');
      return delivered;
    });
    for (let i = 0; i < MAX_RECEIVES; i++) await receive();
    const now = await stored();
    expect(now).toMatchObject({ status: 'delivered', attemptCount: 1 });
    expect(now.failureReason).toBeUndefined();
    expect(now.strandedFrom).toBeUndefined();
    expect(await deps.queues.deliveries.listDeadLetters()).toEqual([]);
  });

  it('takes the mark back when the last receive only hops the message on', async () => {
    const later = NOW + 2 * 3_600_000;
    const { stored, receive, deps } = await setup(
      async () => delivered,
      { status: 'retrying', attemptCount: 3, scheduledAttempt: 4, nextAttemptAt: later },
      later,
    );
    const queue = deps.queues.deliveries;
    const send = queue.send.bind(queue);
    let hops = 0;
    // The hop's re-send fails on the first receives (an SQS outage), then goes through.
    queue.send = async (message) => {
      if (++hops < MAX_RECEIVES) throw new Error('SQS unavailable');
      return send(message);
    };
    for (let i = 0; i < MAX_RECEIVES; i++) await receive();
    const now = await stored();
    expect(now).toMatchObject({ status: 'retrying', attemptCount: 3, nextAttemptAt: later });
    expect(now.failureReason).toBeUndefined();
    expect(now.strandedFrom).toBeUndefined();
    expect(queue.size).toBe(1); // the hop, on its way to the attempt
  });

  it('resumes when an operator redrives the dead-lettered message', async () => {
    const { stored, receive, deps, item } = await setup(failing);
    for (let i = 0; i < MAX_RECEIVES; i++) await receive();
    expect((await stored()).failureReason).toBe('dead_lettered');
    // Redriven: the same body back on the queue, with a fresh receive count; the outage is over.
    const worker = deliveryWorker({ allowLoopback: false, send: async () => delivered })(deps);
    const [letter] = await deps.queues.deliveries.listDeadLetters();
    await worker({
      Records: [{ messageId: 'redriven', body: letter!.body, attributes: { ApproximateReceiveCount: '1' } }],
    } as never);
    expect(await stored()).toMatchObject({ id: item.id, status: 'delivered', attemptCount: 1 });
  });
});
