// What a recover job picks up: failed and skipped deliveries, and pending or retrying ones whose next
// step is long overdue (their queue message was lost or dead-lettered), never one still on schedule.
import { STUCK_AFTER_MS, recoverable } from '../../functions/webhooks/app/replay';
import type { DeliveryItem } from '../../functions/webhooks/domain/records';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const delivery = (fields: Partial<DeliveryItem>) =>
  ({ status: 'pending', createdAt: NOW - 3_600_000, updatedAt: NOW - 3_600_000, ...fields }) as DeliveryItem;

describe('recoverable deliveries', () => {
  it('takes failed and skipped deliveries, never delivered ones', () => {
    expect(recoverable(delivery({ status: 'failed' }), NOW)).toBe(true);
    expect(recoverable(delivery({ status: 'skipped_disabled' }), NOW)).toBe(true);
    expect(recoverable(delivery({ status: 'delivered' }), NOW)).toBe(false);
  });

  it('takes a retrying delivery only once its next attempt is overdue by the stuck threshold', () => {
    const due = NOW - STUCK_AFTER_MS;
    expect(recoverable(delivery({ status: 'retrying', nextAttemptAt: due }), NOW)).toBe(false);
    expect(recoverable(delivery({ status: 'retrying', nextAttemptAt: due - 1 }), NOW)).toBe(true);
    expect(recoverable(delivery({ status: 'retrying', nextAttemptAt: NOW + 3_600_000 }), NOW)).toBe(false);
  });

  it('takes a pending delivery untouched for longer than the threshold', () => {
    expect(recoverable(delivery({ status: 'pending', updatedAt: NOW - 60_000 }), NOW)).toBe(false);
    expect(recoverable(delivery({ status: 'pending', updatedAt: NOW - STUCK_AFTER_MS - 1 }), NOW)).toBe(true);
  });
});
