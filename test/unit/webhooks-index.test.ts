// The webhooks table's gsi1 holds the list fields only (platform/tables.ts, WEBHOOKS_LIST_ATTRIBUTES;
// the local table answers an index query with what the index holds, as DynamoDB does). The lists read
// from it must show exactly what the items themselves show: endpoints (a rotated secret, a disabled
// one, scopes, a description) and deliveries in every state an attempt leaves them (delivered,
// retrying with an error, failed), and a recover job must still find and replay what it should.
import { createLocalDeps } from '../../functions/compose/local';
import type { Principal } from '../../functions/directory/app/directory';
import { ManualClock } from '../../functions/platform/clock';
import { Logger } from '../../functions/platform/logger';
import { PERMISSIONS } from '../../functions/platform/permissions';
import type { Deps, Queue, QueueMessage } from '../../functions/platform/ports';
import type { DeliverOptions } from '../../functions/webhooks/app/deliver';
import { processAttempt } from '../../functions/webhooks/app/deliver';
import {
  createEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  setEndpointEnabled,
} from '../../functions/webhooks/app/endpoints';
import { fanOut } from '../../functions/webhooks/app/fan-out';
import { listDeliveries } from '../../functions/webhooks/app/history';
import { toDeliveryView } from '../../functions/webhooks/api/views';
import type { AttemptOutcome } from '../../functions/webhooks/domain/attempt';
import { deliveriesMessage } from '../../functions/webhooks/domain/messages';
import { deliveryId } from '../../functions/webhooks/domain/records';
import { endpointDeliveryPage, getDelivery } from '../../functions/webhooks/infra/repositories/deliveries';
import { TABLE_DEFINITIONS } from '../../functions/platform/tables';

const log = new Logger({}, 'error');
const owner: Principal = {
  organizationId: 'org_indexaaaaaaaaaaaaaaa',
  keyId: 'key_a',
  permissions: [...PERMISSIONS],
  system: false,
};

class HeldQueue implements Queue {
  readonly held: string[] = [];
  constructor(readonly name: string) {}
  async send(m: QueueMessage) {
    this.held.push(m.body);
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

async function setup() {
  const clock = new ManualClock(Date.parse('2026-04-01T00:00:00.000Z'));
  const local = createLocalDeps({ clock });
  const deliveries = new HeldQueue('deliveries');
  const deps: Deps = { ...local, queues: { ...local.queues, deliveries } };
  return { clock, deps, deliveries };
}

describe("the webhooks table's list index (gsi1, list fields only)", () => {
  it('projects the list fields, not the latest attempt nor the step bookkeeping', () => {
    const projected = TABLE_DEFINITIONS.webhooks.projections?.gsi1 ?? [];
    expect(projected).toEqual(expect.arrayContaining(['status', 'body', 'signingSecrets', 'cycle']));
    for (const left of ['lastAttempt', 'scheduledAttempt', 'strandedFrom', 'cycleStart', 'ttl'])
      expect(projected).not.toContain(left);
  });

  it('lists endpoints exactly as each one reads', async () => {
    const { clock, deps } = await setup();
    const plain = await createEndpoint(deps, owner, {
      url: 'https://a.example/hook',
      eventTypeFilters: ['matter.*'],
    });
    const scoped = await createEndpoint(deps, owner, {
      url: 'https://b.example/hook',
      eventTypeFilters: ['vault.ingest.completed'],
      resourceScopes: { vaultIds: ['vlt_1'] },
      description: 'scoped',
    });
    clock.advance(1_000);
    await rotateSecret(deps, owner.organizationId, scoped.endpoint.id);
    await setEndpointEnabled(deps, owner.organizationId, plain.endpoint.id, false);
    const listed = await listEndpoints(deps, owner.organizationId, { limit: 10, offset: 0 });
    const read = await Promise.all(
      [scoped, plain].map((e) => getEndpoint(deps, owner.organizationId, e.endpoint.id)),
    );
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect(listed.items.sort(byId)).toEqual([...read].sort(byId));
    expect(read[0]!.previousSecretExpiresAt).not.toBeNull();
    expect(read[1]!.disabledAt).not.toBeNull();
  });

  it('lists deliveries exactly as each one reads, in every state an attempt leaves, and the index copy holds no attempt record', async () => {
    const { clock, deps, deliveries } = await setup();
    const { endpoint } = await createEndpoint(deps, owner, {
      url: 'https://c.example/hook',
      eventTypeFilters: ['matter.*'],
    });
    const answers: AttemptOutcome[] = [
      { kind: 'delivered', statusCode: 204, latencyMs: 12, responseBody: '' },
      { kind: 'failed', statusCode: 400, latencyMs: 30, responseBody: 'x'.repeat(5_000) },
      { kind: 'retry', statusCode: 503, latencyMs: 40, responseBody: 'busy' },
      // then the inline retry's answer, a timeout (below)
    ];
    const options: DeliverOptions = {
      allowLoopback: true,
      random: () => 0.5,
      inlinePauseMs: 0,
      sleep: async () => {},
      send: async () =>
        answers.shift() ?? {
          kind: 'retry',
          errorKind: 'timeout',
          errorMessage: 'no answer',
          latencyMs: 15_000,
          responseBody: '',
        },
    };
    const events = ['evt_indexaaaaaaaaaaaaaa1', 'evt_indexaaaaaaaaaaaaaa2', 'evt_indexaaaaaaaaaaaaaa3'];
    for (const [i, id] of events.entries()) {
      clock.advance(1_000); // listed newest first
      await fanOut(
        deps,
        {
          id,
          organizationId: owner.organizationId,
          type: 'matter.created',
          occurred_at: `2026-04-01T00:00:0${i}.000Z`,
          data: { matterId: `mat_${i}`, name: `Matter ${i}` },
        },
        log,
      );
      const message = deliveriesMessage().parse(JSON.parse(deliveries.held.shift()!));
      if (message.kind === 'attempt') await processAttempt(deps, message, options, log);
    }
    const ids = events.map((id) => deliveryId(id, endpoint.id));
    const stored = await Promise.all(ids.map((id) => getDelivery(deps, id)));
    expect(stored.map((d) => d?.status)).toEqual(['delivered', 'failed', 'retrying']);
    const listed = await listDeliveries(deps, owner.organizationId, endpoint.id, { limit: 10, offset: 0 });
    expect(listed.items).toEqual([...stored].reverse().map((d) => toDeliveryView(d!)));
    const failedOnly = await listDeliveries(
      deps,
      owner.organizationId,
      endpoint.id,
      { limit: 10, offset: 0 },
      { status: 'failed' },
    );
    expect(failedOnly.items.map((d) => d.id)).toEqual([ids[1]]);

    const page = await endpointDeliveryPage(deps, endpoint.id, 10, undefined);
    expect(page.items).toHaveLength(3);
    for (const copy of page.items) {
      expect(copy).not.toHaveProperty('lastAttempt');
      expect(copy).not.toHaveProperty('scheduledAttempt');
    }
    expect(stored.every((d) => d!.lastAttempt !== undefined)).toBe(true);
    expect(stored[2]!.lastError).toMatch(/^timeout/);
  });
});
