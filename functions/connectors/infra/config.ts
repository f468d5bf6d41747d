// What the flow needs from configuration: the state-signing key and each provider's endpoints and
// client. Read lazily, so a route needs only the variables of what it touches.
import { getStringFromEnv } from '../../platform/config';
import { ConfigurationError } from '../../platform/errors';
import type { ProviderEndpoints, ProviderId } from '../domain/providers';
import { providerIssuer } from '../domain/providers';
import { providerEndpoints } from '../domain/providers';

export const STATE_KEY_ENV = 'CONNECT_STATE_SIGNING_KEY';

export interface ConnectorConfig {
  /** HMAC key of the OAuth state (at least 32 bytes). */
  stateKey(): Buffer;
  provider(id: ProviderId): ProviderEndpoints;
  /**
   * The provider's issuer identifier when it advertises RFC 9207 (`authorization_response_iss_parameter_supported`):
   * the callback then requires `iss` to equal it. Undefined: the provider does not send `iss`.
   */
  issuer?(id: ProviderId): string | undefined;
}

export const envConfig: ConnectorConfig = {
  stateKey: () => {
    const key = Buffer.from(getStringFromEnv(STATE_KEY_ENV), 'utf8');
    if (key.length < 32) throw new ConfigurationError(`${STATE_KEY_ENV} must be at least 32 bytes`);
    return key;
  },
  provider: providerEndpoints,
  issuer: providerIssuer,
};
