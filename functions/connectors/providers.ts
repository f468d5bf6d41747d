// The provider registry: one definition per provider. Endpoints, client ids and secrets are
// configuration (PROVIDER_<ID>_* variables), so a deployment points them at the real providers.
import { getStringFromEnv } from '../platform/config';

export const PROVIDER_IDS = ['practice', 'drive'] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

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
  /** How the account-info response names the account's id, email and display name. */
  accountFields: { externalId: string; email: string; displayName: string };
  /** Response headers the provider reports its rate limit in (read by the refresh and sync workers). */
  rateLimitHeaders: { remaining?: string; reset?: string; retryAfter: string };
  /** Scope separator in the authorize request and the token response. */
  scopeSeparator: ' ' | ',';
}

/** The configuration variables of a provider, each PROVIDER_<ID>_<FIELD>. */
export const PROVIDER_SETTINGS = {
  authorizeUrl: 'AUTHORIZE_URL',
  tokenUrl: 'TOKEN_URL',
  revokeUrl: 'REVOKE_URL',
  accountUrl: 'ACCOUNT_URL',
  clientId: 'CLIENT_ID',
  clientSecret: 'CLIENT_SECRET',
} as const;

export type ProviderSetting = keyof typeof PROVIDER_SETTINGS;

export type ProviderEndpoints = Record<ProviderSetting, string>;

export const PROVIDERS: Record<ProviderId, ProviderDefinition> = {
  practice: {
    id: 'practice',
    displayName: 'Practice management',
    kind: 'practice_management',
    scopeTiers: {
      standard: {
        scopes: ['matters.read', 'documents.read', 'contacts.read'],
        required: ['matters.read', 'documents.read'],
        description: 'Read matters, documents and contacts',
      },
    },
    defaultTier: 'standard',
    defaultAccessTokenSeconds: 3600,
    rotatesRefreshTokens: true,
    accountFields: { externalId: 'id', email: 'email', displayName: 'name' },
    rateLimitHeaders: {
      remaining: 'X-RateLimit-Remaining',
      reset: 'X-RateLimit-Reset',
      retryAfter: 'Retry-After',
    },
    scopeSeparator: ' ',
  },
  drive: {
    id: 'drive',
    displayName: 'File storage',
    kind: 'file_storage',
    scopeTiers: {
      standard: {
        scopes: ['files.read', 'files.metadata.read'],
        required: ['files.read'],
        description: 'Read files and folders',
      },
    },
    defaultTier: 'standard',
    defaultAccessTokenSeconds: 3600,
    rotatesRefreshTokens: false,
    accountFields: { externalId: 'id', email: 'email', displayName: 'name' },
    rateLimitHeaders: { retryAfter: 'Retry-After' },
    scopeSeparator: ' ',
  },
};

export const isProviderId = (value: string): value is ProviderId =>
  (PROVIDER_IDS as readonly string[]).includes(value);

/** Environment variable names of a provider's configuration, e.g. PROVIDER_PRACTICE_TOKEN_URL. */
export const providerEnv = (id: ProviderId, field: string): string => `PROVIDER_${id.toUpperCase()}_${field}`;

/** One configuration value of a provider, read when first needed (a route gets only what it uses). */
export function providerSetting(id: ProviderId, setting: ProviderSetting): string {
  return getStringFromEnv(providerEnv(id, PROVIDER_SETTINGS[setting]));
}

/**
 * PROVIDER_<ID>_ISSUER, optional: set it when the provider advertises RFC 9207 (its metadata has
 * `authorization_response_iss_parameter_supported: true`) to its `issuer`.
 */
export function providerIssuer(id: ProviderId): string | undefined {
  return getStringFromEnv(providerEnv(id, 'ISSUER'), { default: '' }) || undefined;
}

/** The configuration of a provider, each value read when first used. */
export function providerEndpoints(id: ProviderId): ProviderEndpoints {
  const out = {} as ProviderEndpoints;
  for (const setting of Object.keys(PROVIDER_SETTINGS) as ProviderSetting[]) {
    Object.defineProperty(out, setting, { enumerable: true, get: () => providerSetting(id, setting) });
  }
  return out;
}
