import { apiRoute } from '../../platform/http';
import { paginationQuery } from '../../platform/pagination';
import { publishedCatalog } from '../catalog';

export const handler = apiRoute('listWebhookEventTypes', { query: paginationQuery }, async ({ query }) => {
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
