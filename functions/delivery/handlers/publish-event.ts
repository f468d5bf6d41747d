import { publishEvent } from '../../events/publish';
import { apiRoute } from '../../platform/http';
import { publishEventBody } from '../schemas';

export const handler = apiRoute(
  'publishWebhookEvent',
  { body: publishEventBody },
  async ({ deps, body, log }) => {
    const event = await publishEvent(deps, body);
    log.info('event published', {
      eventId: event.id,
      type: event.type,
      organizationId: event.organizationId,
    });
    return { status: 202, body: event };
  },
);
