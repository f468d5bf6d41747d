// The delivery state machine in compressed time: an injected clock and a simulated queue walk the whole
// retry schedule (jitter, Retry-After, 15-minute hops) and the auto-disable policy in milliseconds.
import { createLocalDeps } from '../../functions/compose/local';
import type { Principal } from '../../functions/directory/app/directory';
import type { DeliverOptions } from '../../functions/webhooks/app/deliver';
import { processAttempt } from '../../functions/webhooks/app/deliver';
import { fanOut } from '../../functions/webhooks/app/fan-out';
import { deliveriesMessage } from '../../functions/webhooks/domain/messages';
import { deliveryId } from '../../functions/webhooks/domain/records';
import {
  AUTO_DISABLE_AFTER_MS,
  INLINE_RETRY_PAUSE_MS,
  MAX_ATTEMPTS,
  DUE_TOLERANCE_MS,
  RETRY_SCHEDULE_MS,
  jittered,
  nextStep,
  shouldAutoDisable,
} from '../../functions/webhooks/domain/retry-policy';
import type { AttemptOutcome } from '../../functions/webhooks/infra/send';
import { webhookEventSchema } from '../../functions/events/domain/event';
import { publishEvent } from '../../functions/events/app/publish';
import { ManualClock } from '../../functions/platform/clock';
import { hopDelaySeconds } from '../../functions/platform/durable-timer';
import type { Deps } from '../../functions/platform/ports';
import { Logger } from '../../functions/platform/logger';
import { PERMISSIONS } from '../../functions/platform/permissions';
import type { Queue, QueueMessage } from '../../functions/platform/ports';
import { createEndpoint, loadEndpoint, setEndpointEnabled } from '../../functions/webhooks/app/endpoints';
import {
  deliveryWithAttempts,
  endpointDeliveryWindow,
  getDelivery,
} from '../../functions/webhooks/infra/repositories/deliveries';

const log = new Logger({}, 'error');
const owner: Principal = {
  organizationId: 'org_aaaaaaaaaaaaaaaaaaaa',
  keyId: 'key_a',
  permissions: [...PERMISSIONS],
  system: false,
};

/** A queue that keeps what was sent with the time it becomes visible. */
class SimulatedQueue implements Queue {
  readonly messages: { body: string; visibleAt: number; delaySeconds: number }[] = [];
  constructor(
    readonly name: string,
    private readonly clock: ManualClock,
  ) {}
  maxDelaySeconds = 0;
  async send(m: QueueMessage) {
    this.maxDelaySeconds = Math.max(this.maxDelaySeconds, m.delaySeconds ?? 0);
    this.messages.push({
      body: m.body,
      delaySeconds: m.delaySeconds ?? 0,
      visibleAt: this.clock.now() + (m.delaySeconds ?? 0) * 1000,
    });
  }
  async sendBatch(ms: QueueMessage[]) {
    for (const m of ms) await this.send(m);
  }
  async listDeadLetters() {
    return [];
  }
  async maxReceiveCount() {
    return undefined;
  }
}

function setup() {
  const clock = new ManualClock(Date.parse('2026-03-01T00:00:00.000Z'));
  const local = createLocalDeps({ clock });
  const events = new SimulatedQueue('events', clock);
  const deliveries = new SimulatedQueue('deliveries', clock);
  const deps: Deps = { ...local, queues: { ...local.queues, events, deliveries } };
  let answer: (n: number) => Pick<AttemptOutcome, 'kind' | 'statusCode' | 'retryAfterSeconds'> = () => ({
    kind: 'retry',
    statusCode: 503,
  });
  const attemptsAt: number[] = [];
  const options: DeliverOptions = {
    allowLoopback: true,
    random: Math.random,
    sleep: async (ms) => clock.advance(ms),
    send: async () => {
      attemptsAt.push(clock.now());
      return { ...answer(attemptsAt.length), latencyMs: 5, responseBody: '' };
    },
  };
  /** Runs queued messages in visibility order until none is left before `until`. */
  async function run(until = Infinity, process = processAttempt): Promise<string[]> {
    const dead: string[] = [];
    for (;;) {
      const all = [
        ...events.messages.map((m) => ({ q: events, m })),
        ...deliveries.messages.map((m) => ({ q: deliveries, m })),
      ];
      const next = all.sort((a, b) => a.m.visibleAt - b.m.visibleAt)[0];
      if (!next || next.m.visibleAt > until) return dead;
      next.q.messages.splice(next.q.messages.indexOf(next.m), 1);
      if (next.m.visibleAt > clock.now()) clock.set(next.m.visibleAt);
      if (next.q === events) {
        await fanOut(deps, webhookEventSchema().parse(JSON.parse(next.m.body)), log);
        continue;
      }
      const message = deliveriesMessage().parse(JSON.parse(next.m.body));
      if (message.kind !== 'attempt') continue;
      if ((await process(deps, message, options, log)) === 'dead_letter') dead.push(message.deliveryId);
    }
  }
  return {
    clock,
    deps,
    events,
    deliveries,
    attemptsAt,
    options,
    run,
    setAnswer: (a: typeof answer) => (answer = a),
  };
}

const ingest = (deps: Deps) =>
  publishEvent(deps, {
    organizationId: owner.organizationId,
    type: 'vault.ingest.completed',
    data: { vaultId: 'v', objectId: 'o', durationMs: 1, chunkCount: 1 },
  });

describe('retry policy', () => {
  it('retries once inline, then follows the schedule, then gives up after the last attempt', () => {
    expect(nextStep(1, { kind: 'retry' }, 0.5)).toEqual({
      kind: 'retry',
      inline: true,
      waitMs: INLINE_RETRY_PAUSE_MS,
    });
    RETRY_SCHEDULE_MS.forEach((ms, i) =>
      expect(nextStep(i + 2, { kind: 'retry' }, 0.5)).toEqual({ kind: 'retry', inline: false, waitMs: ms }),
    );
    expect(nextStep(MAX_ATTEMPTS, { kind: 'retry' }, 0.5)).toEqual({ kind: 'failed', reason: 'exhausted' });
    expect(nextStep(3, { kind: 'failed' }, 0.5)).toEqual({ kind: 'failed', reason: 'rejected' });
    expect(nextStep(3, { kind: 'delivered' }, 0.5)).toEqual({ kind: 'delivered' });
  });

  it('jitters by at most 20% either way', () => {
    expect(jittered(60_000, 0)).toBe(48_000);
    expect(jittered(60_000, 0.999999)).toBeLessThanOrEqual(72_000);
    expect(jittered(60_000, 0.5)).toBe(60_000);
  });

  it('honours Retry-After as a floor, clamped to a day, and skips the inline retry for it', () => {
    expect(nextStep(1, { kind: 'retry', retryAfterSeconds: 120 }, 0.5)).toEqual({
      kind: 'retry',
      inline: false,
      waitMs: 120_000,
    });
    expect(nextStep(2, { kind: 'retry', retryAfterSeconds: 10 }, 0.5)).toMatchObject({ waitMs: 60_000 });
    expect(nextStep(2, { kind: 'retry', retryAfterSeconds: 10 * 86_400 }, 0.5)).toMatchObject({
      waitMs: 86_400_000,
    });
  });

  it('splits waits longer than 15 minutes into queue hops', () => {
    expect(hopDelaySeconds(1_000 + 3_600_000, 1_000, DUE_TOLERANCE_MS)).toBe(900);
    expect(hopDelaySeconds(1_000 + 120_000, 1_000, DUE_TOLERANCE_MS)).toBe(120);
    expect(hopDelaySeconds(1_500, 1_000, DUE_TOLERANCE_MS)).toBe(0);
  });

  it('auto-disables only after five days of failures without a success', () => {
    const t = 1_000_000_000_000;
    expect(shouldAutoDisable({}, t)).toBe(false);
    expect(shouldAutoDisable({ failingSinceAt: t }, t + AUTO_DISABLE_AFTER_MS - 1)).toBe(false);
    expect(shouldAutoDisable({ failingSinceAt: t }, t + AUTO_DISABLE_AFTER_MS)).toBe(true);
    expect(shouldAutoDisable({ failingSinceAt: t, lastSuccessAt: t + 1 }, t + AUTO_DISABLE_AFTER_MS)).toBe(
      false,
    );
  });
});

describe('delivery state machine in compressed time', () => {
  it('walks the whole schedule on a receiver that always fails, in hops of at most 15 minutes', async () => {
    const sim = setup();
    const { endpoint } = await createEndpoint(sim.deps, owner, {
      url: 'https://hooks.example.com/x',
      eventTypeFilters: ['vault.*'],
    });
    const event = await ingest(sim.deps);
    const dead = await sim.run(sim.clock.now() + AUTO_DISABLE_AFTER_MS - 60_000);
    const gaps = sim.attemptsAt.slice(1).map((at, i) => at - sim.attemptsAt[i]!);
    expect(sim.attemptsAt).toHaveLength(MAX_ATTEMPTS);
    expect(gaps[0]).toBe(INLINE_RETRY_PAUSE_MS);
    RETRY_SCHEDULE_MS.forEach((ms, i) => {
      expect(gaps[i + 1]).toBeGreaterThanOrEqual(ms * 0.8);
      expect(gaps[i + 1]).toBeLessThanOrEqual(ms * 1.2 + 1_000);
    });
    expect(sim.deliveries.maxDelaySeconds).toBe(900);
    const id = deliveryId(event.id, endpoint.id);
    expect(dead).toEqual([id]);
    const item = await getDelivery(sim.deps, id);
    expect(item).toMatchObject({ status: 'failed', failureReason: 'exhausted', attemptCount: MAX_ATTEMPTS });
    // Alone, about 3.5 days of failures is short of the five-day policy.
    expect((await loadEndpoint(sim.deps, owner.organizationId, endpoint.id)).enabled).toBe(true);
  });

  it.each([
    ['each message once', 1],
    ['every message twice at once (a duplicate delivered beside it)', 2],
  ])(
    'keeps every attempt in the history, with its status, latency and response body: %s',
    async (_, copies) => {
      const sim = setup();
      const { endpoint } = await createEndpoint(sim.deps, owner, {
        url: 'https://hooks.example.com/x',
        eventTypeFilters: ['vault.*'],
      });
      // Three failures (a status, a network error, a status), then a success: by the attempt the
      // delivery is at when the request goes out (a duplicate that lost the step answers for a later
      // one, and its record is dropped with its step).
      let made = 0;
      sim.options.send = async (input) => {
        made++;
        sim.attemptsAt.push(sim.clock.now());
        const at = await getDelivery(sim.deps, deliveryId(input.eventId, endpoint.id));
        const n = at!.attemptCount + 1;
        const common = { latencyMs: 10 + made, responseBody: `answer ${made}` };
        if (n === 2) return { kind: 'retry', errorKind: 'timeout', errorMessage: 'no answer', ...common };
        return n < 4
          ? { kind: 'retry', statusCode: 500 + n, ...common }
          : { kind: 'delivered', statusCode: 200, ...common };
      };
      const process = processAttempt;
      const duplicated: typeof processAttempt = async (deps, message, options, logger) => {
        const results = await Promise.all(
          Array.from({ length: copies }, () => process(deps, message, options, logger)),
        );
        return results.includes('dead_letter') ? 'dead_letter' : 'done';
      };
      const event = await ingest(sim.deps);
      await sim.run(sim.clock.now() + 60 * 60_000, duplicated);
      const id = deliveryId(event.id, endpoint.id);
      const { delivery, attempts } = await deliveryWithAttempts(sim.deps, id);
      expect(delivery).toMatchObject({ status: 'delivered', attemptCount: 4 });
      const sorted = [...attempts].sort((a, b) => a.attempt - b.attempt);
      expect(sorted.map((a) => [a.attempt, a.statusCode, a.errorKind])).toEqual([
        [1, 501, undefined],
        [2, undefined, 'timeout'],
        [3, 503, undefined],
        [4, 200, undefined],
      ]);
      // Each recorded attempt is the one that made the step: its latency and body are its own.
      for (const a of sorted) {
        expect(a.latencyMs).toBeGreaterThan(10);
        expect(a.responseBody).toMatch(/^answer \d+$/);
      }
      expect(new Set(sorted.map((a) => a.responseBody)).size).toBe(4);
      if (copies === 1)
        expect(sorted.map((a) => a.responseBody)).toEqual(['answer 1', 'answer 2', 'answer 3', 'answer 4']);
    },
  );

  it('disables an endpoint that fails for five days, publishes webhook.endpoint.disabled, and resumes once re-enabled', async () => {
    const sim = setup();
    const { endpoint } = await createEndpoint(sim.deps, owner, {
      url: 'https://hooks.example.com/y',
      eventTypeFilters: ['vault.*', 'webhook.*'],
    });
    await ingest(sim.deps);
    await sim.run(sim.clock.now() + 2 * 86_400_000);
    await ingest(sim.deps); // its retries run out at about day 5.5
    await sim.run();
    const disabled = await loadEndpoint(sim.deps, owner.organizationId, endpoint.id);
    expect(disabled.enabled).toBe(false);
    expect(disabled.disabledReason).toMatch(/Disabled automatically/);
    const disabledEvent = (
      await endpointDeliveryWindow(sim.deps, endpoint.id, { limit: 200, offset: 0 }, () => true)
    ).items.find((d) => d.eventType === 'webhook.endpoint.disabled');
    expect(disabledEvent).toMatchObject({ status: 'skipped_disabled' });
    expect(JSON.parse(disabledEvent!.body)).toMatchObject({ data: { endpointId: endpoint.id } });

    const whileDisabled = await ingest(sim.deps);
    await sim.run();
    expect((await getDelivery(sim.deps, deliveryId(whileDisabled.id, endpoint.id)))!.status).toBe(
      'skipped_disabled',
    );

    await setEndpointEnabled(sim.deps, owner.organizationId, endpoint.id, true);
    sim.setAnswer(() => ({ kind: 'delivered', statusCode: 200 }));
    const after = await ingest(sim.deps);
    await sim.run();
    expect((await getDelivery(sim.deps, deliveryId(after.id, endpoint.id)))!.status).toBe('delivered');
  });
});
