// The events area's public face: the event catalog, the published event's contract, and publishing.
// Other areas (connectors, webhooks) import from here, never from the files behind it.
export type { EventTypeDefinition } from './domain/catalog';
export { EVENT_TYPES, EVENT_TYPE_NAMES, eventType } from './domain/catalog';
export type { PublishedEventType } from './domain/catalog-docs';
export {
  EVENT_TYPE_DOCS,
  describeEventTypes,
  publishedCatalog,
  publishedEventTypeView,
} from './domain/catalog-docs';
export type { ReceiverEvent, WebhookEvent } from './domain/event';
export { eventView, receiverBody, receiverEventView, webhookEventSchema } from './domain/event';
export type { PublishInput } from './app/publish';
export { MAX_EVENT_BYTES, publishEvent, publishEvents, validateEventData } from './app/publish';
export type { OutboxEvent } from './app/outbox';
export {
  OUTBOX_PREFIX,
  describePending,
  flushOutbox,
  outboxAttribute,
  outboxAttributes,
  outboxEvent,
  outboxRemoval,
  pendingEvents,
} from './app/outbox';
