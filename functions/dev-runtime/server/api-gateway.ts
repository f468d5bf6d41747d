// What API Gateway does in front of the route functions, for the emulated AWS runtime: the REST API the
// stack builds from the route table (lib/api.ts), its gateway responses (platform/gateway-responses.ts),
// the REQUEST authorizers with their identity source (Authorization), their returned policy evaluated
// against the method ARN and cached per identity source for the stage's TTL, their context passed to
// the handler as strings, the stage's throttling, and the integration's 29 s timeout. `npm start` keeps the local server's own
// answers (405 with Allow, HEAD as GET, OPTIONS); see docs/deploy.md for what differs.
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import type { GatewayResponseType } from '../../platform/gateway-responses';
import {
  AUTHORIZER_CACHE_TTL_SECONDS,
  GATEWAY_RESPONSES,
  INTEGRATION_TIMEOUT_SECONDS,
  STAGE_THROTTLING,
  gatewayResponseHeaders,
} from '../../platform/gateway-responses';
import { logger } from '../../platform/logger';
import type { RouteDefinition } from '../../platform/route-types';
import { API_KEY_AUTHORIZER, CONSOLE_AUTHORIZER, ROUTES } from '../../routes';
import { matchPath, toAuthorizerEvent } from './api-gateway-event';
import type { FunctionRef, Invoker } from './lambda-runtime';
import { FunctionTimeoutError } from './lambda-runtime';
import { systemClock } from '../../platform/clock';

export interface ApiGatewaySettings {
  /** The stage whose settings the template gives (the authorizer cache TTL): dev 0 s, prod 60 s. */
  authorizerCacheTtlSeconds: number;
  /** API Gateway's integration timeout (29 s); tests shorten it. */
  integrationTimeoutSeconds: number;
  /** The stage's throttling from the template (STAGE_THROTTLING); tests lower it. */
  throttling: { rateLimit: number; burstLimit: number };
}

export const apiGatewaySettings = (stage: keyof typeof AUTHORIZER_CACHE_TTL_SECONDS): ApiGatewaySettings => ({
  authorizerCacheTtlSeconds: AUTHORIZER_CACHE_TTL_SECONDS[stage],
  integrationTimeoutSeconds: INTEGRATION_TIMEOUT_SECONDS,
  throttling: STAGE_THROTTLING,
});

/**
 * API Gateway's stage throttling: a token bucket holding `burstLimit` requests, refilled at `rateLimit`
 * a second; a request finding it empty is THROTTLED (429) before its authorizer or function runs.
 */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly limits: { rateLimit: number; burstLimit: number },
    now: number,
  ) {
    this.tokens = limits.burstLimit;
    this.at = now;
  }

  take(now: number): boolean {
    this.tokens = Math.min(
      this.limits.burstLimit,
      this.tokens + ((now - this.at) / 1000) * this.limits.rateLimit,
    );
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** Lambda's default timeout in the stack (lib/service-function.ts) for a function that sets none. */
const DEFAULT_FUNCTION_TIMEOUT_SECONDS = 10;

const AUTHORIZER_FUNCTIONS = {
  apiKey: { id: 'apiKeyAuthorizer', handler: API_KEY_AUTHORIZER.handler },
  console: { id: 'consoleAuthorizer', handler: CONSOLE_AUTHORIZER.handler },
} as const;

/**
 * API Gateway's answer of `type` as the template configures it: the type's own response, or else the
 * DEFAULT_4XX / DEFAULT_5XX one, whose status code replaces every unconfigured type's in its class.
 */
export function gatewayResponse(
  type:
    | GatewayResponseType
    | 'AUTHORIZER_FAILURE'
    | 'AUTHORIZER_CONFIGURATION_ERROR'
    | 'INTEGRATION_TIMEOUT'
    | 'API_CONFIGURATION_ERROR',
): APIGatewayProxyResult {
  const fallback =
    type.startsWith('AUTHORIZER') || type.startsWith('INTEGRATION') || type.startsWith('API_CONFIGURATION')
      ? 'DEFAULT_5XX'
      : 'DEFAULT_4XX';
  const response =
    GATEWAY_RESPONSES.find((r) => r.type === type) ?? GATEWAY_RESPONSES.find((r) => r.type === fallback)!;
  return {
    statusCode: response.statusCode,
    headers: {
      'Content-Type': 'application/json',
      'X-Request-Id': randomUUID(),
      ...gatewayResponseHeaders(response),
    },
    body: JSON.stringify({ error: { code: response.code, message: response.message } }),
  };
}

/** Lambda refused the invocation itself (AccessDeniedException: the function's resource policy). */
const refusedByLambda = (error: unknown) =>
  (error as { name?: string } | undefined)?.name === 'AccessDeniedException';

/** A Lambda proxy integration whose function failed (an error, a timeout): API Gateway's own 502. */
const integrationFailure = (): APIGatewayProxyResult => ({
  statusCode: 502,
  headers: { 'Content-Type': 'application/json', 'X-Request-Id': randomUUID() },
  body: JSON.stringify({ message: 'Internal server error' }),
});

type Statement = { Effect?: unknown; Action?: unknown; Resource?: unknown };

/** An IAM ARN pattern (`*` any run of characters, `?` one) against an ARN. */
export function arnMatches(pattern: string, arn: string): boolean {
  const regex = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${regex}$`).test(arn);
}

const list = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)];

/**
 * IAM's evaluation of an authorizer's policy for `execute-api:Invoke` on `methodArn`: an explicit Deny
 * wins, then an Allow that matches; nothing matching is a Deny.
 */
export function evaluatePolicy(
  policy: APIGatewayAuthorizerResult['policyDocument'] | undefined,
  methodArn: string,
): 'Allow' | 'Deny' {
  const statements = (Array.isArray(policy?.Statement) ? policy.Statement : []) as Statement[];
  const matching = statements.filter(
    (s) =>
      list(s.Action).some((a) => a === '*' || arnMatches(a, 'execute-api:Invoke')) &&
      list(s.Resource).some((r) => arnMatches(r, methodArn)),
  );
  if (matching.some((s) => s.Effect === 'Deny')) return 'Deny';
  return matching.some((s) => s.Effect === 'Allow') ? 'Allow' : 'Deny';
}

/** An authorizer's result that API Gateway cannot use (no policy, a context value not a scalar). */
export class AuthorizerConfigurationError extends Error {
  constructor(reason: string) {
    super(`Authorizer result refused: ${reason}`);
    this.name = 'AuthorizerConfigurationError';
  }
}

/** API Gateway passes the authorizer's context to the integration with every value as a string. */
export function contextAsStrings(
  context: Record<string, unknown> | undefined | null,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(context ?? {})) {
    if (value === null || value === undefined) continue;
    if (typeof value === 'object') throw new AuthorizerConfigurationError(`context.${key} is not a scalar`);
    out[key] = String(value as string | number | boolean);
  }
  return out;
}

interface CachedResult {
  principalId: string;
  policy: APIGatewayAuthorizerResult['policyDocument'];
  context: Record<string, string>;
  expiresAt: number;
}

/**
 * The method ARN API Gateway gives the authorizer and evaluates its policy against: the request's own
 * path (`/connectors/v1/connections/conn_…`), not the resource's template.
 */
export const methodArn = (method: string, path: string) =>
  `arn:aws:execute-api:local:000000000000:local/local/${method}${path}`;

/** A method of the REST API as the gateway runs it: the synthesized template's, or the route table's. */
export interface GatewayMethod {
  method: string;
  /** The resource path, its parameters in braces (/connectors/v1/connections/{id}). */
  path: string;
  /** The integration's function. */
  fn: FunctionRef;
  /** The integration's timeout (TimeoutInMillis; API Gateway's 29 s at most). */
  integrationTimeoutSeconds: number;
  /** A REQUEST authorizer: its function, its result's cache TTL, its identity source's header. */
  authorizer?: { fn: FunctionRef; ttlSeconds: number; identityHeader: string };
}

/** The route table's methods, as lib/api.ts makes the template's from it (the gateway's unit tests). */
export function routeTableMethods(
  routes: readonly RouteDefinition[],
  settings: ApiGatewaySettings,
): GatewayMethod[] {
  return routes.map((route) => ({
    method: route.method,
    path: route.path,
    fn: {
      id: route.id,
      handler: route.handler,
      timeoutSeconds: route.timeoutSeconds ?? DEFAULT_FUNCTION_TIMEOUT_SECONDS,
    },
    integrationTimeoutSeconds: settings.integrationTimeoutSeconds,
    ...(route.auth === 'public'
      ? {}
      : {
          authorizer: {
            fn: { ...AUTHORIZER_FUNCTIONS[route.auth], timeoutSeconds: DEFAULT_FUNCTION_TIMEOUT_SECONDS },
            ttlSeconds: settings.authorizerCacheTtlSeconds,
            identityHeader: 'Authorization',
          },
        }),
  }));
}

export class ApiGateway {
  private readonly cache = new Map<string, CachedResult>();
  private readonly bucket: TokenBucket;
  private readonly methods: Promise<GatewayMethod[]>;

  /**
   * `methods`: the REST API's methods (default: the route table's); the emulated AWS runtime gives
   * the synthesized template's once it has read it.
   */
  constructor(
    private readonly invokeFunction: Invoker,
    private readonly settings: ApiGatewaySettings,
    methods?: GatewayMethod[] | Promise<GatewayMethod[]>,
    private readonly now: () => number = systemClock.now,
  ) {
    this.bucket = new TokenBucket(settings.throttling, now());
    this.methods = Promise.resolve(methods ?? routeTableMethods(ROUTES, settings));
  }

  /** The method a request is for, with its path parameters; undefined: API Gateway has none. */
  async match(
    method: string,
    path: string,
  ): Promise<{ method: GatewayMethod; params: Record<string, string> } | undefined> {
    for (const candidate of await this.methods) {
      if (candidate.method !== method) continue;
      const params = matchPath(candidate.path, path);
      if (params) return { method: candidate, params };
    }
    return undefined;
  }

  /** Runs the method as API Gateway would: its authorizer, then its integration within the timeouts. */
  async invoke(method: GatewayMethod, event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
    const arn = methodArn(method.method, event.path);
    event.requestContext.stage = 'local';
    if (!this.bucket.take(this.now())) return gatewayResponse('THROTTLED');
    if (method.authorizer) {
      const refused = await this.authorize(method.authorizer, event, arn);
      if (refused) return refused;
    }
    const fn = method.fn;
    let timer: NodeJS.Timeout | undefined;
    const integrationTimeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), method.integrationTimeoutSeconds * 1000);
    });
    try {
      const result = await Promise.race([this.invokeFunction(fn, event), integrationTimeout]);
      if (result === 'timeout') {
        logger.error('integration timed out', {
          route: fn.id,
          seconds: method.integrationTimeoutSeconds,
        });
        return gatewayResponse('INTEGRATION_TIMEOUT');
      }
      return result as APIGatewayProxyResult;
    } catch (error) {
      // Lambda refused API Gateway (the function's resource policy): "Invalid permissions on Lambda
      // function", API_CONFIGURATION_ERROR, 500 (the template's DEFAULT_5XX where it has one).
      if (refusedByLambda(error)) {
        logger.error('API Gateway may not invoke the function', { route: fn.id, error });
        return gatewayResponse('API_CONFIGURATION_ERROR');
      }
      logger.error(error instanceof FunctionTimeoutError ? 'function timed out' : 'function failed', {
        route: fn.id,
        error,
      });
      return integrationFailure();
    } finally {
      clearTimeout(timer);
    }
  }

  private async authorize(
    authorizer: NonNullable<GatewayMethod['authorizer']>,
    event: APIGatewayProxyEvent,
    arn: string,
  ): Promise<APIGatewayProxyResult | undefined> {
    // The identity source: a request without it is refused before the authorizer runs.
    const header = authorizer.identityHeader;
    const identity = event.headers[header] ?? event.headers[header.toLowerCase()];
    if (!identity) return gatewayResponse('UNAUTHORIZED');
    const fn = authorizer.fn;
    const key = `${fn.id}\n${identity}`;
    let cached = this.cache.get(key);
    if (!cached || cached.expiresAt <= this.now()) {
      this.cache.delete(key);
      try {
        const authorizerEvent = { ...toAuthorizerEvent(event), methodArn: arn };
        const result = (await this.invokeFunction(fn, authorizerEvent)) as APIGatewayAuthorizerResult;
        if (!result?.principalId || !result.policyDocument) {
          throw new AuthorizerConfigurationError('no principalId or policyDocument');
        }
        cached = {
          principalId: String(result.principalId),
          policy: result.policyDocument,
          context: contextAsStrings(result.context),
          expiresAt: this.now() + authorizer.ttlSeconds * 1000,
        };
      } catch (error) {
        // A Lambda authorizer refuses with the error message Unauthorized (its errorMessage, when it ran
        // in an execution environment of its own).
        const message = (error as { errorMessage?: string }).errorMessage ?? (error as Error).message;
        if (message === 'Unauthorized') return gatewayResponse('UNAUTHORIZED');
        logger.error('authorizer failed', { authorizer: fn.id, error });
        return gatewayResponse(
          error instanceof AuthorizerConfigurationError || refusedByLambda(error)
            ? 'AUTHORIZER_CONFIGURATION_ERROR'
            : 'AUTHORIZER_FAILURE',
        );
      }
      if (authorizer.ttlSeconds > 0) this.cache.set(key, cached);
    }
    // A cached policy is evaluated against this request's method ARN, as API Gateway does.
    if (evaluatePolicy(cached.policy, arn) !== 'Allow') return gatewayResponse('ACCESS_DENIED');
    event.requestContext.authorizer = { ...cached.context, principalId: cached.principalId };
    return undefined;
  }
}
