// The Dropbox fake (API v2 and Dropbox's OAuth 2 code flow), served under /dropbox on the sandbox
// origin: API_URL `<origin>/dropbox` stands for https://api.dropboxapi.com, CONTENT_URL
// `<origin>/dropbox/content` for https://content.dropboxapi.com.
// OAuth, as Dropbox's documentation describes it:
//   GET  /oauth2/authorize   consent; a refresh token only with token_access_type=offline
//   POST /oauth2/token       a refresh answers no new refresh token
//   POST /2/auth/token/revoke   the access token in Authorization, no body -> 200 null
// Files: ./files.ts (list_folder, downloads, uploads and upload sessions, as Dropbox serves them).
// Errors as Dropbox words them: JSON `{error_summary, error}` for auth, endpoint and throttling errors
// (429 with `retry_after` and Retry-After), plain text for 5xx and bad requests.
import type { ServerResponse } from 'node:http';
import { SandboxApiError } from '../../content/http';
import type { InjectedError } from '../../content/types';
import type { ProviderFake } from '../fake';
import {
  DropboxError,
  dropboxAccountId,
  dropboxFileRoutes,
  dropboxIds,
  endpointError,
  rateLimited,
  sendDropboxFailure,
} from './files';

/** The framework's failures (no token, a missing scope, an injected one) in Dropbox's words. */
function sendDropboxError(response: ServerResponse, error: SandboxApiError): void {
  const retryAfter = Number(error.headers['Retry-After'] ?? 1);
  let failure: DropboxError;
  if (error.code === 'too_many_requests' || error.code === 'too_many_write_operations')
    failure = rateLimited(error.code, retryAfter);
  else if (error.status === 401)
    failure = new DropboxError(
      401,
      {
        error_summary: `${error.code}/..`,
        error: {
          '.tag': error.code,
          ...(error.code === 'missing_scope' ? { required_scope: error.description } : {}),
        },
      },
      error.headers,
    );
  else if (error.status === 409) failure = endpointError(error.code.split('/'));
  else if (error.status >= 500)
    failure = new DropboxError(error.status, error.description ?? 'Internal Server Error', error.headers);
  else if (error.status === 404) failure = new DropboxError(404, 'Unknown API function');
  else
    failure = new DropboxError(
      error.status,
      `Error in call to API function: ${error.description ?? error.code}`,
      error.headers,
    );
  sendDropboxFailure(response, failure);
}

const unauthorized = () => new SandboxApiError(401, 'invalid_access_token');

function injected(failure: InjectedError): SandboxApiError {
  const retryAfter: Record<string, string> =
    failure.retryAfter !== undefined ? { 'Retry-After': String(failure.retryAfter) } : {};
  if (failure.status === 401) return unauthorized();
  if (failure.status === 429 || failure.status === 403)
    return new SandboxApiError(429, failure.reason ?? 'too_many_requests', undefined, retryAfter);
  if (failure.status === 503)
    return new SandboxApiError(503, 'service_unavailable', 'Service Unavailable', retryAfter);
  return new SandboxApiError(500, 'internal_error', 'Internal Server Error');
}

export const dropboxFake: ProviderFake = {
  accountId: dropboxAccountId,
  id: 'dropbox',
  prefix: '/dropbox',
  shape: 'drive',
  oauth: {
    authorizePath: '/oauth2/authorize',
    tokenPath: '/oauth2/token',
    revokePath: '/2/auth/token/revoke',
    revocation: 'bearer',
    refresh: 'omit',
    offline: { param: 'token_access_type', value: 'offline' },
    scopesInRequest: true,
    tokenExtras: ({ accountId }) => ({ account_id: dropboxAccountId(accountId), uid: accountId }),
  },
  scopes: ['account_info.read', 'files.metadata.read', 'files.content.read', 'files.content.write'],
  routes: dropboxFileRoutes(),
  sendError: sendDropboxError,
  injected,
  unauthorized,
  forbidden: (scopes) => new SandboxApiError(401, 'missing_scope', scopes[0]),
  ids: dropboxIds,
  endpoints: (origin) => ({
    authorizeUrl: `${origin}/dropbox/oauth2/authorize`,
    tokenUrl: `${origin}/dropbox/oauth2/token`,
    revokeUrl: `${origin}/dropbox/2/auth/token/revoke`,
    accountUrl: `${origin}/dropbox/2/users/get_current_account`,
    apiUrl: `${origin}/dropbox`,
    extra: { CONTENT_URL: `${origin}/dropbox/content` },
  }),
};
