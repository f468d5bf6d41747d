// The route table: one entry per API route. The CDK stack, the local server and the OpenAPI generator
// all read it; a route exists here and nowhere else. Each area keeps its section in its own module.
import { CONNECTOR_ROUTES } from './connectors';
import { APPLICATION_ROUTES, PORTAL_ROUTES } from './directory';
import { DOCS_ROUTES } from './docs';
import { describeEventTypes } from './events';
import type { RouteDefinition } from './platform/route-types';
import { DELIVERY_ROUTES, WEBHOOK_ROUTES } from './webhooks';

export type { RouteDefinition } from './platform/route-types';

// The table is what the OpenAPI document is made from: the event catalog's descriptions (kept out of
// the publishers' bundles, events/domain/catalog-docs.ts) go onto its schemas before anything reads it.
describeEventTypes();

export const ROUTES: readonly RouteDefinition[] = [
  ...CONNECTOR_ROUTES,
  ...WEBHOOK_ROUTES,
  ...APPLICATION_ROUTES,
  ...PORTAL_ROUTES,
  ...DELIVERY_ROUTES,
  ...DOCS_ROUTES,
];

/** The areas that own routes: each deploys as a stack of its own (lib/area-stacks.ts). */
export const ROUTE_AREAS = ['connectors', 'webhooks', 'directory', 'docs'] as const;
export type RouteArea = (typeof ROUTE_AREAS)[number];

/** The route table by area: each area's section, as the area's module exports it. */
export const ROUTE_SECTIONS: Readonly<Record<RouteArea, readonly RouteDefinition[]>> = {
  connectors: CONNECTOR_ROUTES,
  webhooks: [...WEBHOOK_ROUTES, ...DELIVERY_ROUTES],
  directory: [...APPLICATION_ROUTES, ...PORTAL_ROUTES],
  docs: DOCS_ROUTES,
};

/** The area a handler module belongs to (`<area>/api/handlers/...`), for routes and workers alike. */
export function areaOfHandler(handler: string): RouteArea {
  const area = handler.split('/', 1)[0] as RouteArea;
  if (!ROUTE_AREAS.includes(area)) throw new Error(`${handler} is in no area of ${ROUTE_AREAS.join(', ')}`);
  return area;
}

/** The API Gateway Lambda authorizer for `apiKey` routes. */
export const API_KEY_AUTHORIZER = {
  handler: 'directory/api/handlers/authorize-key',
  uses: { tables: { platform: 'read' } },
} as const;

/**
 * The API Gateway Lambda authorizer for `console` routes: verifies a console session, reading the
 * platform table for a session opened from a link.
 */
export const CONSOLE_AUTHORIZER = {
  handler: 'directory/api/handlers/authorize-console',
  uses: { tables: { platform: 'read' } },
} as const;
