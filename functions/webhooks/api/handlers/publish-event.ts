import { publishEvent } from '../../../events';
import { apiRoute } from '../../../platform/http';
import { organizations, publishOnce } from '../../infra/repositories/publishing';
import { assertMayPublishInto } from '../publish-scope';
import { DELIVERY_ROUTE } from '../delivery-routes';

export const create = apiRoute(
  DELIVERY_ROUTE.publishWebhookEvent,
  async ({ deps, principal, body, headers, log }) => {
    await assertMayPublishInto(organizations(deps), principal, body.organizationId);
    // A retried publish with the same Idempotency-Key answers the first event: no second event id.
    const { stored: event, replayed } = await publishOnce(
      deps,
      {
        keyId: principal.keyId,
        route: DELIVERY_ROUTE.publishWebhookEvent.id,
        key: headers['Idempotency-Key'],
        request: body,
      },
      () => publishEvent(deps, body),
    );
    log.info(replayed ? 'event publish replayed' : 'event published', {
      eventId: event.id,
      type: event.type,
      organizationId: event.organizationId,
    });
    return { status: 202, body: event, ...(replayed ? { headers: { 'Idempotent-Replayed': 'true' } } : {}) };
  },
);
