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
}

export interface ProviderEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  accountUrl: string;
  clientId: string;
  clientSecret: string;
}

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
  },
};

export const isProviderId = (value: string): value is ProviderId => (PROVIDER_IDS as readonly string[]).includes(value);

/** Environment variable names of a provider's configuration, e.g. PROVIDER_PRACTICE_TOKEN_URL. */
export const providerEnv = (id: ProviderId, field: string): string => `PROVIDER_${id.toUpperCase()}_${field}`;

export function providerEndpoints(id: ProviderId): ProviderEndpoints {
  const read = (field: string) => getStringFromEnv(providerEnv(id, field));
  return {
    authorizeUrl: read('AUTHORIZE_URL'),
    tokenUrl: read('TOKEN_URL'),
    revokeUrl: read('REVOKE_URL'),
    accountUrl: read('ACCOUNT_URL'),
    clientId: read('CLIENT_ID'),
    clientSecret: read('CLIENT_SECRET'),
  };
}
