// The API's gateway responses: what API Gateway answers itself (no route, refused or failed
// authorizer, throttled, too large, a failed integration), in the service's one error body. The stack
// configures them on the REST API (lib/api.ts); the emulated AWS runtime answers with the same table.
import type { ErrorCode } from './errors';

/** API Gateway's response types this API customizes (a subset of its GatewayResponseType values). */
export type GatewayResponseType =
  | 'UNAUTHORIZED'
  | 'ACCESS_DENIED'
  | 'MISSING_AUTHENTICATION_TOKEN'
  | 'THROTTLED'
  | 'REQUEST_TOO_LARGE'
  | 'DEFAULT_4XX'
  | 'DEFAULT_5XX';

export interface GatewayResponse {
  /** The construct id of the response in the stack. */
  name: string;
  type: GatewayResponseType;
  statusCode: number;
  code: ErrorCode;
  message: string;
}

export const GATEWAY_RESPONSES: readonly GatewayResponse[] = [
  {
    name: 'Unauthorized',
    type: 'UNAUTHORIZED',
    statusCode: 401,
    code: 'AUTH_INVALID',
    message: 'Missing or invalid API key',
  },
  {
    name: 'AccessDenied',
    type: 'ACCESS_DENIED',
    statusCode: 403,
    code: 'PERMISSION_DENIED',
    message: 'Access denied',
  },
  {
    name: 'MissingToken',
    type: 'MISSING_AUTHENTICATION_TOKEN',
    statusCode: 404,
    code: 'NOT_FOUND',
    message: 'No such route',
  },
  {
    name: 'Throttled',
    type: 'THROTTLED',
    statusCode: 429,
    code: 'RATE_LIMIT_EXCEEDED',
    message: 'Too many requests',
  },
  {
    name: 'TooLarge',
    type: 'REQUEST_TOO_LARGE',
    statusCode: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: 'Request too large',
  },
  {
    name: 'Default4xx',
    type: 'DEFAULT_4XX',
    statusCode: 400,
    code: 'INVALID_REQUEST',
    message: 'Invalid request',
  },
  {
    name: 'Default5xx',
    type: 'DEFAULT_5XX',
    statusCode: 500,
    code: 'INTERNAL_ERROR',
    message: 'Internal error',
  },
];

/** The headers a gateway response adds: RFC 6750's scheme on a 401. */
export const gatewayResponseHeaders = (response: GatewayResponse): Record<string, string> =>
  response.statusCode === 401 ? { 'WWW-Authenticate': 'Bearer' } : {};

/** API Gateway's integration timeout for every route (its REST limit, 29 s). */
export const INTEGRATION_TIMEOUT_SECONDS = 29;

/**
 * The stage's throttling (steady requests per second, and the burst the token bucket holds): the stack
 * sets it on the stage (lib/api.ts) and the emulated AWS runtime's API Gateway applies it.
 */
export const STAGE_THROTTLING = { rateLimit: 1000, burstLimit: 2000 } as const;

/** How long API Gateway caches an authorizer's answer per identity source (Authorization), by stage. */
export const AUTHORIZER_CACHE_TTL_SECONDS = { dev: 0, prod: 60 } as const;
