// The emulated AWS runtime answers as API Gateway does, over real HTTP through the
// local server: no route or method is the template's MISSING_AUTHENTICATION_TOKEN response (404 in this
// API's error body, not the local server's 405), the authorizer's returned policy is evaluated against
// the method ARN (a Deny or no matching Allow is the ACCESS_DENIED response, 403), its result is cached
// per Authorization value for the stage's TTL and re-evaluated per method, its context reaches the
// handler as strings, and the integration's timeout answers the DEFAULT_5XX response.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { createLocalDeps } from '../../functions/compose/local';
import { createLocalServer } from '../../functions/dev-runtime/server/server';
import type { ApiGatewaySettings } from '../../functions/dev-runtime/server/api-gateway';
import {
  ApiGateway,
  apiGatewaySettings,
  evaluatePolicy,
} from '../../functions/dev-runtime/server/api-gateway';
import { STAGE_THROTTLING } from '../../functions/platform/gateway-responses';
import type { HandlerLoader, Invocable } from '../../functions/dev-runtime/server/lambda-runtime';
import { inProcess } from '../../functions/dev-runtime/server/lambda-runtime';
import { API_KEY_AUTHORIZER } from '../../functions/routes';
import { InvokePermissionError } from '../../functions/dev-runtime/emulated-aws/resource-policies';

const allow = (resource: string) => ({ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: resource });
const deny = (resource: string) => ({ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: resource });

let authorizerCalls = 0;

/** The authorizer's answer by token: what the test needs the policy or context to be. */
const authorizer: Invocable = async (event) => {
  authorizerCalls++;
  const { headers, methodArn } = event as APIGatewayRequestAuthorizerEvent;
  const token = (headers?.Authorization ?? '').replace('Bearer ', '');
  const [prefix, stage] = methodArn.split('/');
  const api = `${prefix}/${stage}`;
  const statements: Record<string, object[]> = {
    all: [allow(`${api}/*`)],
    'no-webhooks': [allow(`${api}/*`), deny(`${api}/*/webhooks/*`)],
    'get-only': [allow(`${api}/GET/connectors/*`)],
    nested: [allow(`${api}/*`)],
  };
  if (token === 'fail') throw new Error('the table is down');
  if (token === 'no-permission')
    throw new InvokePermissionError('apiKeyAuthorizer', 'apigateway.amazonaws.com', 'src');
  if (!statements[token]) throw new Error('Unauthorized');
  return {
    principalId: `key_${token}`,
    policyDocument: { Version: '2012-10-17', Statement: statements[token] },
    context:
      token === 'nested'
        ? { organizationId: 'org_1', detail: { a: 1 } }
        : { organizationId: 'org_1', keyId: `key_${token}`, system: true, limit: 3 },
  };
};

let slowMs = 0;
/** Every route answers what reached it from the authorizer; `slowMs` delays it. */
const route: Invocable = async (event) => {
  if (slowMs === -2) throw new InvokePermissionError('listProviders', 'apigateway.amazonaws.com', 'src');
  if (slowMs < 0) throw new Error('the handler crashed');
  await new Promise((resolve) => setTimeout(resolve, slowMs));
  return {
    statusCode: 200,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ authorizer: (event as APIGatewayProxyEvent).requestContext.authorizer }),
  };
};

const load: HandlerLoader = async (module) => (module === API_KEY_AUTHORIZER.handler ? authorizer : route);

let now = 1_000_000;
const servers: Server[] = [];

async function start(settings: Partial<ApiGatewaySettings> = {}): Promise<string> {
  const gateway = new ApiGateway(
    inProcess(load),
    {
      authorizerCacheTtlSeconds: 0,
      integrationTimeoutSeconds: 29,
      throttling: { rateLimit: 1000, burstLimit: 2000 },
      ...settings,
    },
    undefined,
    () => now,
  );
  const server = createLocalServer(createLocalDeps(), [], load, undefined, gateway);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const call = (base: string, path: string, token?: string, method = 'GET') =>
  fetch(`${base}${path}`, { method, headers: token ? { Authorization: `Bearer ${token}` } : {} });

beforeEach(() => {
  authorizerCalls = 0;
  slowMs = 0;
});

describe('routes and methods the REST API does not have', () => {
  it('answers the MISSING_AUTHENTICATION_TOKEN gateway response (404), never 405, HEAD or OPTIONS', async () => {
    const base = await start();
    for (const [method, path] of [
      ['GET', '/nothing'],
      ['PUT', '/webhooks/v1/endpoints'],
      ['HEAD', '/connectors/v1/providers'],
      ['OPTIONS', '/webhooks/v1/endpoints'],
    ] as const) {
      const response = await call(base, path, 'all', method);
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 404 });
      expect(response.headers.get('allow')).toBeNull();
      if (method !== 'HEAD') {
        expect(await response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'No such route' } });
      }
    }
    expect(authorizerCalls).toBe(0);
  });
});

describe('the authorizer', () => {
  it('refuses a request without the identity source before the authorizer runs (401, Bearer)', async () => {
    const base = await start();
    const response = await call(base, '/connectors/v1/providers');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(authorizerCalls).toBe(0);
    expect((await call(base, '/connectors/v1/providers', 'unknown')).status).toBe(401);
  });

  it('evaluates the returned policy against the method ARN: Deny or no matching Allow is 403', async () => {
    const base = await start();
    expect((await call(base, '/connectors/v1/providers', 'no-webhooks')).status).toBe(200);
    const denied = await call(base, '/webhooks/v1/endpoints', 'no-webhooks');
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({ error: { code: 'PERMISSION_DENIED', message: 'Access denied' } });
    expect((await call(base, '/connectors/v1/providers', 'get-only')).status).toBe(200);
    expect((await call(base, '/webhooks/v1/endpoints', 'get-only')).status).toBe(403);
  });

  it('passes its context to the handler as strings, with the principal id', async () => {
    const base = await start();
    const response = await call(base, '/connectors/v1/providers', 'all');
    expect(await response.json()).toEqual({
      authorizer: {
        organizationId: 'org_1',
        keyId: 'key_all',
        system: 'true',
        limit: '3',
        principalId: 'key_all',
      },
    });
  });

  it('answers 500 in the common body when the authorizer fails or returns a context API Gateway refuses', async () => {
    const base = await start();
    for (const token of ['fail', 'nested']) {
      const response = await call(base, '/connectors/v1/providers', token);
      expect({ token, status: response.status }).toEqual({ token, status: 500 });
      expect(await response.json()).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'Internal error' } });
    }
  });

  it("caches the result per Authorization value for the stage's TTL, evaluating it per method ARN", async () => {
    const base = await start({ authorizerCacheTtlSeconds: 60 });
    expect((await call(base, '/connectors/v1/providers', 'no-webhooks')).status).toBe(200);
    expect((await call(base, '/connectors/v1/providers', 'no-webhooks')).status).toBe(200);
    // The cached policy, not a new call, refuses the other route.
    expect((await call(base, '/webhooks/v1/endpoints', 'no-webhooks')).status).toBe(403);
    expect(authorizerCalls).toBe(1);
    expect((await call(base, '/connectors/v1/providers', 'all')).status).toBe(200);
    expect(authorizerCalls).toBe(2);
    now += 60_000;
    expect((await call(base, '/connectors/v1/providers', 'no-webhooks')).status).toBe(200);
    expect(authorizerCalls).toBe(3);
  });

  it('caches nothing with a TTL of 0 (the dev stage)', async () => {
    const base = await start({ authorizerCacheTtlSeconds: 0 });
    await call(base, '/connectors/v1/providers', 'all');
    await call(base, '/connectors/v1/providers', 'all');
    expect(authorizerCalls).toBe(2);
  });
});

describe('the integration', () => {
  it("answers the DEFAULT_5XX response past the integration timeout, and API Gateway's 502 on a failed function", async () => {
    const base = await start({ integrationTimeoutSeconds: 0.3 });
    slowMs = 1_000;
    const late = await call(base, '/connectors/v1/providers', 'all');
    expect(late.status).toBe(500);
    expect(await late.json()).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'Internal error' } });
    slowMs = -1;
    const failed = await call(base, '/connectors/v1/providers', 'all');
    expect(failed.status).toBe(502);
    expect(await failed.json()).toEqual({ message: 'Internal server error' });
  });

  it("answers a function's resource policy refusing API Gateway as API_CONFIGURATION_ERROR: the DEFAULT_5XX 500", async () => {
    const base = await start();
    slowMs = -2;
    const refused = await call(base, '/connectors/v1/providers', 'all');
    expect(refused.status).toBe(500);
    expect(await refused.json()).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'Internal error' } });
    // The authorizer's function refusing it: AUTHORIZER_CONFIGURATION_ERROR, a 500 too.
    slowMs = 0;
    const unauthorizable = await call(base, '/connectors/v1/providers', 'no-permission');
    expect(unauthorizable.status).toBe(500);
    expect(await unauthorizable.json()).toEqual({
      error: { code: 'INTERNAL_ERROR', message: 'Internal error' },
    });
  });
});

describe('evaluatePolicy', () => {
  const arn = 'arn:aws:execute-api:local:000000000000:local/local/GET/connectors/v1/providers';
  it('lets an explicit Deny win over an Allow, and denies what nothing allows', () => {
    const policy = (...Statement: object[]) => ({ Version: '2012-10-17', Statement }) as never;
    expect(evaluatePolicy(policy(allow('arn:aws:execute-api:local:000000000000:local/local/*')), arn)).toBe(
      'Allow',
    );
    expect(
      evaluatePolicy(
        policy(allow('arn:aws:execute-api:*'), deny('arn:aws:execute-api:*/GET/connectors/v1/providers')),
        arn,
      ),
    ).toBe('Deny');
    expect(evaluatePolicy(policy(allow('arn:aws:execute-api:*/POST/*')), arn)).toBe('Deny');
    expect(evaluatePolicy(policy(), arn)).toBe('Deny');
    expect(evaluatePolicy(undefined, arn)).toBe('Deny');
  });
});

describe("the stage's throttling", () => {
  it('answers THROTTLED (429) past the burst, before the authorizer runs, and refills at the rate', async () => {
    const base = await start({ throttling: { rateLimit: 2, burstLimit: 3 } });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1)
      statuses.push((await call(base, '/connectors/v1/providers', 'all')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const throttled = await call(base, '/connectors/v1/providers', 'all');
    expect(await throttled.json()).toEqual({
      error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Too many requests' },
    });
    expect(authorizerCalls).toBe(3);
    now += 500; // half a second at 2 a second: one request more
    expect((await call(base, '/connectors/v1/providers', 'all')).status).toBe(200);
    expect((await call(base, '/connectors/v1/providers', 'all')).status).toBe(429);
  });

  it('is the stage throttling the template sets', () => {
    expect(apiGatewaySettings('dev').throttling).toEqual(STAGE_THROTTLING);
  });
});
