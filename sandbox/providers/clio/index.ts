// The Clio fake (API v4 and Clio's OAuth 2), served under /clio on the sandbox origin: API_URL
// `<origin>/clio` stands for https://app.clio.com (paths /api/v4/...).
// OAuth: GET /oauth/authorize (no scope parameter: the app's permissions are set at registration),
// POST /oauth/token (client_secret_post), POST /oauth/deauthorize (the access token in Authorization).
// API: ./documents.ts (who_am_i, matters, documents, the 303 download and the three-step upload).
import type { ServerResponse } from 'node:http';
import { SandboxApiError, sendJson } from '../../content/http';
import type { InjectedError } from '../../content/types';
import type { ProviderFake } from '../fake';
import { clioIds, clioRoutes, clioUserId } from './documents';

function sendClioError(response: ServerResponse, error: SandboxApiError): void {
  sendJson(
    response,
    error.status,
    { error: { type: error.code, message: error.description ?? error.code } },
    error.headers,
  );
}

const unauthorized = () => new SandboxApiError(401, 'AuthenticationError', 'Invalid access token');

function injected(failure: InjectedError): SandboxApiError {
  const retryAfter: Record<string, string> =
    failure.retryAfter !== undefined ? { 'Retry-After': String(failure.retryAfter) } : {};
  if (failure.status === 401) return unauthorized();
  if (failure.status === 429 || failure.status === 403)
    return new SandboxApiError(429, 'RateLimited', 'Rate limit exceeded', retryAfter);
  if (failure.status === 503) return new SandboxApiError(503, 'ServiceUnavailable', undefined, retryAfter);
  return new SandboxApiError(500, 'InternalServerError');
}

export const clioFake: ProviderFake = {
  id: 'clio',
  prefix: '/clio',
  shape: 'practice',
  oauth: {
    authorizePath: '/oauth/authorize',
    tokenPath: '/oauth/token',
    revokePath: '/oauth/deauthorize',
    revocation: 'bearer',
    refresh: 'same',
    offline: 'always',
    scopesInRequest: false,
  },
  scopes: ['clio'],
  routes: clioRoutes(),
  sendError: sendClioError,
  injected,
  unauthorized,
  forbidden: () => new SandboxApiError(403, 'ForbiddenError', 'The token lacks this permission'),
  ids: clioIds,
  accountId: (account) => String(clioUserId(account)),
  endpoints: (origin) => ({
    authorizeUrl: `${origin}/clio/oauth/authorize`,
    tokenUrl: `${origin}/clio/oauth/token`,
    revokeUrl: `${origin}/clio/oauth/deauthorize`,
    accountUrl: `${origin}/clio/api/v4/users/who_am_i?fields=id,name,email`,
    apiUrl: `${origin}/clio`,
    extra: { REGION: 'us' },
  }),
};
