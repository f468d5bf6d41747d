import { publishEvent } from '../../../events';
import { apiRoute } from '../../../platform/http';
import { DELIVERY_ROUTE } from '../delivery-routes';

export const create = apiRoute(DELIVERY_ROUTE.publishWebhookEvent, async ({ deps, body, log }) => {
  const event = await publishEvent(deps, body);
  log.info('event published', {
    eventId: event.id,
    type: event.type,
    organizationId: event.organizationId,
  });
  return { status: 202, body: event };
});
