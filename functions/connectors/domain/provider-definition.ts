// What a provider definition is (the registry, ./providers.ts, holds one per provider; the real
// providers' are in ./provider-catalog.ts): the ids, and every way providers differ that the service
// must know.
/** The sandbox's own providers (wire formats of our invention, served by sandbox/). */
export const SANDBOX_PROVIDER_IDS = ['practice', 'drive'] as const;
/** Real providers: offered only where their CLIENT_ID is configured (providerConfigured). */
export const REAL_PROVIDER_IDS = ['clio', 'google_drive', 'onedrive', 'dropbox'] as const;
export const PROVIDER_IDS = [...SANDBOX_PROVIDER_IDS, ...REAL_PROVIDER_IDS] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];
export type RealProviderId = (typeof REAL_PROVIDER_IDS)[number];

/** The content-API clients (functions/connectors/infra/content/index.ts registers one per kind). */
export type ContentApiKind =
  'practice-v1' | 'drive-v1' | 'clio-v4' | 'google-drive-v3' | 'graph-v1' | 'dropbox-v2' | 'box-2.0';

/**
 * How a grant is revoked when a connection is deleted:
 * - `rfc7009`: a form POST of `token` (+ `token_type_hint`) to REVOKE_URL; `clientAuth` false when the
 *   provider takes no client credentials there (Google);
 * - `bearer`: a POST to REVOKE_URL authorized by the access token itself, with no body (Dropbox's
 *   /2/auth/token/revoke) or the token again as a form field (`tokenField`, Clio's /oauth/deauthorize);
 * - `none`: the provider has no revocation at the OAuth level (Microsoft): we delete our tokens and the
 *   user removes the app's consent at the provider (docs/providers.md says where).
 */
export type RevocationStyle =
  { style: 'rfc7009'; clientAuth: boolean } | { style: 'bearer'; tokenField?: string } | { style: 'none' };

/** The settings every provider has, as a Record over PROVIDER_SETTINGS' keys minus the client's. */
export type EndpointSetting = 'authorizeUrl' | 'tokenUrl' | 'revokeUrl' | 'accountUrl' | 'apiUrl';

export interface ScopeTier {
  /** Scopes asked for at consent. */
  scopes: string[];
  /** Scopes that must be granted, or the flow ends in connector_scope_not_enabled. */
  required: string[];
  description: string;
}

export interface ProviderDefinition {
  id: ProviderId;
  displayName: string;
  kind: 'practice_management' | 'file_storage';
  scopeTiers: Record<string, ScopeTier>;
  defaultTier: string;
  /** Assumed access-token lifetime when the token response has no expires_in. */
  defaultAccessTokenSeconds: number;
  /** Whether the provider issues a new refresh token at each refresh (and voids the old one). */
  rotatesRefreshTokens: boolean;
  /**
   * Where the account-info response holds the account's id, email and display name: a property name,
   * or a dotted path (`user.permissionId`), or alternatives separated by `|` (`mail|userPrincipalName`).
   */
  accountFields: { externalId: string; email: string; displayName: string };
  /** How the account-info request is sent (Dropbox's is a POST with a JSON `null` body). */
  accountRequest?: { method: 'POST'; jsonBody: string };
  /**
   * Response headers the provider reports its rate limit in: `retryAfter` is read from the token
   * endpoint's refusals (oauth-client.ts); `remaining`/`reset` by the content transport, which slows a
   * client down when the limit is at its reserve rather than after a 429 (content/http.ts).
   */
  rateLimitHeaders: { remaining?: string; reset?: string; retryAfter: string };
  /**
   * Provider error reasons that mean "slow down" whatever the status (Google's 403
   * `userRateLimitExceeded`, Dropbox's `too_many_write_operations`, a dotted Dropbox reason matching by
   * any part); 429 always does, 503 with Retry-After is handled as a transient failure with its delay.
   * Read by the content transport (content/http.ts).
   */
  throttleReasons: string[];
  /** Extra query parameters of the authorization request (Google's access_type=offline, prompt=consent). */
  authorizeParams: Record<string, string>;
  /** How deleting a connection revokes its grant at the provider. */
  revocation: RevocationStyle;
  /**
   * A prefix the token response may put before the scopes it names (Microsoft answers
   * `https://graph.microsoft.com/Files.Read.All` for a request of `Files.Read.All`): stripped.
   */
  grantedScopePrefix?: string;
  /** The production endpoints (PROVIDER_<ID>_<FIELD> overrides each); the sandbox's have none. */
  defaults: Partial<Record<EndpointSetting, string>>;
  /** Settings of this provider only (PROVIDER_<ID>_<NAME>, e.g. Dropbox's CONTENT_URL), with defaults. */
  extraSettings: Record<string, string>;
  /** Scope separator in the authorize request and the token response. */
  scopeSeparator: ' ' | ',';
  /** How the token endpoint authenticates us (RFC 8414 token_endpoint_auth_method). */
  tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post';
  /** The shape of its content API (which client speaks it); the URL is configuration (API_URL). */
  contentApi: ContentApiKind;
  /** Scopes an export needs (uploads); asked for at consent, not required to connect. */
  writeScopes: string[];
}
