// The real providers' definitions, from each provider's public documentation (docs/providers.md cites
// the pages and says how to register the app). Defaults are the production URLs; each is overridable
// by PROVIDER_<ID>_<FIELD> (tests and regional deployments point them elsewhere).
import type { ProviderDefinition, RealProviderId } from './provider-definition';

const GOOGLE_DRIVE = 'https://www.googleapis.com/auth/drive';
const GOOGLE_DRIVE_READONLY = 'https://www.googleapis.com/auth/drive.readonly';

export const REAL_PROVIDERS: Record<RealProviderId, ProviderDefinition> = {
  clio: {
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
    contentApi: 'clio-v4',
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
  },
  google_drive: {
    id: 'google_drive',
    displayName: 'Google Drive',
    kind: 'file_storage',
    scopeTiers: {
      import: {
        scopes: [GOOGLE_DRIVE_READONLY],
        required: [GOOGLE_DRIVE_READONLY],
        description: 'Read files and folders (My Drive and shared drives)',
      },
      import_export: {
        scopes: [GOOGLE_DRIVE],
        required: [GOOGLE_DRIVE],
        description: 'Read files and folders, and upload exports into them',
      },
    },
    defaultTier: 'import',
    defaultAccessTokenSeconds: 3599,
    // A refresh answers no refresh_token: the one from the consent stays valid until revoked.
    rotatesRefreshTokens: false,
    refreshTokenIdleSeconds: 182 * 86_400, // lapses after six months unused
    // GET /drive/v3/about?fields=user needs only the Drive scope (no openid/email/profile scopes).
    accountFields: {
      externalId: 'user.permissionId',
      email: 'user.emailAddress',
      displayName: 'user.displayName',
    },
    rateLimitHeaders: { retryAfter: 'Retry-After' },
    throttleReasons: ['userRateLimitExceeded', 'rateLimitExceeded'],
    scopeSeparator: ' ',
    tokenEndpointAuthMethod: 'client_secret_post',
    contentApi: 'google-drive-v3',
    writeScopes: [GOOGLE_DRIVE],
    // A refresh token only with access_type=offline; prompt=consent gets one on a reconnect too.
    authorizeParams: { access_type: 'offline', prompt: 'consent' },
    // https://oauth2.googleapis.com/revoke takes the token alone (no client credentials).
    revocation: { style: 'rfc7009', clientAuth: false },
    defaults: {
      authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      revokeUrl: 'https://oauth2.googleapis.com/revoke',
      accountUrl: 'https://www.googleapis.com/drive/v3/about?fields=user',
      apiUrl: 'https://www.googleapis.com',
    },
    extraSettings: {},
  },
  onedrive: {
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
    contentApi: 'graph-v1',
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
  },
  dropbox: {
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
    contentApi: 'dropbox-v2',
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
  },
};
