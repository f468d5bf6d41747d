// Box's catalog entry, from Box's developer documentation (https://developer.box.com/guides/authentication/oauth2/
// and https://developer.box.com/reference/): OAuth 2 authorization code with a client secret, refresh
// tokens that rotate (each refresh answers a new one and spends the old, valid 60 days), revocation at
// /oauth2/revoke with the client's credentials, the account from /2.0/users/me. Scopes are Box's
// application scopes: `root_readonly` reads every file and folder the user can, `root_readwrite` writes too.
import type { ProviderDefinition } from '../../domain/provider-definition';

export const definition: ProviderDefinition<'box'> = {
  id: 'box',
  displayName: 'Box',
  kind: 'file_storage',
  scopeTiers: {
    import: {
      scopes: ['root_readonly'],
      required: ['root_readonly'],
      description: 'Read files and folders',
    },
    import_export: {
      scopes: ['root_readwrite'],
      required: ['root_readwrite'],
      description: 'Read files and folders, and upload exports into them',
    },
  },
  defaultTier: 'import',
  // Box's access tokens last about an hour (expires_in is answered; this is the fallback).
  defaultAccessTokenSeconds: 3600,
  // Every refresh answers a new refresh token and voids the one it spent.
  rotatesRefreshTokens: true,
  // A refresh token is good for 60 days and one use: one left unused that long lapses.
  refreshTokenIdleSeconds: 60 * 86_400,
  accountFields: { externalId: 'id', email: 'login', displayName: 'name' },
  // Box sends Retry-After on a 429 and no remaining-quota headers.
  rateLimitHeaders: { retryAfter: 'Retry-After' },
  throttleReasons: ['too_many_requests', 'rate_limit_exceeded'],
  scopeSeparator: ' ',
  tokenEndpointAuthMethod: 'client_secret_post',
  writeScopes: ['root_readwrite'],
  authorizeParams: {},
  // RFC 7009 style: a form POST of the token with client_id and client_secret.
  revocation: { style: 'rfc7009', clientAuth: true },
  defaults: {
    authorizeUrl: 'https://account.box.com/api/oauth2/authorize',
    tokenUrl: 'https://api.box.com/oauth2/token',
    revokeUrl: 'https://api.box.com/oauth2/revoke',
    accountUrl: 'https://api.box.com/2.0/users/me',
    apiUrl: 'https://api.box.com/2.0',
  },
  // Uploads (single and chunked) go to a host of their own.
  extraSettings: { UPLOAD_URL: 'https://upload.box.com/api/2.0' },
};
