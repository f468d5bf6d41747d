// The sandbox's practice-management provider (a wire format of our invention, Clio-like), served by
// sandbox/; its endpoints are configuration (PROVIDER_PRACTICE_<FIELD>), it has no production URLs.
import type { ProviderDefinition } from '../../domain/provider-definition';
import { SANDBOX_SHAPE } from '../sandbox-shape';

export const definition: ProviderDefinition<'practice'> = {
  id: 'practice',
  displayName: 'Practice management',
  kind: 'practice_management',
  scopeTiers: {
    standard: {
      scopes: ['matters.read', 'documents.read', 'contacts.read', 'documents.write'],
      required: ['matters.read', 'documents.read'],
      description: 'Read matters, documents and contacts',
    },
  },
  defaultTier: 'standard',
  defaultAccessTokenSeconds: 3600,
  rotatesRefreshTokens: true,
  refreshTokenIdleSeconds: 4 * 3600, // short, so a development clock shows the sweep keeping it
  accountFields: { externalId: 'id', email: 'email', displayName: 'name' },
  rateLimitHeaders: {
    remaining: 'X-RateLimit-Remaining',
    reset: 'X-RateLimit-Reset',
    retryAfter: 'Retry-After',
  },
  scopeSeparator: ' ',
  tokenEndpointAuthMethod: 'client_secret_basic',
  writeScopes: ['documents.write'],
  ...SANDBOX_SHAPE,
};
