// Messages on the deliveries queue: an attempt step of one delivery, or a recover job to run.
import * as z from 'zod/mini';
import { lazy } from '../../platform/lazy';

export const attemptMessage = lazy(() =>
  z.object({
    kind: z.literal('attempt'),
    deliveryId: z.string().check(z.regex(/^dlv_[a-z2-7]{20}$/)),
    /** The cycle the message belongs to: a replay starts a new one and older messages are then stale. */
    cycle: z.int().check(z.gte(0)),
    /** The attempt (all cycles) this message makes. */
    attempt: z.int().check(z.gte(1)),
    /** Epoch ms: before then the message only hops (SQS delays stop at 15 minutes). */
    dueAt: z.number(),
    /**
     * On a first attempt's message, the delivery as fan-out created it (records.ts, `createdFields`):
     * the message's first receive takes it instead of reading the delivery.
     */
    created: z.optional(
      z.object({
        organizationId: z.string().check(z.minLength(1)),
        endpointId: z.string().check(z.minLength(1)),
        eventId: z.string().check(z.minLength(1)),
        eventType: z.string().check(z.minLength(1)),
        occurredAt: z.number(),
        body: z.string(),
        createdAt: z.number(),
      }),
    ),
  }),
);

export const recoverMessage = lazy(() =>
  z.object({
    kind: z.literal('recover'),
    organizationId: z.string().check(z.minLength(1)),
    jobId: z.string().check(z.regex(/^job_[a-z2-7]{20}$/)),
    /** The page of the job this message runs (0 first); absent in messages sent before paging: 0. */
    page: z._default(z.int().check(z.gte(0)), 0),
  }),
);

export const deliveriesMessage = lazy(() =>
  z.discriminatedUnion('kind', [attemptMessage(), recoverMessage()]),
);

export type AttemptMessage = z.infer<ReturnType<typeof attemptMessage>>;
export type CreatedFields = NonNullable<AttemptMessage['created']>;
export type RecoverMessage = z.infer<ReturnType<typeof recoverMessage>>;

export function recoverBody(message: Omit<RecoverMessage, 'kind'>): string {
  return JSON.stringify({ kind: 'recover', ...message } satisfies RecoverMessage);
}
export type DeliveriesMessage = z.infer<ReturnType<typeof deliveriesMessage>>;

export function attemptBody(message: Omit<AttemptMessage, 'kind'>): string {
  return JSON.stringify({ kind: 'attempt', ...message } satisfies AttemptMessage);
}
