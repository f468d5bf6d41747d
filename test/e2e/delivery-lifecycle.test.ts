// A delivery's whole life over HTTP, on both runtimes: delivered at once, retried in the background
// (the retry waits on the queue, due on the server's clock), failed without retry on a 4xx, replayed
// with the same event id, and exhausted into the dead-letter queue by the queue's own redrive. On the
// emulated AWS runtime every step goes through SQS (delays, receive counts, visibility timeouts,
// partial batch failures, redrive to the DLQ) and the event-source runner; the development clock
// walks the 3.5-day schedule in seconds (functions/dev-runtime/emulated-aws/runtime.ts says how it reaches SQS).
import type { RunningServer } from '../support/local-server';
import { RUNTIME, api, startLocalServer } from '../support/local-server';
import type { Receiver } from '../support/receiver';
import { startReceiver } from '../support/receiver';
import { until } from '../support/until';

let server: RunningServer;
let receiver: Receiver;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  // One after the other: had one failed while the other started, afterAll could not close the other.
  receiver = await startReceiver();
  server = await startLocalServer();
  call = api(server);
});

afterAll(async () => {
  await Promise.all([server?.stop(), receiver?.close()]);
});

interface Delivery {
  id: string;
  eventId: string;
  status: string;
  failureReason: string | null;
  attemptCount: number;
  nextAttemptAt: string | null;
  attempts: { attempt: number; attemptedAt: string; statusCode: number | null }[];
}

async function endpointFor(path: string): Promise<string> {
  const response = await call('/webhooks/v1/endpoints', {
    method: 'POST',
    body: JSON.stringify({ url: receiver.url(path), eventTypeFilters: ['matter.created'] }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { endpoint: { id: string } }).endpoint.id;
}

/** Publishes one event to the organization and answers the delivery made for `endpointId`. */
async function publishTo(endpointId: string): Promise<Delivery> {
  const published = await api(server, server.credentials.systemKey)('/webhooks/v1/events', {
    method: 'POST',
    body: JSON.stringify({
      organizationId: server.credentials.organizationId,
      type: 'matter.created',
      data: { matterId: `mat_${endpointId.slice(-6)}`, name: 'Lifecycle' },
    }),
  });
  expect(published.status).toBe(202);
  const eventId = ((await published.json()) as { id: string }).id;
  const { id } = await until(`the delivery of ${eventId} to ${endpointId}`, async () => {
    const list = (await (await call(`/webhooks/v1/endpoints/${endpointId}/deliveries`)).json()) as {
      data: { id: string; eventId: string }[];
    };
    return list.data.find((d) => d.eventId === eventId);
  });
  return delivery(id);
}

async function delivery(id: string): Promise<Delivery> {
  const response = await call(`/webhooks/v1/deliveries/${id}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Delivery;
}

const settledAs = (id: string, status: string, ms?: number) =>
  until(
    `delivery ${id} to be ${status}`,
    async () => {
      const current = await delivery(id);
      return current.status === status ? current : undefined;
    },
    ms,
  );

/** Moves the server's clock to just past the delivery's next attempt. */
async function skipToNextAttempt(current: Delivery): Promise<void> {
  const due = Date.parse(current.nextAttemptAt!);
  const now = await server.clockNow();
  if (due >= now) await server.advanceClock(due - now + 1_000);
}

describe(`delivery lifecycle on the ${RUNTIME} runtime`, () => {
  it('delivers at once when the receiver answers 2xx', async () => {
    const endpointId = await endpointFor('/lc-ok');
    const { id } = await publishTo(endpointId);
    const done = await settledAs(id, 'delivered');
    expect(done.attempts.map((a) => a.statusCode)).toEqual([204]);
  });

  it('retries in the background after the inline retry, and delivers when the receiver recovers', async () => {
    receiver.on('/lc-retry', (n) => (n <= 2 ? { status: 503 } : { status: 204 }));
    const endpointId = await endpointFor('/lc-retry');
    const { id } = await publishTo(endpointId);
    // The first attempt and the inline retry fail; the next waits on the queue for about a minute.
    const waiting = await until('the inline retry to fail too', async () => {
      const current = await delivery(id);
      return current.status === 'retrying' && current.attemptCount === 2 ? current : undefined;
    });
    const wait = Date.parse(waiting.nextAttemptAt!) - Date.parse(waiting.attempts.at(-1)!.attemptedAt);
    expect(wait).toBeGreaterThan(40_000);
    await skipToNextAttempt(waiting);
    const done = await settledAs(id, 'delivered');
    expect(done.attempts.map((a) => a.statusCode)).toEqual([503, 503, 204]);
    const ids = receiver.received.filter((r) => r.path === '/lc-retry').map((r) => r.headers['webhook-id']);
    expect(new Set(ids)).toEqual(new Set([done.eventId]));
  });

  it('fails without a retry on a 4xx, and a replay delivers it again under the same event id', async () => {
    receiver.on('/lc-rejected', (n) => (n === 1 ? { status: 400 } : { status: 200 }));
    const endpointId = await endpointFor('/lc-rejected');
    const { id, eventId } = await publishTo(endpointId);
    const failed = await settledAs(id, 'failed');
    expect(failed).toMatchObject({ failureReason: 'rejected', attemptCount: 1, nextAttemptAt: null });
    await server.advanceClock(2 * 60 * 60_000); // nothing was scheduled: still one attempt
    expect((await delivery(id)).attemptCount).toBe(1);

    const replay = await call(`/webhooks/v1/deliveries/${id}/replay`, { method: 'POST' });
    expect(replay.status).toBe(202);
    const delivered = await settledAs(id, 'delivered');
    expect(delivered.attempts.map((a) => a.statusCode)).toEqual([400, 200]);
    const sent = receiver.received.filter((r) => r.path === '/lc-rejected');
    expect(sent.map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId]);
  });

  it('exhausts the schedule, marks the delivery failed, and the queue moves its last step to the DLQ', async () => {
    receiver.on('/lc-dead', () => ({ status: 503 }));
    const endpointId = await endpointFor('/lc-dead');
    const { id } = await publishTo(endpointId);
    // Twelve attempts over about 3.5 days of the server's clock, each one due when the clock says.
    const exhausted = await until(
      'the delivery to exhaust its schedule',
      async () => {
        const current = await delivery(id);
        if (current.status === 'failed') return current;
        if (current.status === 'retrying' && current.nextAttemptAt) await skipToNextAttempt(current);
        return undefined;
      },
      120_000,
    );
    expect(exhausted).toMatchObject({ failureReason: 'exhausted', attemptCount: 12 });
    expect(receiver.received.filter((r) => r.path === '/lc-dead')).toHaveLength(12);

    // The worker reports the last step failed on purpose; the queue redrives it after its
    // maxReceiveCount receives (each after the visibility timeout, which the clock moves too).
    const letter = await until(
      'the exhausted step in the dead letters',
      async () => {
        const listed = (await (await call('/webhooks/v1/dead-letters?limit=50')).json()) as {
          data: {
            deliveryId: string | null;
            endpointId: string | null;
            kind: string;
            receiveCount: number;
          }[];
        };
        const found = listed.data.find((l) => l.deliveryId === id);
        if (!found) await server.advanceClock(5 * 60_000);
        return found;
      },
      90_000,
    );
    expect(letter).toMatchObject({ kind: 'attempt', endpointId });
    // Three receives, plus on SQS the API's own peeks at the DLQ (each receive counts there).
    expect(letter.receiveCount).toBeGreaterThanOrEqual(3);
    // Nothing more was sent: dead-lettering is bookkeeping, not another attempt.
    expect(receiver.received.filter((r) => r.path === '/lc-dead')).toHaveLength(12);
  }, 240_000);
});
