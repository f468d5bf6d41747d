import { publishEvent } from '../../events/publish';
import { Directory } from '../../directory/directory';
import { apiRoute } from '../../platform/http';
import { assertMayPublishInto } from '../publish-scope';
import { DELIVERY_ROUTE } from '../routes';

export const handler = apiRoute(
  DELIVERY_ROUTE.publishWebhookEvent,
  async ({ deps, principal, body, log }) => {
    await assertMayPublishInto(
      new Directory(deps.tables.platform, deps.clock),
      principal,
      body.organizationId,
    );
    const event = await publishEvent(deps, body);
    log.info('event published', {
      eventId: event.id,
      type: event.type,
      organizationId: event.organizationId,
    });
    return { status: 202, body: event };
  },
);
