import {
  DELIVERY_RETENTION_DAYS,
  deliveryView,
  newDelivery,
  retentionExpiry,
} from '../../functions/webhooks/domain/records';

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
    const item = newDelivery(event, 'we_1', 'pending', NOW);
    expect(item.expiresAt).toBe(NOW / 1000 + 30 * 86_400);
    expect(retentionExpiry(NOW + 1)).toBe(Math.ceil((NOW + 1) / 1000) + 30 * 86_400);
  });

  it('keeps the TTL attribute out of the API view', () => {
    expect(deliveryView(newDelivery(event, 'we_1', 'skipped_disabled', NOW))).not.toHaveProperty('expiresAt');
  });
});
