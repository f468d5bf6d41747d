// The endpoint's outbox (functions/events' outbox): the events an endpoint change emits are written
// into the endpoint item by the same conditional write as the change, published right after it, and
// taken off one by one. A crash in between leaves them on the item; the next worker that reads the
// endpoint fresh (the delivery worker, including the crashed step's message on its redelivery)
// publishes them, with the same event id.
import { flushOutbox, pendingEvents } from '../../events';
import type { OutboxEvent } from '../../events';
import type { Deps } from '../../platform/ports';
import type { EndpointItem } from '../domain/endpoint';
import { removeOutboxEvent } from '../infra/repositories/endpoints';

/** The events of its changes the endpoint as read still holds, oldest first. */
export const endpointPendingEvents = (endpoint: EndpointItem): OutboxEvent[] =>
  pendingEvents(endpoint as unknown as Record<string, unknown>);

export const hasPendingEvents = (endpoint: EndpointItem): boolean =>
  endpointPendingEvents(endpoint).length > 0;

/** Publishes the endpoint's pending events, oldest first, taking each off after its publish. */
export async function flushEndpointOutbox(
  deps: Pick<Deps, 'tables' | 'queues' | 'clock'>,
  endpoint: EndpointItem,
): Promise<void> {
  const events = endpointPendingEvents(endpoint);
  if (events.length) await flushOutbox(deps, events, (event) => removeOutboxEvent(deps, endpoint, event.id));
}
