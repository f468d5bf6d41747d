// How platform services publish an event: give it an id and a timestamp and put it on the events
// queue. The fan-out worker matches it to endpoints; the webhooks area owns the catalog and its checks.
import { isoTime } from '../platform/clock';
import type { Deps } from '../platform/deps';
import { newId } from '../platform/ids';

export interface PublishedEvent {
  id: string;
  organizationId: string;
  type: string;
  /** ISO 8601 UTC with milliseconds. */
  occurred_at: string;
  data: Record<string, unknown>;
}

export async function publishEvent(
  deps: Pick<Deps, 'queues' | 'clock'>,
  input: { organizationId: string; type: string; data: Record<string, unknown> },
): Promise<PublishedEvent> {
  const event: PublishedEvent = {
    id: newId('evt'),
    organizationId: input.organizationId,
    type: input.type,
    occurred_at: isoTime(deps.clock.now()),
    data: input.data,
  };
  await deps.queues.events.send({ body: JSON.stringify(event) });
  return event;
}
