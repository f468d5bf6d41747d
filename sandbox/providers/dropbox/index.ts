// The Dropbox fake (API v2 and Dropbox's OAuth 2 code flow), served under /dropbox on the sandbox
// origin: API_URL `<origin>/dropbox` stands for https://api.dropboxapi.com, CONTENT_URL
// `<origin>/dropbox/content` for https://content.dropboxapi.com.
// OAuth, as Dropbox's documentation describes it:
//   GET  /oauth2/authorize   consent; a refresh token only with token_access_type=offline
//   POST /oauth2/token       a refresh answers no new refresh token
//   POST /2/auth/token/revoke   the access token in Authorization, no body -> 200 null
// Milestone 1: OAuth and the account; the files routes are the providers-b branch's.
import type { ServerResponse } from 'node:http';
import { SandboxApiError, sendJson } from '../../content/http';
import type { InjectedError } from '../../content/types';
import type { ProviderFake } from '../fake';

function sendDropboxError(response: ServerResponse, error: SandboxApiError): void {
  const tag = { '.tag': error.code };
  sendJson(response, error.status, { error_summary: `${error.code}/`, error: tag }, error.headers);
}

const unauthorized = () => new SandboxApiError(401, 'invalid_access_token');

function injected(failure: InjectedError): SandboxApiError {
  const retryAfter: Record<string, string> =
    failure.retryAfter !== undefined ? { 'Retry-After': String(failure.retryAfter) } : {};
  if (failure.status === 401) return unauthorized();
  if (failure.status === 429 || failure.status === 403)
    return new SandboxApiError(429, failure.reason ?? 'too_many_requests', undefined, retryAfter);
  if (failure.status === 503) return new SandboxApiError(503, 'service_unavailable', undefined, retryAfter);
  return new SandboxApiError(500, 'internal_error');
}

export const dropboxFake: ProviderFake = {
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
    tokenExtras: ({ accountId }) => ({ account_id: accountId, uid: accountId }),
  },
  scopes: ['account_info.read', 'files.metadata.read', 'files.content.read', 'files.content.write'],
  routes: [
    {
      method: 'POST',
      path: '/2/users/get_current_account',
      scopes: ['account_info.read'],
      handle: ({ grant, response }) =>
        sendJson(response, 200, {
          account_id: grant.accountId,
          email: grant.email,
          name: { display_name: grant.name },
        }),
    },
  ],
  sendError: sendDropboxError,
  injected,
  unauthorized,
  forbidden: (scopes) => new SandboxApiError(401, 'missing_scope', `needs ${scopes.join(' or ')}`),
  endpoints: (origin) => ({
    authorizeUrl: `${origin}/dropbox/oauth2/authorize`,
    tokenUrl: `${origin}/dropbox/oauth2/token`,
    revokeUrl: `${origin}/dropbox/2/auth/token/revoke`,
    accountUrl: `${origin}/dropbox/2/users/get_current_account`,
    apiUrl: `${origin}/dropbox`,
    extra: { CONTENT_URL: `${origin}/dropbox/content` },
  }),
};
