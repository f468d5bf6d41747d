// consoleRoute: the middy stack for console routes reads the session the console authorizer left in
// the request context, and takes no per-key rate-limit token.
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import * as z from 'zod';
import { createLocalDeps } from '../../functions/compose/local';
import { consoleRoute } from '../../functions/platform/http';
import type { RouteDefinition } from '../../functions/platform/route-types';

const route = {
  id: 'consoleTestRoute',
  method: 'PUT',
  path: '/test',
  handler: 'unused',
  auth: 'console',
  summary: 'test',
  responses: {
    200: {
      description: 'ok',
      schema: z.object({ userId: z.string(), organizationId: z.string(), role: z.string() }),
    },
  },
  uses: {},
} satisfies RouteDefinition;

const handler = consoleRoute(route, async ({ session }) => ({ status: 200, body: session }))(
  createLocalDeps(),
);

const event = (authorizer: Record<string, unknown> | null): APIGatewayProxyEvent =>
  ({
    body: null,
    headers: {},
    httpMethod: 'PUT',
    path: '/test',
    pathParameters: null,
    queryStringParameters: null,
    resource: '/test',
    requestContext: { requestId: `req-${Math.random()}`, authorizer },
  }) as unknown as APIGatewayProxyEvent;

const context = { awsRequestId: 'req-1' } as Context;

describe('consoleRoute', () => {
  it('hands the console session to the use case, without rate-limit headers', async () => {
    const res = await handler(event({ userId: 'usr_1', organizationId: 'org_a', role: 'member' }), context);
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ userId: 'usr_1', organizationId: 'org_a', role: 'member' });
    expect(res.headers?.['X-RateLimit-Limit']).toBeUndefined();
  });

  it('answers 401 AUTH_INVALID without a session, or with an API-key principal or an unknown role', async () => {
    for (const authorizer of [
      null,
      { organizationId: 'org_a', keyId: 'key_1', permissions: '', system: 'false' },
      { userId: 'usr_1', organizationId: 'org_a', role: 'root' },
    ]) {
      const res = await handler(event(authorizer), context);
      expect(res.statusCode).toBe(401);
      expect(JSON.parse(res.body)).toEqual({ error: { code: 'AUTH_INVALID', message: expect.any(String) } });
    }
  });

  it('refuses to build on a route that is not a console route', () => {
    const apiKeyRoute = { ...route, auth: 'apiKey' } satisfies RouteDefinition;
    expect(() => consoleRoute(apiKeyRoute, async ({ session }) => ({ status: 200, body: session }))).toThrow(
      /auth apiKey/,
    );
  });
});
