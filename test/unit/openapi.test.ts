// The OpenAPI document: generated from the route table and its zod schemas, complete, self-consistent,
// and committed up to date in docs/openapi.json.
import { readFileSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { CONNECTOR_ROUTE } from '../../functions/connectors/api/routes';
import { DELIVERY_ROUTE } from '../../functions/webhooks/api/delivery-routes';
import { APPLICATION_ROUTE } from '../../functions/directory/api/routes';
import { DOCS_ROUTE } from '../../functions/docs/api/routes';
import type { OpenApiOperation, OpenApiParameter } from '../../functions/docs/app/openapi';
import { buildOpenApi, jsonSchemaOf } from '../../functions/docs/app/openapi';
import { OPENAPI_PACKED } from '../../functions/docs/app/openapi-packed';
import { EVENT_TYPE_NAMES } from '../../functions/events';
import { HTTPS_URL_PATTERN } from '../../functions/platform/urls';
import { ROUTES } from '../../functions/routes';
import { WEBHOOK_ROUTE } from '../../functions/webhooks/api/routes';

const ROOT = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..');
const doc = buildOpenApi(ROUTES);
const operationOf = (method: string, path: string): OpenApiOperation =>
  doc.paths[path]![method.toLowerCase()]!;

/** Every `$ref` in the document, with where it was found. */
function refs(value: unknown, at = '#'): [string, string][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => refs(v, `${at}/${i}`));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) =>
    key === '$ref' && typeof v === 'string' ? [[at, v] as [string, string]] : refs(v, `${at}/${key}`),
  );
}

function resolve(pointer: string): unknown {
  return pointer
    .replace(/^#\//, '')
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], doc);
}

const paramsIn = (op: OpenApiOperation, where: 'path' | 'query' | 'header'): OpenApiParameter[] =>
  (op.parameters ?? []).filter((p) => p.in === where);

/**
 * A schema with every reference replaced by what it names: the document's into components.schemas,
 * zod's into the $defs beside it. Two schemas that say the same thing compare equal however they are
 * split into named parts.
 */
function inlined(schema: unknown, defs: Record<string, unknown> = {}): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inlined(item, defs));
  if (!schema || typeof schema !== 'object') return schema;
  const { $ref, $defs, ...rest } = schema as { $ref?: string; $defs?: Record<string, unknown> };
  const known = { ...defs, ...$defs };
  if ($ref?.startsWith('#/components/schemas/')) return inlined(resolve($ref), known);
  if ($ref?.startsWith('#/$defs/')) return inlined(known[$ref.slice('#/$defs/'.length)], known);
  return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, inlined(value, known)]));
}

const SUCCESS = (status: number) => status >= 200 && status < 400;

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 at version 1.0.0 of the description, with a {base_url} server', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers[0]!.url).toBe('{base_url}');
    expect(doc.servers[0]!.variables.base_url!.default).toEqual(expect.any(String));
  });

  it('has every route of the table as an operation with its method, path and operationId', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(operations.sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path} ${r.id}`).sort());
    expect(new Set(ROUTES.map((r) => r.id)).size).toBe(ROUTES.length);
    for (const route of ROUTES) {
      const op = operationOf(route.method, route.path);
      expect(op.summary).toBe(route.summary);
      expect(doc.tags.map((t) => t.name)).toEqual(expect.arrayContaining(op.tags));
    }
  });

  it('shows every body, query and path schema of the route table', () => {
    for (const route of ROUTES) {
      const op = operationOf(route.method, route.path);
      const { body, query, path } = route.request ?? {};
      if (body) {
        const schema = op.requestBody!.content['application/json']!.schema;
        expect({ route: route.id, schema: inlined(schema) }).toEqual({
          route: route.id,
          schema: inlined(jsonSchemaOf(body)),
        });
      } else {
        expect({ route: route.id, body: op.requestBody }).toEqual({ route: route.id, body: undefined });
      }
      for (const [where, schema] of [
        ['query', query],
        ['path', path],
      ] as const) {
        const properties = schema ? Object.keys(jsonSchemaOf(schema).properties as object) : [];
        expect({ route: route.id, where, names: paramsIn(op, where).map((p) => p.name) }).toEqual({
          route: route.id,
          where,
          names: properties,
        });
      }
    }
    expect(paramsIn(operationOf('GET', '/connectors/v1/connections'), 'query')).toContainEqual(
      expect.objectContaining({
        name: 'limit',
        required: false,
        schema: expect.objectContaining({ type: 'integer', maximum: 200, default: 50 }),
      }),
    );
  });

  it('declares a required path parameter for every {param} of every path, and no other', () => {
    for (const route of ROUTES) {
      const inPath = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const declared = paramsIn(operationOf(route.method, route.path), 'path');
      expect({ route: route.id, params: declared.map((p) => p.name).sort() }).toEqual({
        route: route.id,
        params: inPath.sort(),
      });
      expect(declared.every((p) => p.required)).toBe(true);
    }
  });

  it('resolves every $ref', () => {
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(ROUTES.length);
    for (const [at, ref] of all) {
      expect({ at, ref, resolved: resolve(ref) !== undefined }).toEqual({ at, ref, resolved: true });
    }
  });

  it('secures each operation by its auth kind with a declared bearer scheme', () => {
    for (const route of ROUTES) {
      const op = operationOf(route.method, route.path);
      const expected = route.systemOnly
        ? [{ systemKey: [] }]
        : { apiKey: [{ apiKey: [] }], console: [{ consoleSession: [] }], public: [] }[route.auth];
      expect({ route: route.id, security: op.security }).toEqual({ route: route.id, security: expected });
    }
    expect(doc.components.securitySchemes).toMatchObject({
      apiKey: { type: 'http', scheme: 'bearer' },
      systemKey: { type: 'http', scheme: 'bearer' },
      consoleSession: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    });
  });

  it('answers a success status and the common error body; API-key routes document 429 and the rate-limit headers', () => {
    expect(doc.components.schemas.Error).toMatchObject({
      type: 'object',
      required: ['error'],
      properties: { error: { required: ['code', 'message'] } },
    });
    for (const route of ROUTES) {
      const op = operationOf(route.method, route.path);
      const statuses = Object.keys(op.responses).map(Number);
      expect({ route: route.id, success: statuses.some((s) => s >= 200 && s < 400) }).toEqual({
        route: route.id,
        success: true,
      });
      expect(statuses).toContain(500);
      if (route.auth !== 'apiKey') {
        expect(statuses).not.toContain(429);
        continue;
      }
      expect(op.responses['429']).toEqual({ $ref: '#/components/responses/RateLimitExceeded' });
      const success = op.responses[String(statuses.find((s) => s < 400))] as { headers: object };
      expect(Object.keys(success.headers)).toEqual(
        expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
      );
    }
    expect(Object.keys(resolve('#/components/responses/RateLimitExceeded/headers') as object)).toEqual([
      'X-Request-Id',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'Retry-After',
    ]);
    expect(operationOf('GET', '/connectors/v1/connect/{token}').responses['410']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
  });

  it('gives every success status a response schema (none only on 204 and redirects), shown in the document', () => {
    for (const route of ROUTES) {
      const op = operationOf(route.method, route.path);
      for (const [code, declared] of Object.entries(route.responses)) {
        const status = Number(code);
        if (!SUCCESS(status)) continue;
        const bodiless = status === 204 || status >= 300;
        expect({ route: route.id, status, hasSchema: declared.schema !== undefined }).toEqual({
          route: route.id,
          status,
          hasSchema: !bodiless,
        });
        const shown = op.responses[code] as {
          headers: Record<string, unknown>;
          content?: Record<string, { schema: unknown }>;
        };
        expect(Object.keys(shown.headers)).toContain('X-Request-Id');
        if (status >= 300) expect(shown.headers.Location).toMatchObject({ required: true });
        if (!declared.schema) {
          expect({ route: route.id, content: shown.content }).toEqual({
            route: route.id,
            content: undefined,
          });
          continue;
        }
        const media = declared.mediaType ?? 'application/json';
        expect({ route: route.id, schema: inlined(shown.content?.[media]?.schema) }).toEqual({
          route: route.id,
          schema: inlined(jsonSchemaOf(declared.schema, 'output')),
        });
      }
    }
  });

  it('names each resource once under components.schemas and refers to it from every operation', () => {
    const endpointRefs = refs(doc.paths).filter(
      ([, target]) => target === '#/components/schemas/WebhookEndpoint',
    );
    expect(endpointRefs.length).toBe(4); // get, update, enable, disable; the others through lists and secrets
    expect(doc.components.schemas.WebhookEndpoint).toMatchObject({
      type: 'object',
      additionalProperties: false,
      properties: { id: { pattern: '^we_[a-z2-7]{20}$' } },
    });
    expect(JSON.stringify(doc.components.schemas.WebhookEndpoint)).not.toMatch(/secret"|permissions/i);
  });

  it('shows what the server enforces: id patterns, URL rules, the filter syntax, per-type event data', () => {
    const [endpointId] = paramsIn(operationOf('GET', '/webhooks/v1/endpoints/{id}'), 'path');
    expect(endpointId!.schema).toEqual({ type: 'string', pattern: '^we_[a-z2-7]{20}$' });
    const [connectionId] = paramsIn(operationOf('GET', '/connectors/v1/connections/{id}'), 'path');
    expect(connectionId!.schema).toMatchObject({ pattern: '^conn_[a-z2-7]{20}$' });
    const create = inlined(doc.components.schemas.CreateWebhookEndpointRequest) as {
      properties: Record<string, { pattern?: string; items?: { enum?: string[] }; uniqueItems?: boolean }>;
    };
    expect(create.properties.url).toMatchObject({ maxLength: 2048, pattern: HTTPS_URL_PATTERN });
    expect(create.properties.eventTypeFilters!.uniqueItems).toBe(true);
    expect(create.properties.eventTypeFilters!.items!.enum).toEqual(
      expect.arrayContaining(['*', 'vault.*', 'vault.ingest.*', 'vault.ingest.completed']),
    );
    expect(create.properties.eventTypeFilters!.items!.enum).not.toContain('nope.*');
    const publish = inlined(doc.components.schemas.PublishWebhookEventRequest) as {
      oneOf: { properties: { type: { const: string }; data: { required: string[] } } }[];
    };
    expect(publish.oneOf.map((branch) => branch.properties.type.const)).toEqual(EVENT_TYPE_NAMES);
    const ingest = publish.oneOf.find((b) => b.properties.type.const === 'vault.ingest.completed')!;
    expect(ingest.properties.data.required).toEqual(['vaultId', 'objectId', 'durationMs', 'chunkCount']);
    const [idempotencyKey] = paramsIn(operationOf('POST', '/webhooks/v1/events'), 'header');
    expect(idempotencyKey).toMatchObject({ name: 'Idempotency-Key', required: false });
  });

  it('keys every route section by route id, so a handler names the entry whose schemas it parses with', () => {
    for (const section of [CONNECTOR_ROUTE, WEBHOOK_ROUTE, DELIVERY_ROUTE, APPLICATION_ROUTE, DOCS_ROUTE]) {
      for (const [key, route] of Object.entries(section)) expect(route.id).toBe(key);
    }
  });

  it('is committed up to date in docs/openapi.json', () => {
    const committed: unknown = JSON.parse(readFileSync(join(ROOT, 'docs', 'openapi.json'), 'utf8'));
    if (!isDeepStrictEqual(committed, JSON.parse(JSON.stringify(doc)))) {
      throw new Error('docs/openapi.json differs from the route table: run `npm run openapi` and commit it');
    }
  });

  it('is packed up to date in functions/docs/app/openapi-packed.ts, the document GET /openapi.json serves', () => {
    const packed: unknown = JSON.parse(
      brotliDecompressSync(Buffer.from(OPENAPI_PACKED, 'base64')).toString('utf8'),
    );
    if (!isDeepStrictEqual(packed, JSON.parse(JSON.stringify(doc)))) {
      throw new Error('openapi-packed.ts differs from the route table: run `npm run openapi` and commit it');
    }
  });
});
