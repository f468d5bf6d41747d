// The event, from publish to the receiver: one zod schema and the one type inferred from it. The events
// queue carries it whole; the receiver gets its public part as JSON, serialised once (receiverBody) at
// fan-out, stored with the delivery, and signed and sent as exactly those bytes on every attempt.
import * as z from 'zod/mini';
import { lazy } from '../../platform/lazy';

export const webhookEventSchema = lazy(() =>
  z.object({
    id: z.string().check(z.regex(/^evt_[a-z2-7]{20}$/)),
    organizationId: z.string().check(z.minLength(1)),
    type: z.string().check(z.minLength(1)),
    /** ISO 8601 UTC with milliseconds. */
    occurred_at: z.iso.datetime({ precision: 3 }),
    data: z.record(z.string(), z.unknown()),
  }),
);

export type WebhookEvent = z.infer<ReturnType<typeof webhookEventSchema>>;

/** A published event as POST /webhooks/v1/events answers it. */
export const eventView = lazy(() => webhookEventSchema().clone().register(z.globalRegistry, { id: 'Event' }));

/** What a receiver is sent, and what delivery history shows. */
export const receiverEventView = lazy(() =>
  z
    .omit(webhookEventSchema(), { organizationId: true })
    .clone()
    .register(z.globalRegistry, { id: 'ReceiverEvent' }),
);

/** What a receiver is sent: the event without the organization it belongs to. */
export type ReceiverEvent = z.infer<ReturnType<typeof receiverEventView>>;

/** The receiver's JSON body (fixed key order). The one serialisation of the event a receiver sees. */
export function receiverBody(event: ReceiverEvent): string {
  const { id, type, occurred_at, data } = event;
  return JSON.stringify({ id, type, occurred_at, data } satisfies ReceiverEvent);
}
