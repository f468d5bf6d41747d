// OneDrive and SharePoint through Microsoft Graph (v1.0), from its public documentation (docs/providers.md
// cites the pages and says how to register the app). Defaults are the production URLs; each is
// overridable by PROVIDER_ONEDRIVE_<FIELD>.
import type { ProviderDefinition } from '../../domain/provider-definition';

export const definition: ProviderDefinition<'onedrive'> = {
  id: 'onedrive',
  displayName: 'Microsoft OneDrive and SharePoint',
  kind: 'file_storage',
  scopeTiers: {
    import: {
      scopes: ['offline_access', 'User.Read', 'Files.Read.All', 'Sites.Read.All'],
      required: ['Files.Read.All'],
      description: 'Read files in OneDrive and SharePoint document libraries',
    },
    import_export: {
      scopes: ['offline_access', 'User.Read', 'Files.ReadWrite.All', 'Sites.Read.All'],
      required: ['Files.ReadWrite.All'],
      description: 'Read files in OneDrive and SharePoint, and upload exports into them',
    },
  },
  defaultTier: 'import',
  defaultAccessTokenSeconds: 3600,
  // Each refresh answers a new refresh token; we keep the newest (the old one is not voided at once).
  rotatesRefreshTokens: true,
  refreshTokenIdleSeconds: 90 * 86_400, // Microsoft identity platform: 90 days unused
  accountFields: { externalId: 'id', email: 'mail|userPrincipalName', displayName: 'displayName' },
  rateLimitHeaders: { retryAfter: 'Retry-After' },
  // Graph throttles with 429 (activityLimitReached, TooManyRequests) and also 503 serviceNotAvailable
  // with Retry-After: all three throttle the connection until then, not a blind backoff.
  throttleReasons: ['activityLimitReached', 'TooManyRequests', 'serviceNotAvailable'],
  scopeSeparator: ' ',
  tokenEndpointAuthMethod: 'client_secret_post',
  writeScopes: ['Files.ReadWrite.All'],
  authorizeParams: {},
  grantedScopePrefix: 'https://graph.microsoft.com/',
  // The Microsoft identity platform has no token revocation endpoint (see docs/providers.md).
  revocation: { style: 'none' },
  defaults: {
    authorizeUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
    tokenUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
    accountUrl: 'https://graph.microsoft.com/v1.0/me',
    apiUrl: 'https://graph.microsoft.com',
  },
  extraSettings: {},
};
