// The iManage Work fake (Work REST API v2 and its OAuth 2 code flow), served per customer server under
// /imanage/{server} on the sandbox origin: API_URL `<origin>/imanage/{server}` stands for
// https://{server}, so a sandbox connection to `work.firm.example` talks to
// `/imanage/work.firm.example/...`, and its grants are good on that server only.
// OAuth, as iManage's Work API describes it:
//   GET  /auth/oauth2/authorize   consent; the one scope `user`
//   POST /auth/oauth2/token       client credentials in the form; a refresh answers the same refresh token
// No revocation endpoint. The API: ./work.ts, the access token in X-Auth-Token (the bare token, as
// iManage's documentation sends it; `Authorization: Bearer` alone is no token: 401 AUTH_REQUIRED).
// Errors `{error: {code, message}}`; 401 AUTH_REQUIRED; 429 TOO_MANY_REQUESTS with Retry-After.
import { SandboxApiError } from '../../content/http';
import type { InjectedError } from '../../content/types';
import type { ProviderFake } from '../fake';
import { IMANAGE_SCOPE, imanageIds, imanageUserId, sendWorkError, workError, workRoutes } from './work';

/** A DNS host name (two labels or more, the last not numeric): no IP literal, no port, any case. */
const HOST_NAME =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

const CODES: Record<number, string> = {
  400: 'INVALID_PARAMETER',
  401: 'AUTH_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'FILE_TOO_LARGE',
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
};

function injected(failure: InjectedError): SandboxApiError {
  const retryAfter: Record<string, string> =
    failure.retryAfter !== undefined ? { 'Retry-After': String(failure.retryAfter) } : {};
  if (failure.status === 401) return workError(401, 'AUTH_REQUIRED', 'The access token is not valid');
  if (failure.status === 429 || failure.status === 403)
    return workError(429, 'TOO_MANY_REQUESTS', 'Too many requests', retryAfter);
  if (failure.status === 503) return workError(503, 'SERVICE_UNAVAILABLE', 'Service unavailable', retryAfter);
  return workError(500, 'INTERNAL_ERROR', 'Internal error');
}

export const imanageFake: ProviderFake = {
  id: 'imanage',
  prefix: '/imanage',
  tenant: { accepts: (value) => HOST_NAME.test(value) },
  shape: 'drive',
  accountId: imanageUserId,
  oauth: {
    authorizePath: '/auth/oauth2/authorize',
    tokenPath: '/auth/oauth2/token',
    refresh: 'same',
    offline: 'always',
    scopesInRequest: true,
  },
  scopes: [IMANAGE_SCOPE],
  accessTokenHeader: 'X-Auth-Token',
  routes: workRoutes(),
  // The framework's own refusals (no route, a framework 4xx) in iManage's words; the routes' own
  // errors already carry iManage's codes.
  sendError: (response, error) =>
    sendWorkError(
      response,
      /^[A-Z_]+$/.test(error.code)
        ? error
        : new SandboxApiError(
            error.status,
            CODES[error.status] ?? 'INTERNAL_ERROR',
            error.description,
            error.headers,
          ),
    ),
  injected,
  unauthorized: () => workError(401, 'AUTH_REQUIRED', 'The access token is not valid'),
  forbidden: () => workError(403, 'FORBIDDEN', 'The token does not grant this'),
  ids: imanageIds,
  endpoints: (origin) => ({
    authorizeUrl: `${origin}/imanage/{server}/auth/oauth2/authorize`,
    tokenUrl: `${origin}/imanage/{server}/auth/oauth2/token`,
    accountUrl: `${origin}/imanage/{server}/api`,
    apiUrl: `${origin}/imanage/{server}`,
    extra: {},
  }),
};
