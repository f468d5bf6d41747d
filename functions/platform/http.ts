// The one middy stack every HTTP route is built with: request id and logger, auth context and
// permission from the route table, per-key rate limit, JSON body, zod validation, one error mapper.
// Console routes carry a console session instead of a key: no per-key rate limit (decisions.md).
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import { getOptionalStringFromEnv, stage } from './config';
import type { ConsoleSession } from './console-sessions';
import { CONSOLE_ROLES } from './console-sessions';
import type { Deps } from './ports';
import type { Principal } from './principal';
import {
  AppError,
  AuthInvalidError,
  InvalidRequestError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitExceededError,
  UnsupportedMediaTypeError,
  errorBody,
} from './errors';
import type { ErrorBody } from './errors';
import type { Logger } from './logger';
import { logSink, logger as rootLogger } from './logger';
import { isPermission } from './permissions';
import { PLATFORM_RATE_LIMIT, RateLimiter, customerRateLimit, rateLimitHeaders } from './rate-limit';
import type { DocumentedRoutes, RouteEntry, RouteRequest } from './route-types';
import { routePermissions } from './route-types';
import { mappedStack } from './stack-trace';
import { describeZodError, parseWith } from './validation';

/** Every route's request body limit (the local server stops reading at it too). */
export const MAX_BODY_BYTES = 256 * 1024;

export interface HttpResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** For headers that repeat, such as Set-Cookie. */
  multiValueHeaders?: Record<string, string[]>;
}

export interface RouteInput<B, Q, P, H = undefined> {
  body: B;
  query: Q;
  path: P;
  /** The route's declared request headers (`request.headers`), by their documented names. */
  headers: H;
  event: APIGatewayProxyEvent;
  deps: Deps;
  log: Logger;
  requestId: string;
}

export interface ApiRouteInput<B, Q, P, H = undefined> extends RouteInput<B, Q, P, H> {
  principal: Principal;
}

export interface ConsoleRouteInput<B, Q, P, H = undefined> extends RouteInput<B, Q, P, H> {
  session: ConsoleSession;
}

/** What the route's `request` schema for `part` parses to, or undefined when the route has none. */
type Parsed<R, K extends keyof RouteRequest> = R extends {
  request: { [P in K]: infer S extends z.ZodMiniType };
}
  ? z.output<S>
  : undefined;

type Body<R> = Parsed<R, 'body'>;
type Query<R> = Parsed<R, 'query'>;
type Path<R> = Parsed<R, 'path'>;
type Headers<R> = Parsed<R, 'headers'>;

/** The statuses a handler answers with itself; errors are thrown as named errors. */
type SuccessStatus = 200 | 201 | 202 | 204 | 301 | 302 | 303 | 307 | 308;
/** A route's documented responses: in its entry, or in its area's docs module (DocumentedRoutes). */
type Responses<R> = R extends { responses: infer X }
  ? X
  : R extends { id: infer I extends keyof DocumentedRoutes }
    ? DocumentedRoutes[I] extends { responses: infer X }
      ? X
      : never
    : never;
type Answered<R> = Extract<keyof Responses<R>, SuccessStatus>;
type BodyOf<Response> = Response extends { schema: infer S extends z.ZodMiniType }
  ? { body: z.output<S> }
  : { body?: undefined };

/**
 * What a route's handler returns: one of the success statuses of its route entry, with the body that
 * status's `schema` describes (none where it has no schema). A view that drifts from its documented
 * schema, or an undocumented status, does not compile.
 */
export type RouteResult<R> = {
  [S in Answered<R>]: Omit<HttpResult, 'status' | 'body'> & { status: S } & BodyOf<Responses<R>[S]>;
}[Answered<R>];

export type HttpHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

interface State {
  route: RouteEntry;
  requestId: string;
  log: Logger;
  startedAt: number;
  responseHeaders: Record<string, string>;
  principal?: Principal;
  session?: ConsoleSession;
  /** A browser opened a public route (a connect link, the OAuth callback): errors as a page, not JSON. */
  htmlErrors?: boolean;
}

const states = new WeakMap<APIGatewayProxyEvent, State>();
const stateOf = (event: APIGatewayProxyEvent): State => states.get(event)!;

/** Reads the principal the Lambda authorizer put into the request context. */
export function principalFrom(event: APIGatewayProxyEvent): Principal | undefined {
  const context = event.requestContext?.authorizer as Record<string, unknown> | null | undefined;
  const organizationId = context?.organizationId;
  const keyId = context?.keyId;
  if (typeof organizationId !== 'string' || typeof keyId !== 'string') return undefined;
  const permissions = String(context?.permissions ?? '')
    .split(',')
    .filter(isPermission);
  return { organizationId, keyId, permissions, system: String(context?.system) === 'true' };
}

/** Reads the console session the console authorizer put into the request context. */
export function consoleSessionFrom(event: APIGatewayProxyEvent): ConsoleSession | undefined {
  const context = event.requestContext?.authorizer as Record<string, unknown> | null | undefined;
  const { userId, organizationId, role } = context ?? {};
  if (typeof userId !== 'string' || typeof organizationId !== 'string') return undefined;
  const known = CONSOLE_ROLES.find((r) => r === role);
  return known ? { userId, organizationId, role: known } : undefined;
}

/** The public base URL callers reached us on (custom domain, or the API Gateway stage URL). */
export function publicBaseUrl(event: APIGatewayProxyEvent): string {
  const configured = getOptionalStringFromEnv('PUBLIC_BASE_URL');
  if (configured) return configured.replace(/\/+$/, '');
  const host = event.headers?.Host ?? event.headers?.host ?? 'localhost';
  const proto = event.headers?.['X-Forwarded-Proto'] ?? event.headers?.['x-forwarded-proto'] ?? 'https';
  const stagePath =
    event.requestContext?.stage && event.requestContext.stage !== '$default'
      ? `/${event.requestContext.stage}`
      : '';
  return `${proto}://${host}${stagePath}`;
}

function toResponse(state: State, result: HttpResult): APIGatewayProxyResult {
  const headers: Record<string, string> = {
    'Cache-Control': 'no-store',
    'X-Request-Id': state.requestId,
    ...state.responseHeaders,
    ...result.headers,
  };
  if (result.body !== undefined) headers['Content-Type'] ??= 'application/json';
  return {
    statusCode: result.status,
    headers,
    ...(result.multiValueHeaders ? { multiValueHeaders: result.multiValueHeaders } : {}),
    body:
      result.body === undefined
        ? ''
        : typeof result.body === 'string'
          ? result.body
          : JSON.stringify(result.body),
  };
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The common error, as a page a person can read; the same status and code. */
function htmlError(state: State, status: number, body: ErrorBody, headers: Record<string, string> = {}) {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${status}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem">
<h1>${status === 410 ? 'This link has expired' : status >= 500 ? 'Something went wrong on our side' : 'This link cannot be used'}</h1>
<p>${escapeHtml(body.error.message)}.</p>
<p style="color:#666">Go back to the application that sent you here and start again.
Reference: <code>${escapeHtml(state.requestId)}</code></p></body></html>`;
  return toResponse(state, {
    status,
    body: html,
    headers: {
      ...headers,
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
      'Referrer-Policy': 'no-referrer',
    },
  });
}

function errorResponse(state: State, error: unknown): APIGatewayProxyResult {
  if (error instanceof AppError) {
    if (error.status >= 500) state.log.error('request failed', { error });
    else state.log.info('request refused', { status: error.status, code: error.code, reason: error.message });
    const body = errorBody(error.code, error.message);
    if (state.htmlErrors) return htmlError(state, error.status, body, error.headers);
    return toResponse(state, { status: error.status, body, headers: error.headers });
  }
  // The stack at its original source lines (the bundle's map is read at the first one); redacted as text.
  state.log.error('unhandled error', {
    error:
      error instanceof Error
        ? { name: error.name, message: error.message, stack: mappedStack(error) }
        : String(error),
  });
  const body = errorBody('INTERNAL_ERROR', `Internal error; quote request id ${state.requestId} to support`);
  if (state.htmlErrors) return htmlError(state, 500, body);
  return toResponse(state, { status: 500, body });
}

/**
 * A body labelled as something other than JSON (text/plain, a form, XML) is 415, not read as JSON
 * anyway. No Content-Type at all is read as JSON: a plain `curl -d` or `fetch` sends none or its own.
 */
function assertJsonContentType(event: APIGatewayProxyEvent): void {
  const headers = event.headers ?? {};
  const name = Object.keys(headers).find((h) => h.toLowerCase() === 'content-type');
  const value = name ? headers[name] : undefined;
  if (value === undefined || value.trim() === '') return;
  const type = value.split(';', 1)[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw new UnsupportedMediaTypeError(`Content-Type ${type} is not supported; send application/json`);
  }
}

function readJsonBody(event: APIGatewayProxyEvent): unknown {
  if (event.body === null || event.body === undefined || event.body === '') return undefined;
  assertJsonContentType(event);
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (Buffer.byteLength(raw, 'utf8') > MAX_BODY_BYTES) {
    throw new PayloadTooLargeError(`Request body exceeds ${MAX_BODY_BYTES} bytes`);
  }
  try {
    return JSON.parse(raw);
  } catch {
    throw new InvalidRequestError('Request body is not valid JSON');
  }
}

type AnyRouteInput<B, Q, P, H> = ApiRouteInput<B, Q, P, H> & ConsoleRouteInput<B, Q, P, H>;

type Run<R extends RouteEntry> = (
  input: AnyRouteInput<Body<R>, Query<R>, Path<R>, Headers<R>>,
) => Promise<RouteResult<R>>;

/** What a handler module exports: its Lambda handler, built once from the runtime's ports. */
export type HandlerFactory = (deps: Deps) => HttpHandler;

type Middleware = middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult>;

function newState(route: RouteEntry, event: APIGatewayProxyEvent, awsRequestId: string): State {
  const requestId = event.requestContext?.requestId ?? awsRequestId;
  return {
    route,
    requestId,
    log: rootLogger.child({ requestId, route: route.id }),
    // A duration, not a time of the logic: the monotonic clock.
    startedAt: performance.now(),
    responseHeaders: {},
    htmlErrors:
      route.auth === 'public' && /text\/html/.test(event.headers?.Accept ?? event.headers?.accept ?? ''),
  };
}

function logRequest(state: State, status: number | undefined): void {
  state.log.info('request', {
    method: state.route.method,
    status,
    ms: Math.round(performance.now() - state.startedAt),
  });
}

/** Step 1: request id, logger and timing; every error becomes the common body (or a page). */
function requestScope(route: RouteEntry): Middleware {
  return {
    before: async (request) => {
      states.set(request.event, newState(route, request.event, request.context.awsRequestId));
    },
    after: async (request) => logRequest(stateOf(request.event), request.response?.statusCode),
    onError: async (request) => {
      const state = states.get(request.event) ?? newState(route, request.event, request.context.awsRequestId);
      request.response = errorResponse(state, request.error);
      logRequest(state, request.response.statusCode);
    },
  };
}

function authenticateConsole(state: State, event: APIGatewayProxyEvent): void {
  const session = consoleSessionFrom(event);
  if (!session) throw new AuthInvalidError();
  state.session = session;
  state.log = state.log.child({ organizationId: session.organizationId, userId: session.userId });
}

async function authenticateKey(
  state: State,
  event: APIGatewayProxyEvent,
  limiters: { customer: RateLimiter; platform: RateLimiter },
): Promise<void> {
  const { route } = state;
  const principal = principalFrom(event);
  if (!principal) throw new AuthInvalidError();
  state.principal = principal;
  state.log = state.log.child({ organizationId: principal.organizationId, keyId: principal.keyId });
  // A system key on a platform route (publishing) spends a platform bucket of its own.
  const decision =
    route.rateLimit === 'platform' && principal.system
      ? await limiters.platform.consume(`platform#${principal.keyId}`)
      : await limiters.customer.consume(principal.keyId);
  state.responseHeaders = rateLimitHeaders(decision);
  if (!decision.allowed) throw new RateLimitExceededError(decision.retryAfter, state.responseHeaders);
  if (route.systemOnly && !principal.system)
    throw new PermissionDeniedError('Only a system key may call this route');
  const missing = routePermissions(route).find((permission) => !principal.permissions.includes(permission));
  if (missing) throw new PermissionDeniedError(`This key lacks the ${missing} permission`);
}

/** Step 2: who is calling (the authorizer has run), the per-key rate limit and the route's permission. */
function authentication(route: RouteEntry, deps: Deps): Middleware {
  // Built at the first request, not at module init: the table (and its SDK client) load on first use.
  let limiters: { customer: RateLimiter; platform: RateLimiter } | undefined;
  return {
    before: async (request) => {
      const state = stateOf(request.event);
      if (route.auth === 'console') authenticateConsole(state, request.event);
      else if (route.auth === 'apiKey') {
        limiters ??= {
          customer: new RateLimiter(deps.tables.ratelimits, deps.clock, customerRateLimit()),
          platform: new RateLimiter(deps.tables.ratelimits, deps.clock, PLATFORM_RATE_LIMIT),
        };
        await authenticateKey(state, request.event, limiters);
      }
    },
  };
}

/** A path whose parameters fail their schema (a malformed id) names no resource: 404, saying why. */
function parsePath(schema: z.ZodMiniType, event: APIGatewayProxyEvent): unknown {
  const result = schema.safeParse(event.pathParameters ?? {});
  if (!result.success) throw new NotFoundError(`Nothing at this path: ${describeZodError(result.error)}`);
  return result.data;
}

/** The declared request headers by their documented names (HTTP header names are case-insensitive). */
function declaredHeaders(schema: z.ZodMiniObject, event: APIGatewayProxyEvent): Record<string, string> {
  const sent = new Map(
    Object.entries(event.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const out: Record<string, string> = {};
  for (const name of Object.keys(schema.shape)) {
    const value = sent.get(name.toLowerCase());
    if (value !== undefined && value !== null) out[name] = value;
  }
  return out;
}

/** Step 3: parse with the route's own schemas and run the use case. */
function invoke<R extends RouteEntry>(route: R, run: Run<R>, deps: Deps) {
  const schemas = route.request ?? {};
  return async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
    const state = stateOf(event);
    const input = {
      path: schemas.path ? parsePath(schemas.path, event) : undefined,
      headers: schemas.headers
        ? parseWith(schemas.headers, declaredHeaders(schemas.headers, event), 'headers')
        : undefined,
      body: schemas.body ? parseWith(schemas.body, readJsonBody(event), 'request body') : undefined,
      query: schemas.query
        ? parseWith(schemas.query, event.queryStringParameters ?? {}, 'query parameters')
        : undefined,
      event,
      deps,
      log: state.log,
      requestId: state.requestId,
      principal: state.principal!,
      session: state.session!,
    } as AnyRouteInput<Body<R>, Query<R>, Path<R>, Headers<R>>;
    return toResponse(state, (await run(input)) as HttpResult);
  };
}

function build<R extends RouteEntry>(route: R, run: Run<R>, auth: RouteEntry['auth']): HandlerFactory {
  if (route.auth !== auth) {
    throw new Error(`Route ${route.id} has auth ${route.auth}; build it with the ${route.auth} helper`);
  }
  return (deps) =>
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use({ before: (request) => logSink.addContext(request.context) })
      .use(requestScope(route))
      .use(authentication(route, deps))
      .handler(invoke(route, run, deps)) as unknown as HttpHandler;
}

// Each helper takes the route-table entry itself: the entry's `request` schemas are what the handler
// parses with and what the OpenAPI document shows, and their types flow into `run`.

/** A route called with an API key (the authorizer has run; the key's permission is checked here). */
export function apiRoute<R extends RouteEntry>(
  route: R,
  run: (input: ApiRouteInput<Body<R>, Query<R>, Path<R>, Headers<R>>) => Promise<RouteResult<R>>,
): HandlerFactory {
  return build(route, run, 'apiKey');
}

/** A route called with a console session (the console authorizer has run; roles are core's business). */
export function consoleRoute<R extends RouteEntry>(
  route: R,
  run: (input: ConsoleRouteInput<Body<R>, Query<R>, Path<R>, Headers<R>>) => Promise<RouteResult<R>>,
): HandlerFactory {
  return build(route, run, 'console');
}

/** A route without an API key: a browser or a provider calls it. */
export function publicRoute<R extends RouteEntry>(
  route: R,
  run: (input: RouteInput<Body<R>, Query<R>, Path<R>, Headers<R>>) => Promise<RouteResult<R>>,
): HandlerFactory {
  return build(route, run, 'public');
}

export const isProduction = (): boolean => stage() === 'prod';
