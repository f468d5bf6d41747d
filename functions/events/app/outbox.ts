// The events outbox. The Table port has no transactions, so a change and the events it emits are one
// conditional write: each pending event is an attribute of the changed item itself (`outbox_<event id>`),
// set by the same update that makes the change. A write whose condition fails stores no event. After
// the write the flusher publishes each pending event with its stable id and occurred_at, then removes
// it (conditional on that id still being there). A process that dies between the write and the
// publish leaves the event on the item, where a sweep finds and flushes it: delivery is at least once,
// and a re-flush publishes the same event id, which fan-out and receivers deduplicate on.
import { isoTime } from '../../platform/clock';
import { newId } from '../../platform/ids';
import type { Condition, Deps, Update } from '../../platform/ports';
import { publishEvent, validateEventData } from './publish';

/** The prefix of the item attributes that hold pending events. */
export const OUTBOX_PREFIX = 'outbox_';

export interface OutboxEvent {
  id: string;
  organizationId: string;
  type: string;
  data: Record<string, unknown>;
  /** Epoch ms of the change that emitted it: published as occurred_at, the same on every flush. */
  occurredAt: number;
}

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

export const outboxAttribute = (eventId: string): string => `${OUTBOX_PREFIX}${eventId}`;

/** The attributes the change's own write sets to hold its events. */
export function outboxAttributes(events: readonly OutboxEvent[]): Record<string, OutboxEvent> {
  return Object.fromEntries(events.map((event) => [outboxAttribute(event.id), event]));
}

/** The events an item still holds, oldest first (ties by id, so every flusher takes the same order). */
export function pendingEvents(item: Record<string, unknown> | undefined): OutboxEvent[] {
  if (!item) return [];
  return Object.entries(item)
    .filter(([name, value]) => name.startsWith(OUTBOX_PREFIX) && typeof value === 'object' && value)
    .map(([, value]) => value as OutboxEvent)
    .sort((a, b) => a.occurredAt - b.occurredAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * The write that takes a published event off its item: only while the item still holds it (a
 * concurrent flusher that removed it first wins; the event was published either way).
 */
export function outboxRemoval(eventId: string): { update: Update; condition: Condition } {
  const attr = outboxAttribute(eventId);
  return { update: { remove: [attr] }, condition: { attr, exists: true } };
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
