import { publishEvent } from '../../../events';
import { apiRoute } from '../../../platform/http';
import { organizationExists } from '../../../platform/tenancy';
import { invalidField } from '../../../platform/validation';
import { DELIVERY_ROUTE } from '../delivery-routes';

export const create = apiRoute(DELIVERY_ROUTE.publishWebhookEvent, async ({ deps, body, log }) => {
  if (!(await organizationExists(deps.tables.platform, body.organizationId))) {
    throw invalidField('request body', 'organizationId', 'no such organization');
  }
  const event = await publishEvent(deps, body);
  log.info('event published', {
    eventId: event.id,
    type: event.type,
    organizationId: event.organizationId,
  });
  return { status: 202, body: event };
});
