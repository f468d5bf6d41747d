// Clio (API v4), from its public documentation (docs/providers.md cites the pages and says how to
// register the app). Defaults are the production URLs; each is overridable by PROVIDER_CLIO_<FIELD>.
import type { ProviderDefinition } from '../../domain/provider-definition';

export const definition: ProviderDefinition<'clio'> = {
  id: 'clio',
  displayName: 'Clio',
  kind: 'practice_management',
  // Clio's permissions are chosen on the app's registration, not per request: no scope parameter.
  scopeTiers: { standard: { scopes: [], required: [], description: 'Read matters and documents' } },
  defaultTier: 'standard',
  defaultAccessTokenSeconds: 2_592_000,
  rotatesRefreshTokens: false,
  refreshTokenIdleSeconds: null, // Clio Manage: valid until revoked (docs.developers.clio.com/faq)
  accountFields: { externalId: 'data.id', email: 'data.email', displayName: 'data.name' },
  rateLimitHeaders: {
    remaining: 'X-RateLimit-Remaining',
    reset: 'X-RateLimit-Reset',
    retryAfter: 'Retry-After',
  },
  throttleReasons: [],
  scopeSeparator: ' ',
  tokenEndpointAuthMethod: 'client_secret_post',
  writeScopes: [],
  authorizeParams: {},
  revocation: { style: 'bearer', tokenField: 'token' },
  defaults: {
    authorizeUrl: 'https://app.clio.com/oauth/authorize',
    tokenUrl: 'https://app.clio.com/oauth/token',
    revokeUrl: 'https://app.clio.com/oauth/deauthorize',
    accountUrl: 'https://app.clio.com/api/v4/users/who_am_i?fields=id,name,email',
    apiUrl: 'https://app.clio.com',
  },
  // us | eu | ca | au: which of Clio's regional hosts the app is registered at.
  extraSettings: { REGION: 'us' },
};
