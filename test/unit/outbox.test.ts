// The events outbox's rules on the in-memory table and a capturing events queue: events ride in the
// changed item's own conditional write, leave oldest first with their stable id and occurred_at, are
// removed only after they were published, survive a publisher that dies, and never exist for a change
// whose write failed.
import { createLocalDeps } from '../../functions/compose/local';
import type { OutboxEvent } from '../../functions/events';
import {
  flushOutbox,
  outboxAttribute,
  outboxAttributes,
  outboxEvent,
  outboxRemoval,
  pendingEvents,
} from '../../functions/events';
import { ManualClock, isoTime } from '../../functions/platform/clock';
import { ConditionFailedError, InvalidRequestError, won } from '../../functions/platform/errors';
import type { Deps, Item, QueueMessage, Table } from '../../functions/platform/ports';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const ORG = 'org_aaaaaaaaaaaaaaaaaaaa';
const CONN = 'conn_aaaaaaaaaaaaaaaaaaaa';
const KEY = { pk: 'THING#1', sk: 'THING' };

const revoked = (now: number, purge = false) =>
  outboxEvent(
    {
      organizationId: ORG,
      type: 'connection.revoked',
      data: { connectionId: CONN, provider: 'google-drive', status: 'revoked', purge },
    },
    now,
  );

function setup() {
  const clock = new ManualClock(T0);
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
  const table: Table = local.tables.connectors;
  const acknowledge = (event: OutboxEvent) =>
    won(table.update(KEY, outboxRemoval(event.id).update, outboxRemoval(event.id).condition));
  const published = () =>
    sent.map((m) => JSON.parse(m.body) as { id: string; occurred_at: string; type: string });
  const item = () => table.get<Item>(KEY);
  return { clock, deps, table, acknowledge, published, item, failNextSends: (n: number) => (failSends = n) };
}

describe('an outbox event', () => {
  it('is checked against the catalog when the change is decided, not when it is flushed', () => {
    expect(() => outboxEvent({ organizationId: ORG, type: 'no.such.type', data: {} }, T0)).toThrow(
      InvalidRequestError,
    );
    expect(() =>
      outboxEvent({ organizationId: ORG, type: 'connection.revoked', data: { connectionId: CONN } }, T0),
    ).toThrow(InvalidRequestError);
  });

  it('has its id when it is created, and keeps the given one', () => {
    const a = revoked(T0);
    expect(a.id).toMatch(/^evt_[a-z2-7]{20}$/);
    expect(a.occurredAt).toBe(T0);
    const b = outboxEvent({ ...a, id: 'evt_bbbbbbbbbbbbbbbbbbbb' }, T0);
    expect(b.id).toBe('evt_bbbbbbbbbbbbbbbbbbbb');
  });

  it('is read back from the item oldest first, and only from outbox attributes', () => {
    const late = revoked(T0 + 5);
    const early = revoked(T0);
    const item = { ...KEY, status: 'revoked', outboxish: { id: 'x' }, ...outboxAttributes([late, early]) };
    expect(pendingEvents(item).map((e) => e.id)).toEqual([early.id, late.id]);
    expect(pendingEvents({ ...KEY })).toEqual([]);
    expect(pendingEvents(undefined)).toEqual([]);
  });
});

describe('flushing', () => {
  it('publishes each event with its stable id and the time of the change, then removes it', async () => {
    const { clock, deps, table, acknowledge, published, item } = setup();
    const first = revoked(T0);
    const second = revoked(T0 + 1, true);
    await table.put({ ...KEY, status: 'revoked', ...outboxAttributes([second, first]) });
    clock.advance(60_000); // flushed a minute after the change: occurred_at is still the change's time
    const ids = await flushOutbox(deps, pendingEvents(await item()), acknowledge);
    expect(ids).toEqual([first.id, second.id]);
    expect(published().map((e) => [e.id, e.occurred_at])).toEqual([
      [first.id, isoTime(T0)],
      [second.id, isoTime(T0 + 1)],
    ]);
    expect(pendingEvents(await item())).toEqual([]);
    expect((await item())?.status).toBe('revoked');
  });

  it('stops at a publish that fails: that event and the later ones stay, in order, for the next flush', async () => {
    const { deps, table, acknowledge, published, item, failNextSends } = setup();
    const events = [revoked(T0), revoked(T0 + 1), revoked(T0 + 2)];
    await table.put({ ...KEY, ...outboxAttributes(events) });
    let sends = 0;
    const counting = async (event: OutboxEvent) => {
      sends++;
      if (sends === 1) failNextSends(1); // the second publish fails
      return acknowledge(event);
    };
    await expect(flushOutbox(deps, pendingEvents(await item()), counting)).rejects.toThrow(
      'queue unavailable',
    );
    expect(published().map((e) => e.id)).toEqual([events[0]!.id]);
    expect(pendingEvents(await item()).map((e) => e.id)).toEqual([events[1]!.id, events[2]!.id]);
    await flushOutbox(deps, pendingEvents(await item()), acknowledge);
    expect(published().map((e) => e.id)).toEqual(events.map((e) => e.id));
    expect(pendingEvents(await item())).toEqual([]);
  });

  it('loses nothing when the process dies between the publish and the removal: the re-flush sends the same id', async () => {
    const { deps, table, acknowledge, published, item } = setup();
    const event = revoked(T0);
    await table.put({ ...KEY, ...outboxAttributes([event]) });
    const dies = async () => {
      throw new Error('process died');
    };
    await expect(flushOutbox(deps, pendingEvents(await item()), dies)).rejects.toThrow('process died');
    expect(pendingEvents(await item()).map((e) => e.id)).toEqual([event.id]);
    await flushOutbox(deps, pendingEvents(await item()), acknowledge);
    expect(published().map((e) => e.id)).toEqual([event.id, event.id]); // at least once, one id
    expect(pendingEvents(await item())).toEqual([]);
  });

  it('removes an event only where it is still held: a second flusher that read it too does not fail', async () => {
    const { deps, table, acknowledge, item } = setup();
    const event = revoked(T0);
    await table.put({ ...KEY, ...outboxAttributes([event]) });
    const read = pendingEvents(await item());
    await flushOutbox(deps, read, acknowledge);
    const removal = outboxRemoval(event.id);
    await expect(table.update(KEY, removal.update, removal.condition)).rejects.toThrow(ConditionFailedError);
    await expect(flushOutbox(deps, read, acknowledge)).resolves.toEqual([event.id]);
  });
});

describe('the write that carries the events', () => {
  it('stores no event when its condition fails', async () => {
    const { table, item } = setup();
    await table.put({ ...KEY, status: 'revoked' });
    const event = revoked(T0);
    await expect(
      table.update(
        KEY,
        { set: { status: 'revoked', ...outboxAttributes([event]) } },
        { attr: 'status', op: '<>', value: 'revoked' },
      ),
    ).rejects.toThrow(ConditionFailedError);
    expect(pendingEvents(await item())).toEqual([]);
    expect((await item())?.[outboxAttribute(event.id)]).toBeUndefined();
  });
});
