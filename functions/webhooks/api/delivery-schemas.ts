// Request schemas of the event and delivery routes.
import * as z from 'zod/mini';
import { lazy } from '../../platform/lazy';
import { EVENT_TYPES, EVENT_TYPE_NAMES } from '../../events';
import { idSchema } from '../../platform/ids';
import { cursorPaginationQuery, paginationQuery } from '../../platform/pagination-query';
import { DELIVERY_STATUSES } from '../domain/retry-policy';

const organizationId = lazy(() => idSchema('org', 'an organization'));

type PublishShape = z.ZodMiniObject<{
  organizationId: ReturnType<typeof organizationId>;
  type: z.ZodMiniLiteral<string>;
  data: z.ZodMiniObject;
}>;

/**
 * One shape per catalog type, told apart by `type`: the document shows each type's `data` schema, and
 * the catalog schema is what publishing validates `data` with (events/app/publish.ts).
 */
export const publishEventBody = lazy(() =>
  z.discriminatedUnion(
    'type',
    EVENT_TYPES.map((definition) =>
      z.strictObject({
        organizationId: organizationId(),
        type: z.literal(definition.type),
        data: definition.data,
      }),
    ) as [PublishShape, ...PublishShape[]],
    {
      error: (issue) => {
        if (issue.code !== 'invalid_union') return undefined;
        const type: unknown = (issue.input as { type?: unknown } | undefined)?.type;
        return typeof type === 'string' && type.length <= 200
          ? `unknown event type ${type} (GET /webhooks/v1/event-types lists them)`
          : `must be one of the ${EVENT_TYPE_NAMES.length} catalog types (GET /webhooks/v1/event-types lists them)`;
      },
    },
  ),
);

const timestamp = lazy(() => z.iso.datetime({ offset: true, error: 'must be an ISO 8601 timestamp' }));

export const listDeliveriesQuery = lazy(() =>
  z.extend(cursorPaginationQuery(), {
    status: z.optional(
      z.enum(DELIVERY_STATUSES, { error: `must be one of ${DELIVERY_STATUSES.join(', ')}` }),
    ),
    eventType: z
      .optional(z.string().check(z.minLength(1), z.maxLength(200, 'must be at most 200 characters')))
      .check(z.describe('Only deliveries of this event type')),
    eventId: z.optional(idSchema('evt', 'an event')).check(z.describe('Only the delivery of this event')),
    since: z.optional(timestamp()).check(z.describe('Only deliveries created at or after this time')),
    until: z
      .optional(timestamp())
      .check(
        z.describe(
          'Only deliveries created before this time (a window with until at or before since is empty)',
        ),
      ),
  }),
);

export const recoverBody = lazy(() =>
  z.strictObject({
    since: timestamp().check(z.describe('Start of the window; must be before until')),
    until: z.optional(timestamp()).check(z.describe('End of the window (default: now)')),
  }),
);

// A malformed id names nothing: 404 (platform/http.ts), like an unknown or another organization's one.
export const endpointIdPath = lazy(() => z.object({ id: idSchema('we', 'a webhook endpoint') }));
export const deliveryIdPath = lazy(() => z.object({ id: idSchema('dlv', 'a delivery') }));
export const jobIdPath = lazy(() => z.object({ id: idSchema('job', 'a job') }));

export const deadLettersQuery = lazy(() => z.pick(paginationQuery(), { limit: true }));
