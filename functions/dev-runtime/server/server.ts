// The local server: serves the route table over HTTP by turning requests into API Gateway events for
// the very same handlers and authorizer, on whichever adapters were provided (local or aws).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import type { HandlerLoader } from './lambda-runtime';
import { handlerLoader, lambdaContext } from './lambda-runtime';
import { ROUTES, API_KEY_AUTHORIZER, CONSOLE_AUTHORIZER } from '../../routes';
import type { Deps } from '../../platform/ports';
import type { RouteDefinition } from '../../platform/route-types';
import { WWW_AUTHENTICATE, errorBody } from '../../platform/errors';
import { inInvocationScope, logger } from '../../platform/logger';
import { MAX_BODY_BYTES } from '../../platform/http';
import { matchPath, toAuthorizerEvent, toProxyEvent, writeResult } from './api-gateway-event';
import type { ApiGateway } from './api-gateway';
import { gatewayResponse } from './api-gateway';

type LambdaHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

const MAX_REQUEST_BYTES = 10 * 1024 * 1024; // API Gateway's payload limit (paths outside the route table)

/**
 * How long a client may take: to send its headers, and its whole request. Node's defaults (60 s, 300 s)
 * let a slow-body client hold a socket for five minutes; API Gateway gives a request 30 s in all.
 */
export interface ServerTimeouts {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}
export const SERVER_TIMEOUTS: ServerTimeouts = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 };

/** Extra routes served before the route table (the sandbox provider, development helpers). */
export type Extension = (
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  body: Buffer,
) => Promise<boolean>;

type LoadHandler = (module: string) => Promise<LambdaHandler>;

/** The local server's own answers carry what handler answers carry: a request id, no caching. */
function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  requestId: string = randomUUID(),
): APIGatewayProxyResult {
  return {
    statusCode: status,
    headers: {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
      'X-Request-Id': requestId,
      ...headers,
    },
    body: JSON.stringify(body),
  };
}

function findRoute(
  method: string,
  path: string,
): { route?: RouteDefinition; params?: Record<string, string>; allowed: string[] } {
  const allowed: string[] = [];
  let found: { route: RouteDefinition; params: Record<string, string> } | undefined;
  for (const route of ROUTES) {
    const params = matchPath(route.path, path);
    if (!params) continue;
    allowed.push(route.method);
    if (route.method === method && !found) found = { route, params };
  }
  // HEAD is GET without the body, as RFC 9110 has it (the handler runs; writeResult drops the body).
  if (!found && method === 'HEAD') return { ...findRoute('GET', path), allowed };
  return { ...found, allowed };
}

/** The methods a path answers, for `Allow`: its routes', plus HEAD with GET, plus OPTIONS. */
function allowHeader(methods: string[]): string {
  const all = new Set(methods);
  if (all.has('GET')) all.add('HEAD');
  all.add('OPTIONS');
  return [...all].join(', ');
}

const AUTHORIZERS = {
  apiKey: { handler: API_KEY_AUTHORIZER.handler, refusal: 'Missing or invalid API key' },
  console: { handler: CONSOLE_AUTHORIZER.handler, refusal: 'Missing or invalid console session' },
} as const;

type Authorizer = (e: unknown) => Promise<{ principalId: string; context: Record<string, unknown> }>;

/**
 * Runs the route's authorizer as API Gateway does: no Authorization header or an `Unauthorized`
 * refusal is a 401 in the common body; any other failure of the authorizer is a 500.
 */
async function authorize(
  loadHandler: LoadHandler,
  event: APIGatewayProxyEvent,
  auth: keyof typeof AUTHORIZERS,
): Promise<APIGatewayProxyResult | undefined> {
  const { handler, refusal } = AUTHORIZERS[auth];
  const authorization = event.headers.Authorization ?? event.headers.authorization;
  if (!authorization)
    return json(
      401,
      errorBody('AUTH_INVALID', refusal),
      { ...WWW_AUTHENTICATE },
      event.requestContext.requestId,
    );
  const run = (await loadHandler(handler)) as unknown as Authorizer;
  try {
    const result = await inInvocationScope(() => run(toAuthorizerEvent(event)));
    event.requestContext.authorizer = { ...result.context, principalId: result.principalId };
    return undefined;
  } catch (error) {
    if (error instanceof Error && error.message === 'Unauthorized') {
      return json(
        401,
        errorBody('AUTH_INVALID', refusal),
        { ...WWW_AUTHENTICATE },
        event.requestContext.requestId,
      );
    }
    logger.error('authorizer failed', { error });
    return json(500, errorBody('INTERNAL_ERROR', 'Internal error'), {}, event.requestContext.requestId);
  }
}

/** What API Gateway does before a handler runs: route match, then the route's authorizer. */
async function dispatch(
  loadHandler: LoadHandler,
  request: IncomingMessage,
  body: Buffer,
  url: URL,
  gateway: ApiGateway | undefined,
): Promise<APIGatewayProxyResult> {
  const method = request.method ?? 'GET';
  if (gateway) {
    // API Gateway: a method the REST API does not have (HEAD, OPTIONS, any other) is no route.
    const found = await gateway.match(method, url.pathname);
    if (!found) return gatewayResponse('MISSING_AUTHENTICATION_TOKEN');
    const event = toProxyEvent(request, body, url, {
      resource: found.method.path,
      pathParameters: Object.keys(found.params).length ? found.params : null,
    });
    return gateway.invoke(found.method, event);
  }
  const { route, params, allowed } = findRoute(method, url.pathname);
  if (!route) {
    if (allowed.length === 0)
      return json(404, errorBody('NOT_FOUND', `No route for ${method} ${url.pathname}`));
    const allow = allowHeader(allowed);
    if (method === 'OPTIONS') {
      return { statusCode: 204, headers: { Allow: allow, 'X-Request-Id': randomUUID() }, body: '' };
    }
    return json(
      405,
      errorBody(
        'METHOD_NOT_ALLOWED',
        `Method ${method} is not allowed on ${url.pathname}; allowed: ${allow}`,
      ),
      { Allow: allow },
    );
  }
  const event = toProxyEvent(request, body, url, { resource: route.path, pathParameters: params ?? null });
  if (route.auth !== 'public') {
    const refused = await authorize(loadHandler, event, route.auth);
    if (refused) return refused;
  }
  const handler = await loadHandler(route.handler);
  const context = lambdaContext(route.id, (route.timeoutSeconds ?? 10) * 1000);
  return inInvocationScope(() => handler(event, context));
}

/**
 * `load`: the runtime's handler loader, so routes and workers share one "container" per module.
 * `gateway`: answer as API Gateway does (the emulated AWS runtime); without it, the local server's own
 * answers (405 with Allow, HEAD as GET, OPTIONS).
 */
export function createLocalServer(
  deps: Deps,
  extensions: Extension[] = [],
  load: HandlerLoader = handlerLoader(deps),
  timeouts: ServerTimeouts = SERVER_TIMEOUTS,
  gateway?: ApiGateway,
): Server {
  const loadHandler = load as unknown as LoadHandler;
  const server = createServer(
    {
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      // How often Node looks for requests past those timeouts (its default, 30 s, would blur them).
      connectionsCheckingInterval: Math.min(1_000, timeouts.headersTimeoutMs),
    },
    (request, response) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      // The route's limit, as its handler holds it: reading stops there, not at API Gateway's 10 MiB.
      const routed = findRoute(request.method ?? 'GET', url.pathname).route !== undefined;
      const limit = routed ? MAX_BODY_BYTES : MAX_REQUEST_BYTES;
      const tooLarge = () => {
        request.removeAllListeners('data');
        request.pause();
        response.once('finish', () => request.socket.destroy());
        writeResult(
          response,
          json(413, errorBody('PAYLOAD_TOO_LARGE', `Request body exceeds ${limit} bytes`), {
            Connection: 'close',
          }),
        );
      };
      if (Number(request.headers['content-length'] ?? 0) > limit) return tooLarge();
      const chunks: Buffer[] = [];
      let size = 0;
      request.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) return tooLarge();
        chunks.push(chunk);
      });
      request.on('end', () => {
        void (async () => {
          const body = Buffer.concat(chunks);
          try {
            for (const extension of extensions) {
              if (await extension(request, response, url, body)) return;
            }
            writeResult(response, await dispatch(loadHandler, request, body, url, gateway));
          } catch (error) {
            logger.error('local server failure', { error });
            if (!response.headersSent)
              writeResult(response, json(500, errorBody('INTERNAL_ERROR', 'Internal error')));
            else response.end();
          }
        })();
      });
    },
  );
  // Node answers an over-long request line or header block (its 16 KiB limit) with an empty 431, and a
  // request past its timeouts with an empty 408, on its own; answer in the common error body instead.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable) return void socket.destroy();
    const [status, reason, code, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? ([
            431,
            'Request Header Fields Too Large',
            'HEADERS_TOO_LARGE',
            'The URL and headers exceed 16 KiB',
          ] as const)
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? ([
              408,
              'Request Timeout',
              'INVALID_REQUEST',
              `The request was not received in time (headers within ${timeouts.headersTimeoutMs / 1000} s, ` +
                `all of it within ${timeouts.requestTimeoutMs / 1000} s)`,
            ] as const)
          : ([400, 'Bad Request', 'INVALID_REQUEST', 'Malformed HTTP request'] as const);
    const body = JSON.stringify(errorBody(code, message));
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Cache-Control: no-store\r\nX-Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  // Outlive clients' idle keep-alive sockets (undici drops them after 4 s), as API Gateway does, so a
  // client never reuses a socket the server is closing at that very moment. (The headers timeout runs
  // from a request's first byte, not over an idle keep-alive socket.)
  server.keepAliveTimeout = 65_000;
  return server;
}
