// The endpoint's outbox: events an endpoint change emits are written into the endpoint item by the
// same conditional write as the change (infra/repositories/endpoints.ts), then published here and
// cleared. Published right after the write; a crash before that leaves them in the item, and the next
// worker that reads the endpoint fresh (the delivery worker, including the crashed step's message on
// its redelivery) publishes them. An event is published only for a change that was written, and a
// second publication carries the same event id, which fan-out delivers once per endpoint.
import type { PublishInput } from '../../events';
import { publishEvent, validateEventData } from '../../events';
import { newId } from '../../platform/ids';
import type { Deps } from '../../platform/ports';
import type { EndpointItem, OutboxEvent } from '../domain/endpoint';
import { clearOutbox } from '../infra/repositories/endpoints';

/** An event for an endpoint's outbox: checked against the catalog now, so its publication cannot fail on it. */
export function outboxEvent(type: string, data: Record<string, unknown>): OutboxEvent {
  return { id: newId('evt'), type, data: validateEventData(type, data) };
}

export const hasPendingEvents = (endpoint: EndpointItem): boolean =>
  !!endpoint.outboxToken && !!endpoint.outbox?.length;

/** Publishes the endpoint's pending events, then clears them (unless a newer change replaced them). */
export async function flushOutbox(
  deps: Pick<Deps, 'tables' | 'queues' | 'clock'>,
  endpoint: EndpointItem,
): Promise<void> {
  if (!hasPendingEvents(endpoint)) return;
  for (const event of endpoint.outbox!) {
    const input: PublishInput = { organizationId: endpoint.organizationId, ...event };
    await publishEvent(deps, input);
  }
  await clearOutbox(deps, endpoint, endpoint.outboxToken!);
}
