// The Google Drive fake (Drive API v3 and Google's OAuth 2.0 for web server apps), served under
// /google on the sandbox origin: API_URL is `<origin>/google`, so the documented paths hang from it
// as they do from https://www.googleapis.com (`/drive/v3/...`, `/upload/drive/v3/...`).
// OAuth, as Google's documentation describes it:
//   GET  /o/oauth2/v2/auth   consent; a refresh token only with access_type=offline
//   POST /token              client_secret_post or basic; a refresh answers no refresh_token (the
//                            consent's one stays valid until revoked)
//   POST /revoke             token=<access or refresh token>, no client authentication; an unknown
//                            or revoked token -> 400 invalid_token
// Errors are Google's JSON error shape: {"error":{"code","message","errors":[{domain,reason,message}],"status"}}.
import type { ServerResponse } from 'node:http';
import { SandboxApiError, sendJson } from '../../content/http';
import type { InjectedError } from '../../content/types';
import type { ProviderFake } from '../fake';
import { driveV3Routes } from './drive-v3';

export const DRIVE = 'https://www.googleapis.com/auth/drive';
export const DRIVE_READONLY = 'https://www.googleapis.com/auth/drive.readonly';

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ALREADY_EXISTS',
  412: 'FAILED_PRECONDITION',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

/** Google's reason codes' domains (usageLimits for throttling, global otherwise). */
const domainOf = (reason: string) =>
  /RateLimitExceeded|rateLimitExceeded|quotaExceeded/.test(reason) ? 'usageLimits' : 'global';

function sendGoogleError(response: ServerResponse, error: SandboxApiError): void {
  const message = error.description ?? error.code;
  sendJson(
    response,
    error.status,
    {
      error: {
        code: error.status,
        message,
        errors: [{ message, domain: domainOf(error.code), reason: error.code }],
        status: STATUS_NAMES[error.status] ?? 'UNKNOWN',
      },
    },
    error.headers,
  );
}

function injected(failure: InjectedError): SandboxApiError {
  const retryAfter: Record<string, string> =
    failure.retryAfter !== undefined ? { 'Retry-After': String(failure.retryAfter) } : {};
  switch (failure.status) {
    case 401:
      return unauthorized();
    case 403:
      return new SandboxApiError(
        403,
        failure.reason ?? 'userRateLimitExceeded',
        'User rate limit exceeded.',
        retryAfter,
      );
    case 429:
      return new SandboxApiError(
        429,
        failure.reason ?? 'rateLimitExceeded',
        'Rate limit exceeded.',
        retryAfter,
      );
    case 503:
      return new SandboxApiError(503, 'backendError', 'Backend Error', retryAfter);
    default:
      return new SandboxApiError(500, 'internalError', 'Internal Error');
  }
}

function unauthorized(): SandboxApiError {
  return new SandboxApiError(401, 'authError', 'Invalid Credentials', {
    'WWW-Authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"',
  });
}

export const googleDriveFake: ProviderFake = {
  id: 'google_drive',
  prefix: '/google',
  shape: 'drive',
  oauth: {
    authorizePath: '/o/oauth2/v2/auth',
    tokenPath: '/token',
    revokePath: '/revoke',
    revocation: 'rfc7009-public',
    refresh: 'omit',
    offline: { param: 'access_type', value: 'offline' },
    issuer: (origin) => `${origin}/google`,
    scopesInRequest: true,
  },
  scopes: [DRIVE, DRIVE_READONLY],
  routes: driveV3Routes(),
  sendError: sendGoogleError,
  injected,
  unauthorized,
  forbidden: () =>
    new SandboxApiError(403, 'insufficientPermissions', 'Request had insufficient authentication scopes.', {
      'WWW-Authenticate': 'Bearer realm="https://accounts.google.com/", error="insufficient_scope"',
    }),
  endpoints: (origin) => ({
    authorizeUrl: `${origin}/google/o/oauth2/v2/auth`,
    tokenUrl: `${origin}/google/token`,
    revokeUrl: `${origin}/google/revoke`,
    accountUrl: `${origin}/google/drive/v3/about?fields=user`,
    apiUrl: `${origin}/google`,
    issuer: `${origin}/google`,
    extra: {},
  }),
};
