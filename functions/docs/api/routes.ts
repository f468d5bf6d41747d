// Documentation routes (section of the route table in ../routes.ts): the API's own description.
import type { RouteDefinition } from '../../platform/route-types';
import { openApiDocumentView } from './schemas';

/** Keyed by route id, so a handler names its entry. */
export const DOCS_ROUTE = {
  getOpenApi: {
    id: 'getOpenApi',
    method: 'GET',
    path: '/openapi.json',
    handler: 'docs/api/handlers/get-openapi',
    auth: 'public',
    summary: 'This API described in OpenAPI 3.1 (the same document as docs/openapi.json)',
    responses: { 200: { description: 'The OpenAPI document', schema: openApiDocumentView } },
    uses: {},
  },
} satisfies Record<string, RouteDefinition>;

export const DOCS_ROUTES: RouteDefinition[] = Object.values(DOCS_ROUTE);
