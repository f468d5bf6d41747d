// The shape of a route-table entry: everything the CDK stack, the local server and the OpenAPI
// generator need to know about a route, including what it may touch (its IAM grants).
import type * as z from 'zod/mini';
import type { Permission } from './permissions';
import type { ResourceUses } from './workers';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A route's resources: the same shape as a worker's (the worker table, ./workers.ts). */
export type RouteUses = ResourceUses;

/**
 * What a route reads from the request. The handler parses with exactly these schemas (the middy
 * stack takes them from the route entry) and the OpenAPI generator describes them: one source.
 */
export interface RouteRequest {
  body?: z.ZodMiniType;
  query?: z.ZodMiniType;
  /** A path that fails it names no resource: 404, not 400 (platform/http.ts). */
  path?: z.ZodMiniType;
  /** Request headers the route reads, named as documented; looked up case-insensitively. */
  headers?: z.ZodMiniObject;
}

/** A header a response carries beyond the common ones (X-Request-Id; X-RateLimit-* on API-key routes). */
export interface RouteResponseHeader {
  description: string;
  /** Whether every such response carries it. */
  required?: boolean;
  /** Its value; any string when omitted. */
  schema?: z.ZodMiniType;
}

export interface RouteResponse {
  description: string;
  /**
   * The body. On a success status this one field is the route's answer: the handler's returned body
   * is typed by it (platform/http.ts), the OpenAPI document shows it, and the e2e tier and
   * schemathesis check real answers against it. Left out only where there is no body (204, 302).
   */
  schema?: z.ZodMiniType;
  /** The body's media type when it is not JSON: a page for a person's browser. */
  mediaType?: 'text/html';
  headers?: Record<string, RouteResponseHeader>;
}

export interface RouteDefinition {
  /** Unique, stable: names the Lambda function and the OpenAPI operation. */
  id: string;
  method: HttpMethod;
  /** API Gateway resource path, with {param} segments. */
  path: string;
  /** Module under functions/ (without extension) whose `handler` export serves the route. */
  handler: string;
  /** The OpenAPI tag (an area key of the generator); by default the area the handler lives in. */
  tag?: string;
  /** apiKey: the Lambda authorizer; public: a browser or the provider calls it; console: a console session. */
  auth: 'apiKey' | 'public' | 'console';
  /** What the key must hold: one permission, or every one of several (an import writes into a vault). */
  permission?: Permission | readonly Permission[];
  /** Only system keys may call it (platform services publishing events). */
  systemOnly?: boolean;
  /**
   * Which token bucket a system key spends on this route: `platform` is a bucket of its own with the
   * platform's larger budget, so platform publishing neither shares nor exhausts the customer limit.
   */
  rateLimit?: 'platform';
  summary: string;
  uses: RouteUses;
  /** The Lambda's timeout (default 10 s; API Gateway waits 29 s at most). */
  timeoutSeconds?: number;
  request?: RouteRequest;
  /**
   * The success responses, each with its body's `schema`, and the errors particular to the route (409,
   * 410). The errors every route of its kind can answer (400, 401, 403, 404, 413, 429, 500) are added
   * by the OpenAPI generator.
   */
  responses: Record<number, RouteResponse>;
}

/**
 * What a route's Lambda reads at run time: the entry without its documentation. An area may keep its
 * entries so, with the documentation in a docs-only module merged in by `documentedSection`, so its
 * handlers' bundles carry neither the summaries nor the response schemas.
 */
export type RouteEntry = Omit<RouteDefinition, 'summary' | 'responses'>;

/** A route's documentation: what the OpenAPI generator and the e2e tier read, and no Lambda. */
export type RouteDocs = Pick<RouteDefinition, 'summary' | 'responses'>;

/**
 * The documentation of the routes kept apart from their entries, by route id, for the types only: the
 * area's docs module adds its own here (declaration merging), so platform/http.ts still types a handler's
 * answer by its documented responses.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DocumentedRoutes {}

/** A section of the route table from entries and their documentation, both keyed by route id. */
export function documentedSection<K extends string>(
  entries: Readonly<Record<K, RouteEntry>>,
  docs: Readonly<Record<K, RouteDocs>>,
): RouteDefinition[] {
  return (Object.keys(entries) as K[]).map((id) => ({ ...entries[id], ...docs[id] }));
}

/** Every permission a route needs (none for public and console routes). */
export const routePermissions = (route: Pick<RouteDefinition, 'permission'>): readonly Permission[] =>
  route.permission === undefined
    ? []
    : typeof route.permission === 'string'
      ? [route.permission]
      : route.permission;
