// The route table: one entry per API route. The CDK stack, the local server and the OpenAPI generator
// all read it; a route exists here and nowhere else. Each area keeps its section in its own module.
import { CONNECTOR_ROUTES } from './connectors';
import { APPLICATION_ROUTES } from './directory';
import { DOCS_ROUTES } from './docs';
import type { RouteDefinition } from './platform/route-types';
import { DELIVERY_ROUTES, WEBHOOK_ROUTES } from './webhooks';

export type { RouteDefinition } from './platform/route-types';

export const ROUTES: readonly RouteDefinition[] = [
  ...CONNECTOR_ROUTES,
  ...WEBHOOK_ROUTES,
  ...APPLICATION_ROUTES,
  ...DELIVERY_ROUTES,
  ...DOCS_ROUTES,
];

/** The API Gateway Lambda authorizer for `apiKey` routes. */
export const API_KEY_AUTHORIZER = {
  handler: 'directory/api/handlers/authorize-key',
  uses: { tables: { platform: 'read' } },
} as const;

/** The API Gateway Lambda authorizer for `console` routes: verifies a console session; no table access. */
export const CONSOLE_AUTHORIZER = {
  handler: 'directory/api/handlers/authorize-console',
  uses: {},
} as const;
