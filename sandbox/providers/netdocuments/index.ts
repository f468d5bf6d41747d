// The NetDocuments fake (REST API v1/v2 and NetDocuments' OAuth 2 code flow), served under /netdocuments
// on the sandbox origin with the region as the first path segment (`/netdocuments/eu/...`): a grant is
// good only in the region that issued it, as each data center has its own clients and tokens.
// `<origin>/netdocuments/<region>` stands for both of the region's hosts:
//   GET  /neWeb2/OAuth.aspx   the consent page (on the web host, e.g. vault.netvoyage.com)
//   POST /v1/OAuth            the token endpoint (on api.<web host>): client_secret_basic, scopes
//                             comma-separated; a refresh answers a new access token, the refresh token
//                             stays (its 40 days renewed); no revocation endpoint
// API: ./documents.ts. Errors as `{"error": "<message>"}`; 429 with Retry-After.
import type { ServerResponse } from 'node:http';
import { SandboxApiError, sendJson } from '../../content/http';
import type { InjectedError } from '../../content/types';
import type { ProviderFake } from '../fake';
import { ND_READ, ND_WRITE, ndIds, ndRoutes } from './documents';

/** The region keys of the definition's `region` param. */
export const ND_REGIONS = ['us', 'eu', 'de', 'au'] as const;

const messages: Record<number, string> = {
  400: 'Bad request',
  401: 'Invalid or expired access token',
  403: 'Insufficient scope for this operation',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  429: 'Too many requests',
  500: 'Internal server error',
  503: 'Service unavailable',
};

function sendNdError(response: ServerResponse, error: SandboxApiError): void {
  sendJson(
    response,
    error.status,
    { error: error.description ?? messages[error.status] ?? error.code },
    error.headers,
  );
}

function injected(failure: InjectedError): SandboxApiError {
  const retryAfter: Record<string, string> =
    failure.retryAfter !== undefined ? { 'Retry-After': String(failure.retryAfter) } : {};
  if (failure.status === 401) return new SandboxApiError(401, 'unauthorized', messages[401]);
  if (failure.status === 429 || failure.status === 403)
    return new SandboxApiError(429, 'too_many_requests', messages[429], retryAfter);
  if (failure.status === 503) return new SandboxApiError(503, 'unavailable', messages[503], retryAfter);
  return new SandboxApiError(500, 'internal_error', messages[500]);
}

export const netdocumentsFake: ProviderFake = {
  id: 'netdocuments',
  prefix: '/netdocuments',
  tenant: { accepts: (value) => (ND_REGIONS as readonly string[]).includes(value) },
  shape: 'drive',
  oauth: {
    authorizePath: '/neWeb2/OAuth.aspx',
    tokenPath: '/v1/OAuth',
    refresh: 'same',
    offline: 'always',
    scopesInRequest: true,
    scopeSeparator: ',',
  },
  scopes: [ND_READ, ND_WRITE, 'delete_doc'],
  routes: ndRoutes(),
  sendError: sendNdError,
  injected,
  unauthorized: () => new SandboxApiError(401, 'unauthorized', messages[401]),
  forbidden: () => new SandboxApiError(403, 'forbidden', messages[403]),
  ids: ndIds,
  endpoints: (origin) => ({
    authorizeUrl: `${origin}/netdocuments/{region}/neWeb2/OAuth.aspx`,
    tokenUrl: `${origin}/netdocuments/{region}/v1/OAuth`,
    accountUrl: `${origin}/netdocuments/{region}/v1/User/info`,
    apiUrl: `${origin}/netdocuments/{region}`,
    extra: {},
  }),
};
