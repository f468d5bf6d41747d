import { apiRoute } from '../../../platform/http';
import { DELIVERY_ROUTE } from '../delivery-routes';
import { listDeadLetters } from '../../app/dead-letters';

export const create = apiRoute(DELIVERY_ROUTE.listWebhookDeadLetters, async ({ deps, principal, query }) => ({
  status: 200,
  body: { data: await listDeadLetters(deps, principal.organizationId, query.limit) },
}));
