import { apiRoute } from '../../../platform/http';
import { WEBHOOK_ROUTE } from '../routes';
import { listEndpoints } from '../../app/endpoints';

export const create = apiRoute(WEBHOOK_ROUTE.listWebhookEndpoints, async ({ deps, principal, query }) => {
  const { items, hasMore } = await listEndpoints(deps, principal.organizationId, query);
  return { status: 200, body: { data: items, limit: query.limit, offset: query.offset, hasMore } };
});
