// The documentation area's public face: the OpenAPI document built from the route table.
export { DOCS_ROUTES } from './api/routes';
export type { OpenApiDocument } from './app/openapi';
export { buildOpenApi } from './app/openapi';
