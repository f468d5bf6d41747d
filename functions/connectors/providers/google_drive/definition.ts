// Google Drive (API v3), from its public documentation (docs/providers.md cites the pages and says how
// to register the app). Defaults are the production URLs; each is overridable by
// PROVIDER_GOOGLE_DRIVE_<FIELD>.
import type { ProviderDefinition } from '../../domain/provider-definition';

const GOOGLE_DRIVE = 'https://www.googleapis.com/auth/drive';
const GOOGLE_DRIVE_READONLY = 'https://www.googleapis.com/auth/drive.readonly';

export const definition: ProviderDefinition<'google_drive'> = {
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
};
