// The middy stack every route is built with: auth context, permission, rate limit, validation, errors.
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import * as z from 'zod';
import { createLocalDeps } from '../../functions/compose/local';
import { GoneError, NotFoundError } from '../../functions/platform/errors';
import { apiRoute, publicRoute } from '../../functions/platform/http';
import { paginationQuery } from '../../functions/platform/pagination-query';
import type { RouteDefinition } from '../../functions/platform/route-types';

const route = {
  id: 'testRoute',
  method: 'POST',
  path: '/test/{id}',
  handler: 'unused',
  auth: 'apiKey',
  permission: 'webhooks:write',
  summary: 'test',
  request: {
    body: z.object({ name: z.string().min(1, 'must not be empty'), count: z.number().int().optional() }),
    query: paginationQuery(),
    path: z.object({ id: z.string() }),
  },
  responses: {
    201: {
      description: 'created',
      schema: z.object({ name: z.string(), limit: z.int(), offset: z.int(), org: z.string() }),
    },
  },
  uses: {},
} satisfies RouteDefinition;

const handler = apiRoute(route, async ({ body, query, path, principal }) => {
  if (path.id === 'missing') throw new NotFoundError('Thing not found');
  if (path.id === 'boom') throw new Error('database password=hunter2 leaked');
  return {
    status: 201,
    body: { name: body.name, limit: query.limit, offset: query.offset, org: principal.organizationId },
  };
})(createLocalDeps());

const context = { awsRequestId: 'req-1' } as Context;

function event(
  overrides: Partial<APIGatewayProxyEvent> = {},
  authorizer: Record<string, unknown> | null = undefined as never,
): APIGatewayProxyEvent {
  return {
    body: JSON.stringify({ name: 'x' }),
    headers: {},
    multiValueHeaders: {},
    httpMethod: 'POST',
    isBase64Encoded: false,
    path: '/test/1',
    pathParameters: { id: '1' },
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    stageVariables: null,
    resource: '/test/{id}',
    requestContext: {
      requestId: `req-${Math.random()}`,
      authorizer:
        authorizer === undefined
          ? {
              organizationId: 'org_a',
              keyId: `key_${Math.random()}`,
              permissions: 'webhooks:write',
              system: 'false',
            }
          : authorizer,
    } as unknown as APIGatewayProxyEvent['requestContext'],
    ...overrides,
  };
}

const json = (body: string) => JSON.parse(body) as { error: { code: string; message: string } };

describe('apiRoute', () => {
  it('runs the use case with parsed input and adds rate-limit and request-id headers', async () => {
    const res = await handler(event({ queryStringParameters: { limit: '10' } }), context);
    expect(res.statusCode).toBe(201);
    expect(JSON.parse(res.body)).toEqual({ name: 'x', limit: 10, offset: 0, org: 'org_a' });
    expect(res.headers).toMatchObject({
      'X-RateLimit-Limit': '200',
      'X-RateLimit-Remaining': '199',
      'Content-Type': 'application/json',
    });
    expect(res.headers?.['X-Request-Id']).toMatch(/^req-0\.\d+$/);
  });

  it('counts a system key on a platform route in a bucket of its own, sized for platform services', async () => {
    const platformRoute = apiRoute(
      { ...route, id: 'platformRoute', rateLimit: 'platform' as const },
      async () => ({
        status: 201,
        body: { name: 'x', limit: 1, offset: 0, org: 'org_a' },
      }),
    )(createLocalDeps());
    const system = {
      organizationId: 'org_a',
      keyId: 'key_system',
      permissions: 'webhooks:write',
      system: 'true',
    };
    const res = await platformRoute(event({}, system), context);
    expect(res.statusCode).toBe(201);
    expect(res.headers).toMatchObject({ 'X-RateLimit-Limit': '12000', 'X-RateLimit-Remaining': '11999' });
    // The same key on a customer route spends the customer bucket.
    expect((await handler(event({}, system), context)).headers).toMatchObject({ 'X-RateLimit-Limit': '200' });
  });

  it('answers 401 AUTH_INVALID when no principal reached the handler', async () => {
    const res = await handler(event({}, null), context);
    expect(res.statusCode).toBe(401);
    expect(json(res.body).error.code).toBe('AUTH_INVALID');
  });

  it('answers 403 PERMISSION_DENIED, still with rate-limit headers, when the key lacks the permission', async () => {
    const res = await handler(
      event({}, { organizationId: 'org_a', keyId: 'key_x', permissions: 'webhooks:read', system: 'false' }),
      context,
    );
    expect(res.statusCode).toBe(403);
    expect(json(res.body)).toEqual({
      error: { code: 'PERMISSION_DENIED', message: 'This key lacks the webhooks:write permission' },
    });
    expect(res.headers?.['X-RateLimit-Remaining']).toMatch(/^\d+$/);
  });

  it.each([
    ['malformed JSON', { body: '{"name":' }, 'Request body is not valid JSON'],
    ['a missing field', { body: '{}' }, 'Invalid request body: name: '],
    ['an invalid field', { body: '{"name":""}' }, 'Invalid request body: name: must not be empty'],
    ['a limit over 200', { queryStringParameters: { limit: '201' } }, 'limit: limit must be at most 200'],
    ['a non-numeric limit', { queryStringParameters: { limit: 'ten' } }, 'limit: limit must be an integer'],
    ['a negative offset', { queryStringParameters: { offset: '-1' } }, 'offset: offset must be 0 or more'],
    ['a fractional limit', { queryStringParameters: { limit: '1.5' } }, 'limit: limit must be an integer'],
  ])('answers 400 INVALID_REQUEST naming the problem for %s', async (_what, overrides, message) => {
    const res = await handler(event(overrides as Partial<APIGatewayProxyEvent>), context);
    expect(res.statusCode).toBe(400);
    expect(json(res.body).error.code).toBe('INVALID_REQUEST');
    expect(json(res.body).error.message).toContain(message);
  });

  it('answers 413 for a body over 256 KiB', async () => {
    const res = await handler(event({ body: JSON.stringify({ name: 'x'.repeat(300_000) }) }), context);
    expect(res.statusCode).toBe(413);
  });

  it('maps named errors to their status', async () => {
    const res = await handler(event({ pathParameters: { id: 'missing' } }), context);
    expect(res.statusCode).toBe(404);
    expect(json(res.body)).toEqual({ error: { code: 'NOT_FOUND', message: 'Thing not found' } });
  });

  it('keeps 5xx bodies generic', async () => {
    const res = await handler(event({ pathParameters: { id: 'boom' } }), context);
    expect(res.statusCode).toBe(500);
    expect(json(res.body).error.code).toBe('INTERNAL_ERROR');
    expect(res.body).not.toContain('hunter2');
  });
});

describe('publicRoute errors', () => {
  const linkRoute = {
    id: 'openLink',
    method: 'GET',
    path: '/link/{token}',
    handler: 'unused',
    auth: 'public',
    summary: 'a browser opens it',
    request: { path: z.object({ token: z.string() }) },
    responses: { 302: { description: 'redirect' } },
    uses: {},
  } satisfies RouteDefinition;
  const open = publicRoute(linkRoute, async ({ path }) => {
    if (path.token === 'old') throw new GoneError('This connect link has expired; create a new connection');
    throw new NotFoundError('No <script>alert(1)</script> here');
  })(createLocalDeps());
  const browse = (token: string, accept?: string) =>
    open(
      event({
        httpMethod: 'GET',
        body: null,
        pathParameters: { token },
        headers: accept ? { Accept: accept } : {},
      }),
      context,
    );

  it('shows a browser an HTML page with the same status, escaped, and no referrer', async () => {
    const res = await browse('old', 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(res.statusCode).toBe(410);
    expect(res.headers).toMatchObject({
      'Content-Type': 'text/html; charset=utf-8',
      'Referrer-Policy': 'no-referrer',
    });
    expect(res.body).toContain('This link has expired');
    expect(res.body).toContain('create a new connection');
    const other = await browse('x', 'text/html');
    expect(other.statusCode).toBe(404);
    expect(other.body).not.toContain('<script>');
    expect(other.body).toContain('&#60;script&#62;');
  });

  it('keeps the JSON error body for clients that do not ask for HTML', async () => {
    const res = await browse('old');
    expect(res.statusCode).toBe(410);
    expect(JSON.parse(res.body)).toEqual({
      error: { code: 'GONE', message: 'This connect link has expired; create a new connection' },
    });
  });
});
