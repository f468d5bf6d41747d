// iManage Work's catalog entry. Facts from iManage's certified Power Platform connector
// (microsoft/PowerPlatformConnectors, certified-connectors/iManage Work/: OAuth 2 code flow, the one
// scope `user`, cloudimanage.com as the cloud host) and iManage's Work REST API v2 conventions
// (https://{server}/auth/oauth2/authorize and /token, discovery at /api). A customer's server is the
// connection's `server` param: `cloudimanage.com` for iManage's cloud, the firm's own host otherwise;
// every endpoint below is a template on it. What the published material does not say (revocation,
// refresh-token lifetime) is chosen and stated in docs/providers.md.
import type { ProviderDefinition } from '../../domain/provider-definition';

export const definition: ProviderDefinition<'imanage'> = {
  id: 'imanage',
  displayName: 'iManage Work',
  kind: 'file_storage',
  // iManage grants the app the user's own rights under one scope: reading and exporting alike.
  scopeTiers: {
    standard: {
      scopes: ['user'],
      required: ['user'],
      description: "Read and add documents with the user's rights in iManage Work",
    },
  },
  defaultTier: 'standard',
  // Access tokens last 30 minutes when expires_in is missing (iManage answers it).
  defaultAccessTokenSeconds: 1800,
  // A refresh answers the same refresh token; it lapses after 30 days unused (refreshed before then).
  rotatesRefreshTokens: false,
  refreshTokenIdleSeconds: 30 * 86_400,
  // The Work API takes the access token in X-Auth-Token, bare (iManage's documentation and integrators'
  // guides: `curl https://{server}/api --header "X-Auth-Token: <access_token>"`); an API written from
  // those documents answers `Authorization: Bearer` as a missing token. Discovery, the account lookup,
  // takes it the same way.
  accessTokenHeader: 'X-Auth-Token',
  // The discovery answer: data.user holds the user's id, email and full name.
  accountFields: { externalId: 'data.user.id', email: 'data.user.email', displayName: 'data.user.name' },
  // 429 with Retry-After; no remaining-quota headers are published.
  rateLimitHeaders: { retryAfter: 'Retry-After' },
  throttleReasons: ['TOO_MANY_REQUESTS'],
  scopeSeparator: ' ',
  tokenEndpointAuthMethod: 'client_secret_post',
  writeScopes: [],
  authorizeParams: {},
  // No revocation endpoint is published: a deleted connection's tokens are dropped here, and the
  // user's sessions ended in iManage Control Center (docs/providers.md).
  revocation: { style: 'none' },
  params: {
    server: {
      kind: 'host',
      label: 'iManage Work server',
      description:
        "The host name of the firm's iManage Work server: cloudimanage.com for iManage's cloud, or the firm's own.",
      default: 'cloudimanage.com',
      example: 'work.firm.example',
    },
  },
  defaults: {
    authorizeUrl: 'https://{server}/auth/oauth2/authorize',
    tokenUrl: 'https://{server}/auth/oauth2/token',
    accountUrl: 'https://{server}/api',
    apiUrl: 'https://{server}',
  },
  extraSettings: {},
};
