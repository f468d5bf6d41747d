import { apiRoute } from '../../../platform/http';
import { WEBHOOK_ROUTE } from '../routes';
import { publishedCatalog } from '../../../events';

export const create = apiRoute(WEBHOOK_ROUTE.listWebhookEventTypes, async ({ query }) => {
  const catalog = publishedCatalog();
  const data = catalog.slice(query.offset, query.offset + query.limit);
  return {
    status: 200,
    body: {
      data,
      limit: query.limit,
      offset: query.offset,
      hasMore: catalog.length > query.offset + query.limit,
    },
  };
});
