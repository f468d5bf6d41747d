import {
  DELIVERY_RETENTION_DAYS,
  current,
  newDelivery,
  retentionExpiry,
} from '../../functions/webhooks/domain/records';
import { toDeliveryView } from '../../functions/webhooks/api/views';
import { receiverBody } from '../../functions/events/domain/event';

const NOW = Date.UTC(2026, 0, 1);
const event = {
  id: 'evt_aaaaaaaaaaaaaaaaaaaa',
  organizationId: 'org_1',
  type: 'webhook.test',
  occurred_at: new Date(NOW).toISOString(),
  data: {},
};

describe('delivery history retention', () => {
  it('expires a delivery record 30 days after it was created, by TTL', () => {
    expect(DELIVERY_RETENTION_DAYS).toBe(30);
    const item = newDelivery(event, receiverBody(event), 'we_1', 'pending', NOW);
    expect(item.ttl).toBe(NOW / 1000 + 30 * 86_400);
    expect(retentionExpiry(NOW + 1)).toBe(Math.ceil((NOW + 1) / 1000) + 30 * 86_400);
  });

  it('stores the receiver body once and shows the API the event the receiver was sent', () => {
    const item = newDelivery(event, receiverBody(event), 'we_1', 'pending', NOW);
    expect(item.body).toBe(
      '{"id":"evt_aaaaaaaaaaaaaaaaaaaa","type":"webhook.test","occurred_at":"2026-01-01T00:00:00.000Z","data":{}}',
    );
    expect(item).not.toHaveProperty('event');
    expect(toDeliveryView(item)).toMatchObject({
      eventId: event.id,
      eventType: 'webhook.test',
      event: { id: event.id, type: 'webhook.test', occurred_at: event.occurred_at, data: {} },
    });
    expect(toDeliveryView(item).event).not.toHaveProperty('organizationId');
  });

  it('reads a record written before the body was stored (event as a map) as if written now', () => {
    const { body, eventId, eventType, occurredAt, ...rest } = newDelivery(
      event,
      receiverBody(event),
      'we_1',
      'pending',
      NOW,
    );
    const legacy = {
      ...rest,
      event: { id: eventId, type: eventType, occurred_at: new Date(occurredAt).toISOString(), data: {} },
    };
    expect(current(legacy as never)).toMatchObject({ body, eventId, eventType, occurredAt });
    expect(toDeliveryView(legacy as never)).toEqual(
      toDeliveryView(newDelivery(event, body, 'we_1', 'pending', NOW)),
    );
  });

  it('keeps the TTL attribute out of the API view', () => {
    expect(
      toDeliveryView(newDelivery(event, receiverBody(event), 'we_1', 'skipped_disabled', NOW)),
    ).not.toHaveProperty('ttl');
  });
});
