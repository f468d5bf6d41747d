// At-least-once delivery and its history under crashes, on generated sequences (fast-check, fixed seed
// DELIVERY_CRASH_SEED, printed in the test's name and by fast-check on a failure). A sequence is the
// receiver's answers to successive POSTs, the points where a worker dies (before or after any write
// to the webhooks table and any send to a queue, fan-out's included: a death after a write means the
// write happened) and the messages SQS hands out twice. Each death makes the queue hand the message
// out again (receive count + 1): after its visibility timeout, as SQS does, or at once, as the local
// runtime does when it restarts on its journal (a message the dead process held is visible again at
// once). The events are fanned out by the fan-out worker's own handler, whose failed records come back
// after the visibility timeout.
//
// The invariant, after every message has been processed:
//  - the delivery is delivered (at least once);
//  - its history holds attempts 1..attemptCount, each exactly once (none lost, none twice);
//  - each attempt's record is the outcome of a POST that was really made (its status or error, its
//    latency, its body), and no two records are the same POST;
//  - every attempt record a write stored on the delivery (lastAttempt) is still in the history: moving
//    it to its own item before the next attempt replaces it never loses it.
// A POST whose worker died before its record was written is not in the history (the redelivered message
// makes that attempt again); receivers deduplicate on the event id.
import { jest } from '@jest/globals';
import fc from 'fast-check';
import { createLocalDeps } from '../../functions/compose/local';
import type { Principal } from '../../functions/directory/app/directory';
import { publishEvent } from '../../functions/events/app/publish';
import { ManualClock } from '../../functions/platform/clock';
import { Logger } from '../../functions/platform/logger';
import { PERMISSIONS } from '../../functions/platform/permissions';
import type { SQSRecord } from 'aws-lambda';
import type { Deps, Item, Key, Queue, QueueMessage, Table, Update } from '../../functions/platform/ports';
import type { DeliverOptions } from '../../functions/webhooks/app/deliver';
import { processAttempt, readMessage } from '../../functions/webhooks/app/deliver';
import { createEndpoint } from '../../functions/webhooks/app/endpoints';
import { QUEUE_WORKERS } from '../../functions/platform/workers';
import { create as fanOutWorker } from '../../functions/webhooks/api/handlers/fan-out';
import type { AttemptOutcome } from '../../functions/webhooks/domain/attempt';
import { deliveriesMessage } from '../../functions/webhooks/domain/messages';
import type { AttemptRecord } from '../../functions/webhooks/domain/records';
import { deliveryId } from '../../functions/webhooks/domain/records';
import { deliveryWithAttempts } from '../../functions/webhooks/infra/repositories/deliveries';

const SEED = Number(process.env.DELIVERY_CRASH_SEED ?? 20261127);
const log = new Logger({}, 'error');
const owner: Principal = {
  organizationId: 'org_crashaaaaaaaaaaaaaaa',
  keyId: 'key_a',
  permissions: [...PERMISSIONS],
  system: false,
};

type Answer = 'ok' | 'status500' | 'status429' | 'timeout';
interface Scenario {
  /** The receiver's answers to successive POSTs; every POST after them is answered 204. */
  answers: Answer[];
  /** Fallible operation number (table writes and queue sends, counted from the publish) -> death. */
  crashes: Map<number, 'before' | 'after'>;
  /** Numbers of handed-out messages that SQS hands out a second time (a copy, first receive). */
  duplicates: Set<number>;
  /** When a dead worker's message is handed out again: after its visibility timeout, or at once. */
  handBack: 'after the visibility timeout' | 'at once';
}

const visibilityMs = (queue: 'events' | 'deliveries') => QUEUE_WORKERS[queue].visibilityTimeoutSeconds * 1000;

class Crash extends Error {}

/** Counts fallible operations; dies at the scenario's points, before or after the operation. */
class Faults {
  private n = 0;
  /** A death since the driver last looked (a handler that catches the Crash has still died). */
  died = false;
  constructor(private readonly crashes: Map<number, 'before' | 'after'>) {}
  async run<T>(operation: () => Promise<T>): Promise<T> {
    const at = this.crashes.get(this.n++);
    if (at === 'before') this.die(`died before operation ${this.n - 1}`);
    const result = await operation();
    if (at === 'after') this.die(`died after operation ${this.n - 1}`);
    return result;
  }
  private die(message: string): never {
    this.died = true;
    throw new Crash(message);
  }
}

/** The webhooks table, dying where the scenario says; notes every attempt record written on a delivery. */
function fallibleTable(table: Table, faults: Faults, written: Set<string>): Table {
  return {
    name: table.name,
    get: (key) => table.get(key),
    getMany: (keys) => table.getMany(keys),
    query: (query) => table.query(query),
    put: (item, condition) => faults.run(() => table.put(item, condition)),
    delete: (key, condition) => faults.run(() => table.delete(key, condition)),
    update: <T extends Item = Item>(key: Key, update: Update, condition?: Parameters<Table['update']>[2]) =>
      faults.run(async () => {
        const updated = await table.update<T>(key, update, condition);
        const record = update.set?.lastAttempt as AttemptRecord | undefined;
        if (record) written.add(record.responseBody);
        return updated;
      }),
  };
}

interface Handed {
  queue: 'events' | 'deliveries';
  body: string;
  visibleAt: number;
  receiveCount: number;
}

/** A queue whose sends die where the scenario says, holding what it was sent for the driver. */
class SimulatedQueue implements Queue {
  constructor(
    readonly name: 'events' | 'deliveries',
    private readonly clock: ManualClock,
    private readonly faults: Faults,
    private readonly held: Handed[],
  ) {}
  send(m: QueueMessage) {
    return this.faults.run(async () => this.hold(m));
  }
  sendBatch(ms: QueueMessage[]) {
    return this.faults.run(async () => ms.forEach((m) => this.hold(m)));
  }
  private hold(m: QueueMessage) {
    const visibleAt = this.clock.now() + (m.delaySeconds ?? 0) * 1000;
    this.held.push({ queue: this.name, body: m.body, visibleAt, receiveCount: 0 });
  }
  async listDeadLetters() {
    return [];
  }
  async maxReceiveCount() {
    return undefined;
  }
}

const outcomeOf = (answer: Answer, post: number): AttemptOutcome => {
  const common = { latencyMs: 5 + post, responseBody: `post-${post}` };
  switch (answer) {
    case 'ok':
      return { kind: 'delivered', statusCode: 204, ...common };
    case 'status500':
      return { kind: 'retry', statusCode: 500, ...common };
    case 'status429':
      return { kind: 'retry', statusCode: 429, retryAfterSeconds: 90, ...common };
    case 'timeout':
      return { kind: 'retry', errorKind: 'timeout', errorMessage: 'no answer within 15 s', ...common };
  }
};

async function run(scenario: Scenario) {
  const clock = new ManualClock(Date.parse('2026-03-01T00:00:00.000Z'));
  const local = createLocalDeps({ clock });
  const endpoint = await createEndpoint(local, owner, {
    url: 'https://receiver.example/hook',
    eventTypeFilters: ['matter.*'],
  });
  const faults = new Faults(scenario.crashes);
  const written = new Set<string>();
  const held: Handed[] = [];
  const deps: Deps = {
    ...local,
    tables: { ...local.tables, webhooks: fallibleTable(local.tables.webhooks, faults, written) },
    queues: {
      ...local.queues,
      events: new SimulatedQueue('events', clock, faults, held),
      deliveries: new SimulatedQueue('deliveries', clock, faults, held),
    },
  };
  const posts: AttemptOutcome[] = [];
  const options: DeliverOptions = {
    allowLoopback: true,
    random: () => 0.5,
    sleep: async (ms) => clock.advance(ms),
    send: async () => {
      clock.advance(1);
      const outcome = outcomeOf(scenario.answers[posts.length] ?? 'ok', posts.length);
      posts.push(outcome);
      return outcome;
    },
  };
  // The publisher retries, with the event's id, until its send has answered (a death after the send
  // has put it on the queue already: the same id is then queued twice, which fan-out absorbs).
  let event: { id: string } | undefined;
  while (!event) {
    event = await publishEvent(deps, {
      id: 'evt_crashaaaaaaaaaaaaaaa',
      organizationId: owner.organizationId,
      type: 'matter.created',
      data: { matterId: 'mat_1', name: 'Matter 1' },
    }).catch((error: unknown) => {
      if (error instanceof Crash) return undefined;
      throw error;
    });
  }
  const fanOutHandler = fanOutWorker(deps);
  let handedOut = 0;
  for (let steps = 0; held.length; steps++) {
    if (steps > 500) throw new Error('the messages never settled');
    const next = held.sort((a, b) => a.visibleAt - b.visibleAt).shift()!;
    if (next.visibleAt > clock.now()) clock.set(next.visibleAt);
    const handed = { ...next, receiveCount: next.receiveCount + 1 };
    if (scenario.duplicates.has(handedOut++))
      held.push({ ...next, receiveCount: 0, visibleAt: clock.now() + 1_000 });
    // A dead worker's message is handed out again after its visibility timeout, or at once.
    const died = () => {
      const after = scenario.handBack === 'at once' ? 0 : visibilityMs(handed.queue);
      held.push({ ...handed, visibleAt: clock.now() + after });
    };
    faults.died = false;
    try {
      if (handed.queue === 'events') {
        const { batchItemFailures } = await fanOutHandler({
          Records: [
            {
              messageId: `m${handedOut}`,
              body: handed.body,
              attributes: { ApproximateReceiveCount: String(handed.receiveCount) },
            } as SQSRecord,
          ],
        });
        // A record reported failed (a delivery it cannot yet tell apart) is visible again after the
        // visibility timeout.
        if (faults.died) died();
        else if (batchItemFailures.length)
          held.push({ ...handed, visibleAt: clock.now() + visibilityMs('events') });
        continue;
      }
      const message = deliveriesMessage().parse(JSON.parse(handed.body));
      if (message.kind !== 'attempt') continue;
      // As the worker does: only a first receive takes the delivery its message carries.
      await processAttempt(deps, handed.receiveCount <= 1 ? message : readMessage(message), options, log);
    } catch (error) {
      if (!(error instanceof Crash)) throw error;
      died();
    }
  }
  return { deps: local, posts, written, endpointId: endpoint.endpoint.id, eventId: event.id };
}

const scenarios = fc.record({
  answers: fc.array(fc.constantFrom<Answer>('ok', 'status500', 'status429', 'timeout'), { maxLength: 5 }),
  crashes: fc
    .array(fc.tuple(fc.nat(40), fc.constantFrom<'before' | 'after'>('before', 'after')), { maxLength: 6 })
    .map((points) => new Map(points)),
  duplicates: fc.array(fc.nat(12), { maxLength: 3 }).map((n) => new Set(n)),
  handBack: fc.constantFrom<Scenario['handBack']>('after the visibility timeout', 'at once'),
});

describe('a delivery under crashes at any point and duplicate messages', () => {
  // The fan-out handler logs each record (and each death) on the process's sink: not read here.
  beforeEach(() => {
    for (const stream of [process.stdout, process.stderr])
      jest.spyOn(stream, 'write').mockImplementation(() => true);
  });
  afterEach(() => jest.restoreAllMocks());

  it(`is delivered, its history holding each attempt once, as its POST came out (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(scenarios, async (scenario) => {
        const { deps, posts, written, endpointId, eventId } = await run(scenario);
        const { delivery, attempts } = await deliveryWithAttempts(deps, deliveryId(eventId, endpointId));
        expect(delivery?.status).toBe('delivered');
        const numbers = attempts.map((a) => a.attempt).sort((a, b) => a - b);
        expect(numbers).toEqual(Array.from({ length: delivery!.attemptCount }, (_, i) => i + 1));
        const bodies = attempts.map((a) => a.responseBody);
        expect(new Set(bodies).size).toBe(bodies.length);
        for (const record of attempts) {
          const post = posts[Number(record.responseBody.replace('post-', ''))];
          expect(post).toBeDefined();
          expect({
            outcome: record.outcome,
            statusCode: record.statusCode,
            errorKind: record.errorKind,
            latencyMs: record.latencyMs,
          }).toEqual({
            outcome: post!.kind,
            statusCode: post!.statusCode,
            errorKind: post!.errorKind,
            latencyMs: post!.latencyMs,
          });
        }
        for (const body of written) expect(bodies).toContain(body);
      }),
      { seed: SEED, numRuns: 150 },
    );
  }, 120_000);
});
