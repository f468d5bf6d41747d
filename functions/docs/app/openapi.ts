// The OpenAPI 3.1 document, generated from the route table and the routes' zod schemas alone: a route
// described here is the route the CDK stack deploys and the local server serves, parsed by these schemas.
import { isDeepStrictEqual } from 'node:util';
import * as z from 'zod/mini';
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
  in: 'path' | 'query' | 'header';
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

/** A system-only route takes a credential of its own kind: a system key of the platform. */
const securityOf = (route: RouteDefinition) =>
  route.systemOnly ? [{ systemKey: [] }] : SECURITY[route.auth];

const ref = (kind: 'schemas' | 'responses' | 'headers', name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

const header = (description: string, schema: JsonSchema, required = false) => ({
  description,
  ...(required ? { required: true } : {}),
  schema,
});

/** On every success response of an API-key route (set by the middy stack after the key is counted). */
const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': ref('headers', 'X-RateLimit-Limit'),
  'X-RateLimit-Remaining': ref('headers', 'X-RateLimit-Remaining'),
  'X-RateLimit-Reset': ref('headers', 'X-RateLimit-Reset'),
};

const RATE_LIMIT_HEADER_TEXT = {
  'X-RateLimit-Limit': 'The most requests the key may make in a burst (token bucket capacity)',
  'X-RateLimit-Remaining': 'Requests the key may still make now',
  'X-RateLimit-Reset': 'Unix time, in seconds, at which the bucket is full again',
} as const;

/**
 * Errors may also come from API Gateway or the firewall in front of the handlers, which set neither
 * the request id nor the rate-limit headers: on errors these headers are described, not required.
 */
const REQUEST_ID_ON_ERRORS = {
  'X-Request-Id': header('Identifies the request; quote it to support', { type: 'string' }),
};

/** The errors a route can answer by its kind, before any route-specific one. */
const COMMON_ERRORS: { status: number; response: string; applies: (r: RouteDefinition) => boolean }[] = [
  {
    status: 400,
    response: 'InvalidRequest',
    // A path that fails its schema is 404, not 400 (platform/http.ts): only the other parts can be 400.
    applies: (r) => Boolean(r.request?.body ?? r.request?.query ?? r.request?.headers),
  },
  { status: 401, response: 'AuthInvalid', applies: (r) => r.auth !== 'public' },
  { status: 403, response: 'PermissionDenied', applies: (r) => r.auth !== 'public' },
  { status: 404, response: 'NotFound', applies: (r) => r.path.includes('{') },
  { status: 413, response: 'PayloadTooLarge', applies: (r) => r.request?.body !== undefined },
  { status: 415, response: 'UnsupportedMediaType', applies: (r) => r.request?.body !== undefined },
  { status: 429, response: 'RateLimitExceeded', applies: (r) => r.auth === 'apiKey' },
  { status: 431, response: 'HeadersTooLarge', applies: () => true },
  { status: 500, response: 'InternalError', applies: () => true },
];

const errorResponse = (description: string, headers: Record<string, unknown> = {}) => ({
  description,
  headers: { ...REQUEST_ID_ON_ERRORS, ...headers },
  content: { 'application/json': { schema: ref('schemas', 'Error') } },
});

/** The errors every route of a kind can answer, described once under components.responses. */
const SHARED_RESPONSES: Record<string, ReturnType<typeof errorResponse>> = {
  InvalidRequest: errorResponse('The request is malformed or fails validation (INVALID_REQUEST)'),
  PermissionDenied: errorResponse(
    'The credentials lack the permission the operation needs (PERMISSION_DENIED)',
  ),
  NotFound: errorResponse('No such resource for the organization (NOT_FOUND)'),
  PayloadTooLarge: errorResponse('The request body is too large (PAYLOAD_TOO_LARGE)'),
  UnsupportedMediaType: errorResponse(
    'The body is labelled as something other than application/json (UNSUPPORTED_MEDIA_TYPE)',
  ),
  HeadersTooLarge: errorResponse('The URL and headers exceed 16 KiB (HEADERS_TOO_LARGE)'),
  AuthInvalid: errorResponse('Missing or invalid credentials (AUTH_INVALID)', {
    'WWW-Authenticate': header('The scheme to authenticate with (RFC 6750)', { const: 'Bearer' }, true),
  }),
  RateLimitExceeded: errorResponse('The key exceeded its rate limit (RATE_LIMIT_EXCEEDED)', {
    ...Object.fromEntries(
      Object.entries(RATE_LIMIT_HEADER_TEXT).map(([name, text]) => [name, header(text, { type: 'integer' })]),
    ),
    'Retry-After': header('Seconds to wait before the next request', { type: 'integer' }),
  }),
  InternalError: errorResponse('An internal error; the message quotes the request id (INTERNAL_ERROR)'),
};

/**
 * A public route answers a person's browser (Accept: text/html) with the same error as a page; a
 * program gets the JSON body. 431 comes from the HTTP server itself, before any route: JSON only.
 */
const withPage = (response: ReturnType<typeof errorResponse>) => ({
  ...response,
  content: {
    ...response.content,
    'text/html': { schema: { type: 'string', description: 'The error as a page, for a browser' } },
  },
});

/** A zod schema as the JSON Schema (2020-12, what OpenAPI 3.1 speaks) of what a client sends. */
export function jsonSchemaOf(schema: z.ZodMiniType, io: 'input' | 'output' = 'input'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

/** Rewrites zod's `#/$defs/<id>` references to the document's `#/components/schemas/<id>`. */
function relink<T>(value: T): T {
  if (Array.isArray(value)) return value.map(relink) as T;
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      key === '$ref' && typeof v === 'string'
        ? v.replace(/^#\/\$defs\//, '#/components/schemas/')
        : relink(v),
    ]),
  ) as T;
}

/**
 * A zod schema as the document's JSON Schema: every part that has a name (`.meta({ id })`) becomes a
 * component under that name and is referenced, so a resource is described once however many
 * operations show it. Requests are described as clients send them (`input`: defaulted fields are
 * optional), responses as the server sends them (`output`).
 */
function schemaOf(
  schema: z.ZodMiniType,
  io: 'input' | 'output',
  components: Record<string, JsonSchema>,
): JsonSchema {
  const { $defs, ...root } = jsonSchemaOf(schema, io) as JsonSchema & { $defs?: Record<string, JsonSchema> };
  for (const [name, definition] of Object.entries($defs ?? {})) {
    const described = relink(definition);
    const existing = components[name];
    if (existing && !isDeepStrictEqual(existing, described))
      throw new Error(`Two different schemas are named ${name} (as ${io}); give one another id`);
    components[name] = described;
  }
  return relink(root);
}

const pascal = (id: string) => id[0]!.toUpperCase() + id.slice(1);

function parameters(
  schema: z.ZodMiniType | undefined,
  where: 'path' | 'query' | 'header',
  components: Record<string, JsonSchema>,
): OpenApiParameter[] {
  if (!schema) return [];
  const object = schemaOf(schema, 'input', components) as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
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

function successHeaders(
  route: RouteDefinition,
  status: number,
  declared: RouteResponse,
  components: Record<string, JsonSchema>,
): Record<string, unknown> {
  const headers: Record<string, unknown> = {
    'X-Request-Id': ref('headers', 'X-Request-Id'),
    ...(route.auth === 'apiKey' ? RATE_LIMIT_HEADERS : {}),
  };
  if (status >= 300 && status < 400)
    headers.Location = header('Where the browser goes next', { type: 'string' }, true);
  for (const [name, declaredHeader] of Object.entries(declared.headers ?? {})) {
    headers[name] = header(
      declaredHeader.description,
      declaredHeader.schema ? schemaOf(declaredHeader.schema, 'output', components) : { type: 'string' },
      declaredHeader.required,
    );
  }
  return headers;
}

function response(
  route: RouteDefinition,
  status: number,
  declared: RouteResponse,
  components: Record<string, JsonSchema>,
): unknown {
  if (status >= 400) {
    const error = errorResponse(declared.description);
    return route.auth === 'public' ? withPage(error) : error;
  }
  return {
    description: declared.description,
    headers: successHeaders(route, status, declared, components),
    ...(declared.schema
      ? {
          content: {
            [declared.mediaType ?? 'application/json']: {
              schema: schemaOf(declared.schema, 'output', components),
            },
          },
        }
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
  const params = [
    ...parameters(route.request?.path, 'path', schemas),
    ...parameters(route.request?.query, 'query', schemas),
    ...parameters(route.request?.headers, 'header', schemas),
  ];
  const responses: Record<string, unknown> = {};
  for (const [status, declared] of Object.entries(route.responses)) {
    responses[status] = response(route, Number(status), declared, schemas);
  }
  for (const error of COMMON_ERRORS) {
    if (!error.applies(route) || responses[error.status]) continue;
    responses[error.status] =
      route.auth === 'public' && error.status !== 431
        ? withPage(SHARED_RESPONSES[error.response]!)
        : ref('responses', error.response);
  }
  let requestBody: OpenApiOperation['requestBody'];
  if (route.request?.body) {
    const name = `${pascal(route.id)}Request`;
    schemas[name] = schemaOf(route.request.body, 'input', schemas);
    // A body the schema accepts as absent is optional (POST .../runs: no body, or {mode}).
    const required = !z.safeParse(route.request.body, undefined).success;
    requestBody = { required, content: { 'application/json': { schema: ref('schemas', name) } } };
  }
  const description = describe(route);
  return {
    operationId: route.id,
    summary: route.summary,
    ...(description ? { description } : {}),
    tags: [tag.name],
    security: securityOf(route),
    ...(params.length ? { parameters: params } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b))),
  };
}

const sortedByName = <T>(record: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));

export function buildOpenApi(routes: readonly RouteDefinition[]): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = {};
  schemaOf(errorBodySchema(), 'output', schemas); // components.schemas.Error, the one error body
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
        'sustained, bursts to 200) and every response to them carries the X-RateLimit-* headers. ' +
        'Responses list every field they carry; a later version may add fields, so clients should ' +
        'ignore fields they do not know.',
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
      schemas: sortedByName(schemas),
      responses: SHARED_RESPONSES,
      headers: {
        'X-Request-Id': header('Identifies the request; quote it to support', { type: 'string' }, true),
        ...Object.fromEntries(
          Object.entries(RATE_LIMIT_HEADER_TEXT).map(([name, text]) => [
            name,
            header(text, { type: 'integer' }, true),
          ]),
        ),
      },
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key of the organization: `Authorization: Bearer <API_KEY>`',
        },
        systemKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            "A system key (a platform service's API key, system flag set): `Authorization: Bearer <API_KEY>`",
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
