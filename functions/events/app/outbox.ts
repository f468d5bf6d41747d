// The events outbox. The Table port has no transactions, so a change and the events it emits are one
// conditional write: each pending event is an attribute of the changed item itself (`outbox_<event id>`),
// set by the same update that makes the change. A write whose condition fails stores no event. After
// the write the flusher publishes each pending event with its stable id and occurred_at, then removes
// it (conditional on that id still being there). A process that dies between the write and the
// publish leaves the event on the item, where a sweep finds and flushes it: delivery is at least once,
// and a re-flush publishes the same event id, which fan-out and receivers deduplicate on.
import { isoTime } from '../../platform/clock';
import { newId } from '../../platform/ids';
import type { Deps } from '../../platform/ports';
import type { OutboxEvent } from '../infra/repositories/outbox';
import { publishEvent, validateEventData } from './publish';

export type { OutboxEvent } from '../infra/repositories/outbox';
export {
  OUTBOX_PREFIX,
  outboxAttribute,
  outboxAttributes,
  outboxRemoval,
  pendingEvents,
} from '../infra/repositories/outbox';

/**
 * An event a change emits, given its id now. The data is checked against the catalog here, so an
 * event the catalog refuses fails the change instead of sitting in the outbox forever.
 */
export function outboxEvent(
  input: { organizationId: string; type: string; data: Record<string, unknown>; id?: string },
  now: number,
): OutboxEvent {
  return {
    id: input.id ?? newId('evt'),
    organizationId: input.organizationId,
    type: input.type,
    data: validateEventData(input.type, input.data),
    occurredAt: now,
  };
}

/**
 * Publishes each pending event, oldest first, and after each publish calls `acknowledge` (the owning
 * repository's conditional removal). A publish that fails stops the flush and throws: that event and
 * the ones after it stay pending for the next flush, so an item's events leave in order. Returns the
 * ids published.
 */
export async function flushOutbox(
  deps: Pick<Deps, 'queues' | 'clock'>,
  events: readonly OutboxEvent[],
  acknowledge: (event: OutboxEvent) => Promise<unknown>,
): Promise<string[]> {
  const published: string[] = [];
  for (const event of [...events].sort(
    (a, b) => a.occurredAt - b.occurredAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  )) {
    await publishEvent(deps, {
      id: event.id,
      organizationId: event.organizationId,
      type: event.type,
      data: event.data,
      occurredAt: event.occurredAt,
    });
    published.push(event.id);
    await acknowledge(event);
  }
  return published;
}

/** For logs: which events an item holds, without their data. */
export const describePending = (events: readonly OutboxEvent[]) =>
  events.map((event) => ({ id: event.id, type: event.type, occurred_at: isoTime(event.occurredAt) }));
