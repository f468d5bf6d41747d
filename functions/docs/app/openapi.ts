// The OpenAPI 3.1 document, generated from the route table and the routes' zod schemas alone: a route
// described here is the route the CDK stack deploys and the local server serves, parsed by these schemas.
import * as z from 'zod';
import { errorBodySchema } from '../../platform/errors';
import type { RouteDefinition, RouteResponse } from '../../platform/route-types';
import { routePermissions } from '../../platform/route-types';

/** The version of the machine-readable description (the spec's Versioning section). */
export const API_DESCRIPTION_VERSION = '1.0.0';

type JsonSchema = Record<string, unknown>;

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, unknown>;
}

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: {
    url: string;
    description: string;
    variables: Record<string, { default: string; description: string }>;
  }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, unknown>;
    headers: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
}

/** Tags by area: the first segment of the handler module (functions/<area>/handlers/...). */
const AREAS: Record<string, { name: string; description: string }> = {
  connectors: {
    name: 'Connectors',
    description: 'Provider connections: hosted OAuth, lifecycle, disconnect',
  },
  directory: { name: 'Applications', description: 'API-key bindings of applications (console sessions)' },
  webhooks: {
    name: 'Webhook endpoints',
    description: 'Endpoints, their filters, secrets and the event catalog',
  },
  delivery: {
    name: 'Webhook deliveries',
    description: 'Publishing events, delivery history, replay, recovery',
  },
  docs: { name: 'Documentation', description: 'This description of the API' },
};

const areaOf = (route: RouteDefinition): string => route.tag ?? route.handler.split('/')[0]!;

const SECURITY = {
  apiKey: [{ apiKey: [] }],
  console: [{ consoleSession: [] }],
  public: [],
} satisfies Record<RouteDefinition['auth'], Record<string, string[]>[]>;

const ref = (kind: 'schemas' | 'responses' | 'headers', name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': ref('headers', 'X-RateLimit-Limit'),
  'X-RateLimit-Remaining': ref('headers', 'X-RateLimit-Remaining'),
  'X-RateLimit-Reset': ref('headers', 'X-RateLimit-Reset'),
};

/** The errors a route can answer by its kind, before any route-specific one. */
const COMMON_ERRORS: { status: number; response: string; applies: (r: RouteDefinition) => boolean }[] = [
  { status: 400, response: 'InvalidRequest', applies: (r) => Object.keys(r.request ?? {}).length > 0 },
  { status: 401, response: 'AuthInvalid', applies: (r) => r.auth !== 'public' },
  { status: 403, response: 'PermissionDenied', applies: (r) => r.auth !== 'public' },
  { status: 404, response: 'NotFound', applies: (r) => r.path.includes('{') },
  { status: 413, response: 'PayloadTooLarge', applies: (r) => r.request?.body !== undefined },
  { status: 415, response: 'UnsupportedMediaType', applies: (r) => r.request?.body !== undefined },
  { status: 429, response: 'RateLimitExceeded', applies: (r) => r.auth === 'apiKey' },
  { status: 431, response: 'HeadersTooLarge', applies: () => true },
  { status: 500, response: 'InternalError', applies: () => true },
];

const errorResponse = (description: string, headers?: Record<string, unknown>) => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: ref('schemas', 'Error') } },
});

/** A zod schema as the JSON Schema (2020-12, what OpenAPI 3.1 speaks) of what a client sends. */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

const pascal = (id: string) => id[0]!.toUpperCase() + id.slice(1);

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): OpenApiParameter[] {
  if (!schema) return [];
  const object = jsonSchemaOf(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property as JsonSchema & { description?: string };
    return {
      name,
      in: where,
      required: where === 'path' || (object.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

function response(route: RouteDefinition, status: number, declared: RouteResponse): unknown {
  if (status >= 400) return errorResponse(declared.description);
  const headers: Record<string, unknown> = route.auth === 'apiKey' ? { ...RATE_LIMIT_HEADERS } : {};
  if (status >= 300 && status < 400)
    headers.Location = { description: 'Where the browser goes next', schema: { type: 'string' } };
  return {
    description: declared.description,
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(declared.schema
      ? { content: { 'application/json': { schema: jsonSchemaOf(declared.schema) } } }
      : {}),
  };
}

function describe(route: RouteDefinition): string | undefined {
  if (route.systemOnly) return 'Only a system key (a platform service) may call this operation.';
  const permissions = routePermissions(route);
  if (permissions.length)
    return `The API key needs the ${permissions.map((p) => `\`${p}\``).join(' and ')} permission${permissions.length > 1 ? 's' : ''}.`;
  if (route.auth === 'console') return 'Needs a console session of the organization (owner or admin).';
  return undefined;
}

function operation(route: RouteDefinition, schemas: Record<string, JsonSchema>): OpenApiOperation {
  const area = areaOf(route);
  const tag = AREAS[area];
  if (!tag) throw new Error(`Route ${route.id}: no OpenAPI tag for area ${area}`);
  const params = [...parameters(route.request?.path, 'path'), ...parameters(route.request?.query, 'query')];
  const responses: Record<string, unknown> = {};
  for (const [status, declared] of Object.entries(route.responses)) {
    responses[status] = response(route, Number(status), declared);
  }
  for (const error of COMMON_ERRORS) {
    if (error.applies(route) && !responses[error.status])
      responses[error.status] = ref('responses', error.response);
  }
  let requestBody: OpenApiOperation['requestBody'];
  if (route.request?.body) {
    const name = `${pascal(route.id)}Request`;
    schemas[name] = jsonSchemaOf(route.request.body);
    requestBody = { required: true, content: { 'application/json': { schema: ref('schemas', name) } } };
  }
  const description = describe(route);
  return {
    operationId: route.id,
    summary: route.summary,
    ...(description ? { description } : {}),
    tags: [tag.name],
    security: SECURITY[route.auth],
    ...(params.length ? { parameters: params } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b))),
  };
}

export function buildOpenApi(routes: readonly RouteDefinition[]): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = { Error: jsonSchemaOf(errorBodySchema) };
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    const item = (paths[route.path] ??= {});
    const method = route.method.toLowerCase();
    if (item[method]) throw new Error(`Two routes for ${route.method} ${route.path}`);
    item[method] = operation(route, schemas);
  }
  const usedAreas = new Set(routes.map(areaOf));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Connector and event service',
      version: API_DESCRIPTION_VERSION,
      description:
        'Connectors (hosted OAuth to external providers, encrypted provider tokens) and signed event ' +
        'delivery (Standard Webhooks). Every error answers `{"error":{"code","message"}}`. Lists take ' +
        '`limit` (default 50, max 200) and `offset`. API-key calls are rate limited per key (100/min ' +
        'sustained, bursts to 200) and every response to them carries the X-RateLimit-* headers.',
    },
    servers: [
      {
        url: '{base_url}',
        description: 'The API Gateway stage URL or the custom domain of a deployment',
        variables: {
          base_url: {
            default: 'http://localhost:3000',
            description: 'Base address; `npm start` serves the API on http://localhost:3000',
          },
        },
      },
    ],
    tags: Object.entries(AREAS)
      .filter(([area]) => usedAreas.has(area))
      .map(([, tag]) => tag),
    paths,
    components: {
      schemas,
      responses: {
        InvalidRequest: errorResponse('The request is malformed or fails validation (INVALID_REQUEST)'),
        AuthInvalid: errorResponse('Missing or invalid credentials (AUTH_INVALID)'),
        PermissionDenied: errorResponse(
          'The credentials lack the permission the operation needs (PERMISSION_DENIED)',
        ),
        NotFound: errorResponse('No such resource for the organization (NOT_FOUND)'),
        PayloadTooLarge: errorResponse('The request body is too large (PAYLOAD_TOO_LARGE)'),
        UnsupportedMediaType: errorResponse(
          'The body is labelled as something other than application/json (UNSUPPORTED_MEDIA_TYPE)',
        ),
        HeadersTooLarge: errorResponse('The URL and headers exceed 16 KiB (HEADERS_TOO_LARGE)'),
        RateLimitExceeded: errorResponse('The key exceeded its rate limit (RATE_LIMIT_EXCEEDED)', {
          ...RATE_LIMIT_HEADERS,
          'Retry-After': ref('headers', 'Retry-After'),
        }),
        InternalError: errorResponse('An internal error; the message quotes the request id (INTERNAL_ERROR)'),
      },
      headers: {
        'X-RateLimit-Limit': {
          description: 'The most requests the key may make in a burst (token bucket capacity)',
          schema: { type: 'integer' },
        },
        'X-RateLimit-Remaining': {
          description: 'Requests the key may still make now',
          schema: { type: 'integer' },
        },
        'X-RateLimit-Reset': {
          description: 'Unix time, in seconds, at which the bucket is full again',
          schema: { type: 'integer' },
        },
        'Retry-After': {
          description: 'Seconds to wait before the next request',
          schema: { type: 'integer' },
        },
      },
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key of the organization: `Authorization: Bearer <API_KEY>`',
        },
        consoleSession: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            "A console session token from the console's identity provider: `Authorization: Bearer <JWT>`",
        },
      },
    },
  };
}
