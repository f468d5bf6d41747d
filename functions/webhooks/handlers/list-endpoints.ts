import { apiRoute } from '../../platform/http';
import { paginationQuery } from '../../platform/pagination';
import { listEndpoints } from '../endpoints';

export const handler = apiRoute(
  'listWebhookEndpoints',
  { query: paginationQuery },
  async ({ deps, principal, query }) => {
    const { items, hasMore } = await listEndpoints(deps, principal.organizationId, query);
    return { status: 200, body: { data: items, limit: query.limit, offset: query.offset, hasMore } };
  },
);
