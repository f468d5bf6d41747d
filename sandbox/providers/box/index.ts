// The Box fake (API 2.0 and Box's OAuth 2 code flow), served under /box on the sandbox origin: API_URL
// `<origin>/box/2.0` stands for https://api.box.com/2.0, UPLOAD_URL `<origin>/box/upload/api/2.0` for
// https://upload.box.com/api/2.0, `<origin>/box/dl/...` for the download host a file's content
// redirects to.
// OAuth, as Box's documentation describes it:
//   GET  /api/oauth2/authorize   consent (account.box.com); scopes root_readonly | root_readwrite
//   POST /oauth2/token           every grant has a refresh token; a refresh answers a new one, the old spent
//   POST /oauth2/revoke          RFC 7009 style: token, client_id and client_secret as a form
// Files: ./files.ts. Errors as Box words them: JSON `{type: "error", status, code, ...}`; 401 without a
// body; 429 `too_many_requests` with Retry-After.
import type { ServerResponse } from 'node:http';
import { SandboxApiError } from '../../content/http';
import type { InjectedError } from '../../content/types';
import type { ProviderFake } from '../fake';
import { BOX_READ, BOX_WRITE, BoxError, boxFileRoutes, boxIds, boxUserId, sendBoxFailure } from './files';

/** The framework's failures (no token, a missing scope, an injected one) in Box's words. */
function sendBoxError(response: ServerResponse, error: SandboxApiError): void {
  const messages: Record<number, string> = {
    401: 'Unauthorized',
    403: 'The request requires higher privileges than provided by the access token.',
    404: 'Not Found',
    405: 'Method Not Allowed',
    429: 'Request rate limit exceeded, please try again later',
    500: 'Internal Server Error',
    503: 'Unavailable',
  };
  const code =
    error.status === 403
      ? 'insufficient_scope'
      : error.status === 429
        ? 'too_many_requests'
        : error.status === 503
          ? 'unavailable'
          : error.status >= 500
            ? 'internal_server_error'
            : error.status === 404
              ? 'not_found'
              : error.status === 405
                ? 'method_not_allowed'
                : 'bad_request';
  sendBoxFailure(
    response,
    new BoxError(error.status, code, messages[error.status] ?? error.description ?? code, error.headers),
  );
}

function injected(failure: InjectedError): SandboxApiError {
  const retryAfter: Record<string, string> =
    failure.retryAfter !== undefined ? { 'Retry-After': String(failure.retryAfter) } : {};
  if (failure.status === 401) return new SandboxApiError(401, 'invalid_token');
  if (failure.status === 429 || failure.status === 403)
    return new SandboxApiError(429, 'too_many_requests', undefined, retryAfter);
  if (failure.status === 503) return new SandboxApiError(503, 'unavailable', undefined, retryAfter);
  return new SandboxApiError(500, 'internal_server_error');
}

export const boxFake: ProviderFake = {
  id: 'box',
  prefix: '/box',
  shape: 'drive',
  accountId: boxUserId,
  oauth: {
    authorizePath: '/api/oauth2/authorize',
    tokenPath: '/oauth2/token',
    revokePath: '/oauth2/revoke',
    revocation: 'rfc7009',
    refresh: 'rotate',
    offline: 'always',
    scopesInRequest: true,
    tokenExtras: () => ({ restricted_to: [] }),
  },
  scopes: [BOX_READ, BOX_WRITE],
  routes: boxFileRoutes(),
  sendError: sendBoxError,
  injected,
  unauthorized: () => new SandboxApiError(401, 'invalid_token'),
  forbidden: (scopes) => new SandboxApiError(403, 'insufficient_scope', scopes[0]),
  ids: boxIds,
  endpoints: (origin) => ({
    authorizeUrl: `${origin}/box/api/oauth2/authorize`,
    tokenUrl: `${origin}/box/oauth2/token`,
    revokeUrl: `${origin}/box/oauth2/revoke`,
    accountUrl: `${origin}/box/2.0/users/me`,
    apiUrl: `${origin}/box/2.0`,
    extra: { UPLOAD_URL: `${origin}/box/upload/api/2.0` },
  }),
};
