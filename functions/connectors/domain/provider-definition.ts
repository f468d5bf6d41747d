// What a provider definition is: every way providers differ that the service must know. Each provider's
// is in its module (functions/connectors/providers/<id>/definition.ts); the list of modules
// (functions/connectors/providers/index.ts) gives the ids, and the registry (./providers.ts) applies a
// deployment's configuration over them.
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

/**
 * What a provider must be told about a connection before the consent (its `params`): a choice among
 * named values (NetDocuments' region, each value naming the hosts it stands for) or a host name (an
 * iManage Work server). Declared by the definition, shown in the catalog, asked on the connect page
 * when the customer's server did not give it, and kept with the connection.
 */
export type ConnectionParamSpec =
  | {
      kind: 'choice';
      label: string;
      description: string;
      /**
       * Each value with its label and the endpoint placeholders it stands for: `{host}` in an endpoint
       * template becomes `vars.host`. `settingsSuffix`, when given, names the value's own client
       * (PROVIDER_<ID>_<SUFFIX>_CLIENT_ID and _CLIENT_SECRET, over the provider's shared ones).
       */
      choices: Record<string, { label: string; vars: Record<string, string>; settingsSuffix?: string }>;
      default?: string;
    }
  | {
      kind: 'host';
      label: string;
      description: string;
      /** The host used when none is given (iManage's cloud, `cloudimanage.com`), or none: required. */
      default?: string;
      /** An example shown in the catalog and on the connect page. */
      example: string;
    };

export interface ProviderDefinition<Id extends string = string> {
  id: Id;
  displayName: string;
  kind: 'practice_management' | 'file_storage';
  scopeTiers: Record<string, ScopeTier>;
  defaultTier: string;
  /** Assumed access-token lifetime when the token response has no expires_in. */
  defaultAccessTokenSeconds: number;
  /** Whether the provider issues a new refresh token at each refresh (and voids the old one). */
  rotatesRefreshTokens: boolean;
  /**
   * How long a refresh token stays valid while unused (seconds), or null when it does not lapse
   * unused: the refresh sweep refreshes an idle connection before this runs out (token-policy.ts).
   */
  refreshTokenIdleSeconds: number | null;
  /**
   * Where the account-info response holds the account's id, email and display name: a property name,
   * or a dotted path (`user.permissionId`), or alternatives separated by `|` (`mail|userPrincipalName`).
   */
  accountFields: { externalId: string; email: string; displayName: string };
  /**
   * The request header the provider's API takes our access token in: absent, `Authorization: Bearer
   * <token>` (RFC 6750); a name, that header holding the bare token (iManage Work's `X-Auth-Token`).
   * Read for the content API, the account-info request and a bearer-style revocation alike
   * (infra/access-token.ts), and kept from every URL outside the API's origins.
   */
  accessTokenHeader?: string;
  /** How the account-info request is sent (Dropbox's is a POST with a JSON `null` body). */
  accountRequest?: { method: 'POST'; jsonBody: string };
  /**
   * Response headers the provider reports its rate limit in: `retryAfter` is read from the token
   * endpoint's refusals (oauth-client.ts) and the content API's (infra/content/http.ts); `remaining` /
   * `reset` by the content transport, which slows a client down when the limit is at its reserve rather
   * than after a 429 (infra/content/http.ts, Transport.observe and pace).
   */
  rateLimitHeaders: { remaining?: string; reset?: string; retryAfter: string };
  /**
   * Provider error reasons that mean "slow down" whatever the status (Google's 403
   * `userRateLimitExceeded`, Dropbox's `too_many_write_operations`, a dotted Dropbox reason matching by
   * any part); 429 always does, 503 with Retry-After is handled as a transient failure with its delay.
   * Read by the content transport (infra/content/failure.ts, through Transport.send).
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
  /**
   * What the provider must know of a connection before its consent (a region, a server), by name.
   * Every endpoint (defaults and PROVIDER_<ID>_<FIELD> overrides alike) and extra setting may hold
   * `{name}` placeholders: a param's own value, or a var of the chosen value of a choice param.
   */
  params?: Record<string, ConnectionParamSpec>;
  /** The production endpoints (PROVIDER_<ID>_<FIELD> overrides each); the sandbox's have none. */
  defaults: Partial<Record<EndpointSetting, string>>;
  /** Settings of this provider only (PROVIDER_<ID>_<NAME>, e.g. Dropbox's CONTENT_URL), with defaults. */
  extraSettings: Record<string, string>;
  /** Scope separator in the authorize request and the token response. */
  scopeSeparator: ' ' | ',';
  /** How the token endpoint authenticates us (RFC 8414 token_endpoint_auth_method). */
  tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post';
  /** Scopes an export needs (uploads); asked for at consent, not required to connect. */
  writeScopes: string[];
}
