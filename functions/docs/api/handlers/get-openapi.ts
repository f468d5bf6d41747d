// GET /openapi.json: built from the route table once per container, then served from memory.
import type { OpenApiDocument } from '../../app/openapi';
import { buildOpenApi } from '../../app/openapi';
import { publicRoute } from '../../../platform/http';
import { ROUTES } from '../../../routes';
import { DOCS_ROUTE } from '../routes';

let document: OpenApiDocument | undefined;

export const create = publicRoute(DOCS_ROUTE.getOpenApi, async () => {
  document ??= buildOpenApi(ROUTES);
  // Public and identical for every caller: browsers and proxies may keep it for five minutes.
  return { status: 200, body: document, headers: { 'Cache-Control': 'public, max-age=300' } };
});
