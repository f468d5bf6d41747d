// One attempt step on the local adapters with an injected clock: what an attempt records, and what a warm
// worker keeps between attempts (the endpoint for a few seconds, opened secrets per secret version).
import { createLocalDeps } from '../../functions/compose/local';
import type { Principal } from '../../functions/directory/app/directory';
import { Directory } from '../../functions/directory/app/directory';
import { directoryRepositories } from '../../functions/directory/infra/repositories';
import type { DeliverOptions } from '../../functions/webhooks/app/deliver';
import { processAttempt } from '../../functions/webhooks/app/deliver';
import { FIRST_MESSAGE_LOST_AFTER_MS, fanOut } from '../../functions/webhooks/app/fan-out';
import type { AttemptMessage } from '../../functions/webhooks/domain/messages';
import { attemptMessage } from '../../functions/webhooks/domain/messages';
import { deliveryId } from '../../functions/webhooks/domain/records';
import type { SendInput } from '../../functions/webhooks/infra/send';
import { receiverBody, webhookEventSchema } from '../../functions/events/domain/event';
import { publishEvent } from '../../functions/events/app/publish';
import { ManualClock, isoTime } from '../../functions/platform/clock';
import type { Deps } from '../../functions/platform/ports';
import { Logger } from '../../functions/platform/logger';
import { PERMISSIONS } from '../../functions/platform/permissions';
import type { QueueMessage, Table } from '../../functions/platform/ports';
import {
  ENDPOINT_CACHE_TTL_MS,
  cacheEndpoint,
  cacheEpoch,
  cachedEndpoint,
  forgetEndpoint,
} from '../../functions/webhooks/app/endpoint-cache';
import {
  createEndpoint,
  loadEndpoint,
  rotateSecret,
  setEndpointEnabled,
} from '../../functions/webhooks/app/endpoints';
import { deliveryWithAttempts, getDelivery } from '../../functions/webhooks/infra/repositories/deliveries';

const log = new Logger({}, 'error');
const owner: Principal = {
  organizationId: 'org_bbbbbbbbbbbbbbbbbbbb',
  keyId: 'key_b',
  permissions: [...PERMISSIONS],
  system: false,
};

function setup() {
  const clock = new ManualClock(Date.parse('2026-03-01T00:00:00.000Z'));
  const local = createLocalDeps({ clock });
  const sent: QueueMessage[] = [];
  const queue = (name: string) => ({
    name,
    send: async (m: QueueMessage) => void sent.push(m),
    sendBatch: async (ms: QueueMessage[]) => void sent.push(...ms),
    listDeadLetters: async () => [],
    maxReceiveCount: async () => undefined,
  });
  let decrypts = 0;
  const keys = {
    generateDataKey: (context: Record<string, string>) => local.keys.generateDataKey(context),
    decryptDataKey: (ciphertext: Buffer, context: Record<string, string>) => {
      decrypts++;
      return local.keys.decryptDataKey(ciphertext, context);
    },
  };
  const deps: Deps = {
    ...local,
    keys,
    queues: { ...local.queues, events: queue('events'), deliveries: queue('deliveries') },
  };
  const sends: SendInput[] = [];
  const options: DeliverOptions = {
    allowLoopback: true,
    send: async (input) => {
      sends.push(input);
      clock.advance(3_000); // the receiver takes three seconds to answer
      return { kind: 'delivered', statusCode: 204, latencyMs: 3_000, responseBody: '' };
    },
  };
  /** Publishes an event and runs fan-out; returns the first attempt message of each delivery. */
  async function publish(): Promise<AttemptMessage[]> {
    await publishEvent(deps, {
      organizationId: owner.organizationId,
      type: 'matter.created',
      data: { matterId: 'mat_1', name: 'M' },
    });
    const eventBody = sent.splice(0).find((m) => m.body.includes('"organizationId"'))!.body;
    await fanOut(deps, webhookEventSchema().parse(JSON.parse(eventBody)), log);
    return sent.splice(0).map((m) => attemptMessage().parse(JSON.parse(m.body)));
  }
  const deliver = async () => {
    for (const message of await publish()) await processAttempt(deps, message, options, log);
  };
  return { clock, deps, sent, sends, options, publish, deliver, decrypts: () => decrypts };
}

const endpointInput = { url: 'https://hooks.example.com/in', eventTypeFilters: ['matter.*'] };

describe('a delivery attempt', () => {
  it('records attemptedAt as the moment the attempt began, and sends the stored body as is', async () => {
    const sim = setup();
    const { endpoint } = await createEndpoint(sim.deps, owner, endpointInput);
    const started = sim.clock.now();
    const [message] = await sim.publish();
    await processAttempt(sim.deps, message!, sim.options, log);
    const attempt = (await deliveryWithAttempts(sim.deps, message!.deliveryId)).attempts.find(
      (a) => a.attempt === 1,
    );
    expect(attempt).toMatchObject({ attemptedAt: started, latencyMs: 3_000, outcome: 'delivered' });
    const delivery = await getDelivery(sim.deps, message!.deliveryId);
    expect(delivery).toMatchObject({
      lastAttemptAt: started,
      deliveredAt: started + 3_000,
    });
    expect(sim.sends[0]!.body).toBe(delivery!.body);
    expect(JSON.parse(delivery!.body)).toEqual({
      id: delivery!.eventId,
      type: 'matter.created',
      occurred_at: isoTime(started),
      data: { matterId: 'mat_1', name: 'M' },
    });
    expect(delivery!.body).toBe(receiverBody(JSON.parse(delivery!.body)));
    expect(message!.deliveryId).toBe(deliveryId(delivery!.eventId, endpoint.id));
  });
});

describe("a delivery's latest attempt", () => {
  it('is kept on the delivery less what the delivery says, and read back whole, as is the one it moved', async () => {
    const sim = setup();
    await createEndpoint(sim.deps, owner, endpointInput);
    const [message] = await sim.publish();
    const made: unknown[] = [];
    let calls = 0;
    const options: DeliverOptions = {
      allowLoopback: true,
      send: async (input) => {
        calls++;
        const outcome = {
          ...(calls === 1
            ? { kind: 'retry' as const, statusCode: 503, responseBody: 'busy' }
            : { kind: 'delivered' as const, statusCode: 204, responseBody: '' }),
          latencyMs: 40 + calls,
          requestHeaders: {
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(input.body)),
            'user-agent': 'ConnectorEventService-Webhooks/1.0',
            'webhook-id': input.eventId,
            'webhook-timestamp': String(input.timestampSeconds),
            'webhook-signature': 'v1,…',
          },
          responseHeaders: { date: 'Sun, 01 Mar 2026 00:00:00 GMT', 'x-attempt': String(calls) },
        };
        made.push({
          attempt: calls,
          attemptedAt: sim.clock.now(),
          outcome: outcome.kind,
          statusCode: outcome.statusCode,
          latencyMs: outcome.latencyMs,
          responseBody: outcome.responseBody,
          requestHeaders: outcome.requestHeaders,
          responseHeaders: outcome.responseHeaders,
        });
        return outcome;
      },
    };
    await processAttempt(sim.deps, message!, options, log);
    const stored = await sim.deps.tables.webhooks.get<Record<string, unknown> & { pk: string; sk: string }>({
      pk: `DLV#${message!.deliveryId}`,
      sk: 'DELIVERY',
    });
    const kept = stored!.lastAttempt as Record<string, unknown>;
    expect(kept).not.toHaveProperty('deliveryId');
    expect(kept).not.toHaveProperty('attemptedAt');
    expect(kept.requestHeaders).toEqual({
      'user-agent': 'ConnectorEventService-Webhooks/1.0',
      'webhook-timestamp': expect.any(String),
      'webhook-signature': 'v1,…',
    });
    // The 503 was retried at once: the first attempt moved to a record of its own, the second is kept
    // on the delivery; both read back as they were made.
    expect(calls).toBe(2);
    const both = await deliveryWithAttempts(sim.deps, message!.deliveryId);
    expect(both.attempts.sort((a, b) => a.attempt - b.attempt)).toEqual(
      made.map((record) =>
        expect.objectContaining({ deliveryId: message!.deliveryId, cycle: 0, ...(record as object) }),
      ),
    );
    for (const attempt of both.attempts)
      expect(attempt.ttl).toBe(Math.ceil(attempt.attemptedAt / 1000) + 30 * 24 * 60 * 60);
  });
});

describe('an event fanned out twice', () => {
  it('queues its first attempt once when both fan-outs run together, and again once the first could have died or on the last receive', async () => {
    const sim = setup();
    await createEndpoint(sim.deps, owner, endpointInput);
    // The event's own message, as the outbox's flusher and its sweep may both publish it.
    await publishEvent(sim.deps, {
      organizationId: owner.organizationId,
      type: 'matter.created',
      data: { matterId: 'mat_1', name: 'M' },
    });
    const event = webhookEventSchema().parse(
      JSON.parse(sim.sent.splice(0).find((m) => m.body.includes('"organizationId"'))!.body),
    );
    expect(await fanOut(sim.deps, event, log)).toMatchObject({ queued: 1, alreadyDone: 0 });
    sim.clock.advance(57);
    // The first fan-out's message is in flight (a second send would be a second POST of the event), or
    // died with it: unsettled, for the event's message to be looked at again, not done.
    expect(await fanOut(sim.deps, event, log)).toMatchObject({ queued: 0, alreadyDone: 0, unsettled: 1 });
    expect(sim.sent.splice(0)).toHaveLength(1);
    // On the event message's last receive, a possible duplicate rather than a loss.
    expect(await fanOut(sim.deps, event, log, { lastReceive: true })).toMatchObject({
      queued: 1,
      unsettled: 0,
    });
    expect(sim.sent.splice(0)).toHaveLength(1);
    // Still no attempt once a fan-out can no longer be running: its message is taken for lost.
    sim.clock.advance(FIRST_MESSAGE_LOST_AFTER_MS);
    expect(await fanOut(sim.deps, event, log)).toMatchObject({ queued: 1, alreadyDone: 0, unsettled: 0 });
    expect(sim.sent.splice(0)).toHaveLength(1);
  });
});

describe('a warm worker', () => {
  it('opens the signing secret once and signs every later attempt from memory', async () => {
    const sim = setup();
    const { signingSecret } = await createEndpoint(sim.deps, owner, endpointInput);
    for (let i = 0; i < 3; i++) await sim.deliver();
    expect(sim.sends.map((s) => s.secrets)).toEqual(Array(3).fill([signingSecret]));
    expect(sim.decrypts()).toBe(1);
  });

  it('signs with the new and the old secret on the attempt right after a rotation in this process', async () => {
    const sim = setup();
    const { endpoint, signingSecret: old } = await createEndpoint(sim.deps, owner, endpointInput);
    await sim.deliver();
    const { signingSecret: rotated } = await rotateSecret(sim.deps, owner.organizationId, endpoint.id);
    await sim.deliver();
    expect(sim.sends.map((s) => s.secrets)).toEqual([[old], [rotated, old]]);
  });

  it('keeps every rotated-out secret signing for its whole window, however often it rotates', async () => {
    const sim = setup();
    const { endpoint, signingSecret: first } = await createEndpoint(sim.deps, owner, endpointInput);
    const secrets = [first];
    for (let i = 0; i < 3; i++) {
      sim.clock.advance(60 * 60_000); // three rotations within 24 hours
      secrets.unshift((await rotateSecret(sim.deps, owner.organizationId, endpoint.id)).signingSecret);
    }
    sim.clock.advance(10_000); // past the endpoint cache's TTL
    await sim.deliver();
    expect(sim.sends.at(-1)!.secrets).toEqual(secrets);
    sim.clock.advance(22 * 60 * 60_000); // the first one's 24 hours are over; the others' are not
    await sim.deliver();
    expect(sim.sends.at(-1)!.secrets).toEqual(secrets.slice(0, 3));
  });

  it('refuses a rotation that would make more than five secrets sign at once (409)', async () => {
    const sim = setup();
    const { endpoint } = await createEndpoint(sim.deps, owner, endpointInput);
    for (let i = 0; i < 4; i++) await rotateSecret(sim.deps, owner.organizationId, endpoint.id);
    await expect(rotateSecret(sim.deps, owner.organizationId, endpoint.id)).rejects.toThrow(
      /6 secrets would sign at once/,
    );
  });

  it('stops delivering at once when the endpoint is disabled in this process', async () => {
    const sim = setup();
    const { endpoint } = await createEndpoint(sim.deps, owner, endpointInput);
    await sim.deliver(); // the endpoint is now in this worker's memory
    const [message] = await sim.publish();
    await setEndpointEnabled(sim.deps, owner.organizationId, endpoint.id, false);
    await processAttempt(sim.deps, message!, sim.options, log);
    expect(sim.sends).toHaveLength(1);
    const delivery = await getDelivery(sim.deps, message!.deliveryId);
    expect(delivery!.status).toBe('skipped_disabled');
  });

  it('sees a rotation and a disable made by another process once the endpoint TTL has passed', async () => {
    const sim = setup();
    const { endpoint, signingSecret: old } = await createEndpoint(sim.deps, owner, endpointInput);
    // Another process: the same table behind another object, so none of this worker's memory.
    const elsewhere: Deps = {
      ...sim.deps,
      tables: { ...sim.deps.tables, webhooks: Object.create(sim.deps.tables.webhooks) as Table },
    };
    await sim.deliver();
    const { signingSecret: rotated } = await rotateSecret(elsewhere, owner.organizationId, endpoint.id);
    sim.clock.advance(ENDPOINT_CACHE_TTL_MS - 3_001); // the attempt above took 3 s of the TTL
    await sim.deliver(); // still within the TTL: the endpoint as this worker read it
    sim.clock.advance(ENDPOINT_CACHE_TTL_MS);
    await sim.deliver();
    expect(sim.sends.map((s) => s.secrets)).toEqual([[old], [old], [rotated, old]]);

    const [message] = await sim.publish();
    await setEndpointEnabled(elsewhere, owner.organizationId, endpoint.id, false);
    sim.clock.advance(ENDPOINT_CACHE_TTL_MS);
    await processAttempt(sim.deps, message!, sim.options, log);
    expect(sim.sends).toHaveLength(3);
  });

  it('does not keep an endpoint read that began before a write in this process', async () => {
    const sim = setup();
    const { endpoint } = await createEndpoint(sim.deps, owner, endpointInput);
    const table = sim.deps.tables.webhooks;
    const epoch = cacheEpoch(table);
    const read = await loadEndpoint(sim.deps, owner.organizationId, endpoint.id);
    forgetEndpoint(table, owner.organizationId, endpoint.id); // a write landed while the read was out
    cacheEndpoint(table, read, sim.clock.now(), epoch);
    expect(cachedEndpoint(table, endpoint.id, sim.clock.now())).toBeUndefined();
    cacheEndpoint(table, read, sim.clock.now(), cacheEpoch(table));
    expect(cachedEndpoint(table, endpoint.id, sim.clock.now())).toEqual(read);
  });
});

describe('whose permissions bound an endpoint', () => {
  it('keeps the permissions of the key that last set its filters, also after that key is revoked', async () => {
    const sim = setup();
    const directory = new Directory(directoryRepositories(sim.deps), sim.clock);
    const org = await directory.createOrganization('Bound firm');
    const { key } = await directory.createApiKey({
      organizationId: org.id,
      name: 'matters only',
      permissions: ['webhooks:write', 'matters:read'],
    });
    const keyOwner: Principal = {
      organizationId: org.id,
      keyId: key.id,
      permissions: key.permissions,
      system: false,
    };
    await createEndpoint(sim.deps, keyOwner, {
      url: 'https://hooks.example.com/bound',
      eventTypeFilters: ['*'],
    });
    await directory.revokeApiKey(key.id);
    const matter = { organizationId: org.id, type: 'matter.created', data: { matterId: 'm', name: 'M' } };
    const vault = {
      organizationId: org.id,
      type: 'vault.ingest.completed',
      data: { vaultId: 'v', objectId: 'o', durationMs: 1, chunkCount: 1 },
    };
    const fannedOut = async (input: typeof matter | typeof vault) => {
      const event = await publishEvent(sim.deps, input);
      return (await fanOut(sim.deps, event, log)).queued;
    };
    // The organization's endpoint keeps receiving what its filters allowed when they were set
    // (matters), and still nothing the key could not read (vaults): docs/decisions.md.
    expect(await fannedOut(matter)).toBe(1);
    expect(await fannedOut(vault)).toBe(0);
  });
});
