// Turns a Node HTTP request into the API Gateway (REST, proxy) event a Lambda handler receives,
// and the handler's result back into an HTTP response.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type {
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
} from 'aws-lambda';
import { systemClock } from '../../platform/clock';

export interface MatchedRoute {
  resource: string;
  pathParameters: Record<string, string> | null;
}

/**
 * A map keyed by what a client sent (header names, query names, path values): no prototype, so a name
 * such as `constructor`, `__proto__` or `toString` is an entry like any other, never an inherited member.
 */
const clientMap = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;

/** Matches /a/{id}/b against /a/123/b. */
export function matchPath(template: string, path: string): Record<string, string> | undefined {
  const t = template.split('/');
  const p = path.split('/');
  if (t.length !== p.length) return undefined;
  const params = clientMap<string>();
  for (let i = 0; i < t.length; i++) {
    const segment = t[i]!;
    const actual = p[i]!;
    if (segment.startsWith('{') && segment.endsWith('}')) {
      if (!actual) return undefined;
      try {
        params[segment.slice(1, -1)] = decodeURIComponent(actual);
      } catch {
        return undefined;
      }
    } else if (segment !== actual) return undefined;
  }
  return params;
}

export function toProxyEvent(
  request: IncomingMessage,
  body: Buffer,
  url: URL,
  route: MatchedRoute,
): APIGatewayProxyEvent {
  const headers = clientMap<string>();
  const multiValueHeaders = clientMap<string[]>();
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    const name = request.rawHeaders[i]!;
    const value = request.rawHeaders[i + 1]!;
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  }
  const query = clientMap<string>();
  const multiQuery = clientMap<string[]>();
  for (const [k, v] of url.searchParams) {
    query[k] = v;
    (multiQuery[k] ??= []).push(v);
  }
  const hasQuery = Object.keys(query).length > 0;
  const requestId = randomUUID();
  return {
    resource: route.resource,
    path: url.pathname,
    httpMethod: request.method ?? 'GET',
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery ? multiQuery : null,
    pathParameters:
      route.pathParameters && Object.keys(route.pathParameters).length ? route.pathParameters : null,
    stageVariables: null,
    body: body.length ? body.toString('utf8') : null,
    isBase64Encoded: false,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      authorizer: null,
      httpMethod: request.method ?? 'GET',
      identity: {
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['User-Agent'] ?? headers['user-agent'] ?? null,
      } as APIGatewayProxyEvent['requestContext']['identity'],
      path: url.pathname,
      protocol: 'HTTP/1.1',
      requestId,
      requestTimeEpoch: systemClock.now(),
      resourceId: 'local',
      resourcePath: route.resource,
      stage: '$default',
    },
  };
}

export function toAuthorizerEvent(event: APIGatewayProxyEvent): APIGatewayRequestAuthorizerEvent {
  return {
    type: 'REQUEST',
    methodArn: `arn:aws:execute-api:local:local:local/$default/${event.httpMethod}${event.resource}`,
    resource: event.resource,
    path: event.path,
    httpMethod: event.httpMethod,
    headers: event.headers as Record<string, string>,
    multiValueHeaders: event.multiValueHeaders as Record<string, string[]>,
    pathParameters: event.pathParameters,
    queryStringParameters: event.queryStringParameters,
    multiValueQueryStringParameters: event.multiValueQueryStringParameters,
    stageVariables: null,
    requestContext: event.requestContext,
  } as APIGatewayRequestAuthorizerEvent;
}

export function writeResult(response: ServerResponse, result: APIGatewayProxyResult): void {
  response.statusCode = result.statusCode;
  for (const [name, value] of Object.entries(result.headers ?? {})) response.setHeader(name, String(value));
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) {
    response.setHeader(name, values.map(String));
  }
  response.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}
