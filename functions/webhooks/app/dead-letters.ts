// What the queues gave up on, as far as it concerns one organization: the events and delivery steps
// that reached a dead-letter queue (the local runtime's dead letters, or the SQS DLQs). Only ids and
// counts are shown, never an event's data; an operator redrives them (docs/runbook.md), or the
// deliveries they stranded are recovered with POST /webhooks/v1/endpoints/{id}/recover.
import { webhookEventSchema } from '../../events';
import { isoTime } from '../../platform/clock';
import type { DeadLetter, Deps } from '../../platform/ports';
import { deliveriesMessage } from '../domain/messages';
import { getDelivery } from '../infra/repositories/deliveries';
import type { DeadLetterView } from '../api/views';

export type { DeadLetterView } from '../api/views';

const parse = (body: string): unknown => {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
};

const base = (letter: DeadLetter) => ({
  id: letter.id,
  receiveCount: letter.receiveCount,
  deadAt: isoTime(letter.deadAt),
  eventId: null,
  eventType: null,
  deliveryId: null,
  endpointId: null,
  jobId: null,
});

function eventLetter(letter: DeadLetter, organizationId: string): DeadLetterView | undefined {
  const event = webhookEventSchema().safeParse(parse(letter.body));
  if (!event.success || event.data.organizationId !== organizationId) return undefined;
  return {
    ...base(letter),
    queue: 'events',
    kind: 'event',
    eventId: event.data.id,
    eventType: event.data.type,
  };
}

async function deliveryLetter(
  deps: Pick<Deps, 'tables'>,
  letter: DeadLetter,
  organizationId: string,
): Promise<DeadLetterView | undefined> {
  const message = deliveriesMessage().safeParse(parse(letter.body));
  if (!message.success) return undefined;
  if (message.data.kind === 'recover') {
    if (message.data.organizationId !== organizationId) return undefined;
    return { ...base(letter), queue: 'deliveries', kind: 'recover', jobId: message.data.jobId };
  }
  const delivery = await getDelivery(deps, message.data.deliveryId);
  if (!delivery || delivery.organizationId !== organizationId) return undefined;
  return {
    ...base(letter),
    queue: 'deliveries',
    kind: 'attempt',
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    deliveryId: delivery.id,
    endpointId: delivery.endpointId,
  };
}

/** The organization's dead letters on both queues, newest first. */
export async function listDeadLetters(
  deps: Pick<Deps, 'tables' | 'queues'>,
  organizationId: string,
  limit: number,
): Promise<DeadLetterView[]> {
  // Other organizations' letters share the queues: read more than asked, then filter.
  const [events, deliveries] = await Promise.all([
    deps.queues.events.listDeadLetters(Math.max(100, limit)),
    deps.queues.deliveries.listDeadLetters(Math.max(100, limit)),
  ]);
  const views = [
    ...events.map((letter) => eventLetter(letter, organizationId)),
    ...(await Promise.all(deliveries.map((letter) => deliveryLetter(deps, letter, organizationId)))),
  ].filter((v): v is DeadLetterView => v !== undefined);
  return views.sort((a, b) => b.deadAt.localeCompare(a.deadAt)).slice(0, limit);
}
