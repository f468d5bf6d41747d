// The sandbox's file-storage provider (a wire format of our invention), served by sandbox/; its
// endpoints are configuration (PROVIDER_DRIVE_<FIELD>), it has no production URLs.
import type { ProviderDefinition } from '../../domain/provider-definition';
import { SANDBOX_SHAPE } from '../sandbox-shape';

export const definition: ProviderDefinition<'drive'> = {
  id: 'drive',
  displayName: 'File storage',
  kind: 'file_storage',
  scopeTiers: {
    standard: {
      scopes: ['files.read', 'files.metadata.read', 'files.write'],
      required: ['files.read'],
      description: 'Read files and folders',
    },
  },
  defaultTier: 'standard',
  defaultAccessTokenSeconds: 3600,
  rotatesRefreshTokens: false,
  refreshTokenIdleSeconds: null,
  accountFields: { externalId: 'id', email: 'email', displayName: 'name' },
  rateLimitHeaders: { retryAfter: 'Retry-After' },
  scopeSeparator: ' ',
  tokenEndpointAuthMethod: 'client_secret_basic',
  writeScopes: ['files.write'],
  ...SANDBOX_SHAPE,
};
