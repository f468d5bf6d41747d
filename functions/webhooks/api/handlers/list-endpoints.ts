import { apiRoute } from '../../../platform/http';
import { missingPermissions } from '../../app/access';
import { WEBHOOK_ROUTE } from '../routes';
import { listEndpoints } from '../../app/endpoints';

export const create = apiRoute(WEBHOOK_ROUTE.listWebhookEndpoints, async ({ deps, principal, query }) => {
  // Endpoints receiving events this key may not see are not its to list (see access.ts).
  const visible = (item: Parameters<typeof missingPermissions>[0]) =>
    missingPermissions(item, principal).length === 0;
  const { items, hasMore } = await listEndpoints(deps, principal.organizationId, query, visible);
  return { status: 200, body: { data: items, limit: query.limit, offset: query.offset, hasMore } };
});
