// The Microsoft Graph fake (OneDrive and SharePoint document libraries through /drives, and the
// Microsoft identity platform's v2.0 endpoints), served under /microsoft on the sandbox origin:
// API_URL is `<origin>/microsoft`, so Graph's paths hang from it as from https://graph.microsoft.com
// (`/v1.0/...`), and the identity platform's from it as from https://login.microsoftonline.com.
// OAuth, as Microsoft's documentation describes it:
//   GET  /common/oauth2/v2.0/authorize   consent; a refresh token only with the offline_access scope
//   POST /common/oauth2/v2.0/token       each refresh answers a new refresh token
//   no revocation endpoint (the user removes the app's consent; Graph's revokeSignInSessions is
//   all of the user's sessions, not one app's grant)
// Errors are Graph's JSON error shape: {"error":{"code","message","innerError":{date,request-id}}}.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { SandboxApiError, sendJson } from '../../content/http';
import type { InjectedError } from '../../content/types';
import type { ProviderFake } from '../fake';
import { graphRoutes, onedriveIds } from './graph';

function sendGraphError(response: ServerResponse, error: SandboxApiError): void {
  sendJson(
    response,
    error.status,
    {
      error: {
        code: error.code,
        message: error.description ?? error.code,
        innerError: { date: new Date().toISOString().slice(0, 19), 'request-id': randomUUID() },
      },
    },
    error.headers,
  );
}

const unauthorized = () =>
  new SandboxApiError(401, 'InvalidAuthenticationToken', 'Access token has expired or is not yet valid.', {
    'WWW-Authenticate': 'Bearer realm="", error="invalid_token"',
  });

function injected(failure: InjectedError): SandboxApiError {
  const retryAfter: Record<string, string> =
    failure.retryAfter !== undefined ? { 'Retry-After': String(failure.retryAfter) } : {};
  switch (failure.status) {
    case 401:
      return unauthorized();
    case 403:
    case 429:
      // Graph refuses an item the caller lost access to with 403 accessDenied; it throttles with 429.
      if (failure.status === 403 && failure.reason && failure.reason !== 'activityLimitReached')
        return new SandboxApiError(403, failure.reason, 'Access denied', retryAfter);
      return new SandboxApiError(
        429,
        failure.reason ?? 'activityLimitReached',
        'The request has been throttled',
        retryAfter,
      );
    case 503:
      return new SandboxApiError(503, 'serviceNotAvailable', 'Service unavailable', retryAfter);
    default:
      return new SandboxApiError(500, 'generalException', 'An unspecified error has occurred.');
  }
}

export const onedriveFake: ProviderFake = {
  id: 'onedrive',
  prefix: '/microsoft',
  shape: 'drive',
  oauth: {
    authorizePath: '/common/oauth2/v2.0/authorize',
    tokenPath: '/common/oauth2/v2.0/token',
    refresh: 'rotate',
    offline: { scope: 'offline_access' },
    scopesInRequest: true,
    tokenExtras: () => ({ ext_expires_in: 3600 }),
  },
  scopes: [
    'offline_access',
    'openid',
    'profile',
    'email',
    'User.Read',
    'Files.Read',
    'Files.Read.All',
    'Files.ReadWrite',
    'Files.ReadWrite.All',
    'Sites.Read.All',
  ],
  routes: graphRoutes(),
  ids: onedriveIds,
  sendError: sendGraphError,
  injected,
  unauthorized,
  forbidden: () =>
    new SandboxApiError(403, 'accessDenied', 'Either scp or roles claim need to be present in the token.'),
  endpoints: (origin) => ({
    authorizeUrl: `${origin}/microsoft/common/oauth2/v2.0/authorize`,
    tokenUrl: `${origin}/microsoft/common/oauth2/v2.0/token`,
    accountUrl: `${origin}/microsoft/v1.0/me`,
    apiUrl: `${origin}/microsoft`,
    extra: {},
  }),
};
