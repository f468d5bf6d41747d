// Dropbox (API v2), from its public documentation (docs/providers.md cites the pages and says how to
// register the app). Defaults are the production URLs; each is overridable by PROVIDER_DROPBOX_<FIELD>.
import type { ProviderDefinition } from '../../domain/provider-definition';

export const definition: ProviderDefinition<'dropbox'> = {
  id: 'dropbox',
  displayName: 'Dropbox',
  kind: 'file_storage',
  scopeTiers: {
    import: {
      scopes: ['account_info.read', 'files.metadata.read', 'files.content.read'],
      required: ['files.metadata.read', 'files.content.read'],
      description: 'Read files and folders',
    },
    import_export: {
      scopes: ['account_info.read', 'files.metadata.read', 'files.content.read', 'files.content.write'],
      required: ['files.metadata.read', 'files.content.read', 'files.content.write'],
      description: 'Read files and folders, and upload exports into them',
    },
  },
  defaultTier: 'import',
  defaultAccessTokenSeconds: 14_400,
  rotatesRefreshTokens: false,
  refreshTokenIdleSeconds: null, // offline access: long-lived, valid until revoked
  accountFields: { externalId: 'account_id', email: 'email', displayName: 'name.display_name' },
  accountRequest: { method: 'POST', jsonBody: 'null' },
  rateLimitHeaders: { retryAfter: 'Retry-After' },
  throttleReasons: ['too_many_requests', 'too_many_write_operations'],
  scopeSeparator: ' ',
  tokenEndpointAuthMethod: 'client_secret_basic',
  writeScopes: ['files.content.write'],
  authorizeParams: { token_access_type: 'offline' },
  revocation: { style: 'bearer' },
  defaults: {
    authorizeUrl: 'https://www.dropbox.com/oauth2/authorize',
    tokenUrl: 'https://api.dropboxapi.com/oauth2/token',
    revokeUrl: 'https://api.dropboxapi.com/2/auth/token/revoke',
    accountUrl: 'https://api.dropboxapi.com/2/users/get_current_account',
    apiUrl: 'https://api.dropboxapi.com',
  },
  // Downloads and uploads are on a host of their own.
  extraSettings: { CONTENT_URL: 'https://content.dropboxapi.com' },
};
