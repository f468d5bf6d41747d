// How the outbox is stored (../../app/outbox.ts says why): each pending event is an attribute of the
// changed item itself, `outbox_<event id>`, set by the change's own conditional write and removed
// conditionally once published. The owning area's repositories use these to shape their writes.
import type { Condition, Update } from '../../../platform/ports';

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
