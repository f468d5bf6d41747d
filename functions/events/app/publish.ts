// How platform services publish an event: check it against the catalog, give it an id and a timestamp
// and put it on the events queue. The fan-out worker matches it to endpoints. The same call serves the
// system-key route POST /webhooks/v1/events and in-process callers (connectors, auto-disable).
import { isoTime } from '../../platform/clock';
import type { Deps } from '../../platform/ports';
import { InvalidRequestError, PayloadTooLargeError } from '../../platform/errors';
import { describeZodError } from '../../platform/validation';
import { newId } from '../../platform/ids';
import { eventType } from '../domain/catalog';
import type { WebhookEvent } from '../domain/event';

/** Serialized event size limit: well under SQS's 256 KiB and DynamoDB's 400 KB delivery records. */
export const MAX_EVENT_BYTES = 64 * 1024;

export interface PublishInput {
  organizationId: string;
  type: string;
  data: Record<string, unknown>;
  /**
   * A publisher that may publish the same fact twice (a retried step) names it: the same id is
   * delivered once per endpoint (fan-out is idempotent per event id) and receivers deduplicate on it.
   */
  id?: string;
  /** When the fact happened (epoch ms); now when absent. The outbox passes the change's time. */
  occurredAt?: number;
}

/** The event's data as the catalog schema parses it; throws InvalidRequestError naming the field. */
export function validateEventData(type: string, data: unknown): Record<string, unknown> {
  const definition = eventType(type);
  if (!definition) {
    throw new InvalidRequestError(
      `type: unknown event type ${type} (GET /webhooks/v1/event-types lists them)`,
    );
  }
  const parsed = definition.data.safeParse(data);
  if (!parsed.success) throw new InvalidRequestError(`data: ${describeZodError(parsed.error)}`);
  return parsed.data as Record<string, unknown>;
}

/** The event as it goes on the queue: id, time, data checked against the catalog, size checked. */
function queued(deps: Pick<Deps, 'clock'>, input: PublishInput): { event: WebhookEvent; body: string } {
  const event: WebhookEvent = {
    id: input.id ?? newId('evt'),
    organizationId: input.organizationId,
    type: input.type,
    occurred_at: isoTime(input.occurredAt ?? deps.clock.now()),
    data: validateEventData(input.type, input.data),
  };
  const body = JSON.stringify(event);
  const size = Buffer.byteLength(body, 'utf8');
  if (size > MAX_EVENT_BYTES) {
    throw new PayloadTooLargeError(
      `The event is ${size} bytes; events may be at most ${MAX_EVENT_BYTES} bytes`,
    );
  }
  return { event, body };
}

export async function publishEvent(
  deps: Pick<Deps, 'queues' | 'clock'>,
  input: PublishInput,
): Promise<WebhookEvent> {
  const { event, body } = queued(deps, input);
  await deps.queues.events.send({ body });
  return event;
}

/** What one SQS SendMessageBatch request may carry: ten messages, 256 KiB of bodies in all. */
const BATCH_MESSAGES = 10;
const BATCH_BYTES = 256 * 1024;

/**
 * Several events at once, in batch sends (SQS SendMessageBatch: ten to a request, within its 256 KiB)
 * instead of one send each: every event is checked before any is sent, so one the catalog refuses
 * sends none. Once it returns, every event is on the queue; a failure may leave some sent, so a
 * publisher repeats the batch with the same ids (fan-out and receivers deduplicate on them), as it
 * would repeat one event.
 */
export async function publishEvents(
  deps: Pick<Deps, 'queues' | 'clock'>,
  inputs: readonly PublishInput[],
): Promise<WebhookEvent[]> {
  const batch = inputs.map((input) => queued(deps, input));
  let request: { body: string }[] = [];
  let bytes = 0;
  for (const { body } of batch) {
    const size = Buffer.byteLength(body, 'utf8');
    if (request.length === BATCH_MESSAGES || (request.length && bytes + size > BATCH_BYTES)) {
      await deps.queues.events.sendBatch(request);
      request = [];
      bytes = 0;
    }
    request.push({ body });
    bytes += size;
  }
  if (request.length) await deps.queues.events.sendBatch(request);
  return batch.map(({ event }) => event);
}
