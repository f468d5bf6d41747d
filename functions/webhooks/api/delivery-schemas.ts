// Request schemas of the event and delivery routes.
import * as z from 'zod';
import { paginationQuery } from '../../platform/pagination';
import { DELIVERY_STATUSES } from '../domain/retry-policy';

export const publishEventBody = z.strictObject({
  organizationId: z
    .string({ error: 'must be a string' })
    .regex(/^org_[a-z2-7]{20}$/, 'must be an organization id'),
  type: z.string({ error: 'must be a string' }).min(1).max(200),
  data: z.record(z.string(), z.unknown(), { error: 'must be an object' }),
});

export const listDeliveriesQuery = paginationQuery.extend({
  status: z
    .enum(DELIVERY_STATUSES as [string, ...string[]], {
      error: `must be one of ${DELIVERY_STATUSES.join(', ')}`,
    })
    .optional(),
});

const timestamp = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 timestamp' });

export const recoverBody = z.strictObject({ since: timestamp, until: timestamp.optional() });

export const idPath = z.object({ id: z.string() });

export const deadLettersQuery = paginationQuery.pick({ limit: true });
