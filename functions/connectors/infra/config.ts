// What the flow needs from configuration: the state-signing key and each provider's endpoints and
// client. Endpoints and client ids are environment variables; the state key and the client secrets are
// secret settings read at run time through the Secrets port (Secrets Manager on AWS, so a rotated
// value arrives without a deploy). Each is read when first needed, so a route touches only its own.
import { getOptionalStringFromEnv, getStringFromEnv, loopbackAllowed } from '../../platform/config';
import { ConfigurationError } from '../../platform/errors';
import type { Secrets } from '../../platform/ports';
import type { ProviderId, ProviderSettings } from '../domain/providers';
import type { ConnectionParams } from '../domain/connection-params';
import { apiHostFromParams, settingsSuffix } from '../domain/connection-params';
import { PROVIDERS, providerEndpoints, providerEnv, providerIssuer } from '../domain/providers';
import type { ProviderClient } from './oauth-client';

export const STATE_KEY_ENV = 'CONNECT_STATE_SIGNING_KEY';

export interface ConnectorConfig {
  /** HMAC key of the OAuth state (at least 32 bytes). */
  stateKey(): Promise<Buffer>;
  /**
   * The provider's endpoints and client id (what the connect link's redirect needs), for a connection
   * with `params` (its region or server fills the endpoint templates).
   */
  provider(id: ProviderId, params?: ConnectionParams): ProviderSettings;
  /** The provider's token, revocation and account endpoints with the client's id and secret. */
  client(id: ProviderId, params?: ConnectionParams): Promise<ProviderClient>;
  /**
   * The provider's issuer identifier when it advertises RFC 9207 (`authorization_response_iss_parameter_supported`):
   * the callback then requires `iss` to equal it. Undefined: the provider does not send `iss`.
   */
  issuer?(id: ProviderId, params?: ConnectionParams): string | undefined;
}

/**
 * The name of the secret setting holding a provider's client secret: a chosen value's own
 * (PROVIDER_<ID>_<SUFFIX>_CLIENT_SECRET) when that value has its own client id configured.
 */
export function clientSecretName(id: ProviderId, params?: ConnectionParams): string {
  const suffix = params && settingsSuffix(PROVIDERS[id], params);
  if (suffix && getStringFromEnv(providerEnv(id, `${suffix}_CLIENT_ID`), { default: '' }))
    return providerEnv(id, `${suffix}_CLIENT_SECRET`);
  return providerEnv(id, 'CLIENT_SECRET');
}

/**
 * What the stack puts in a client secret it makes (lib/connectors.ts), until the operator puts the
 * provider's real one (docs/deploy.md, "Provider client secrets").
 */
export const CLIENT_SECRET_PLACEHOLDER = 'set-me';

/**
 * Refuses a client secret that is still the placeholder: the provider would refuse the client at the
 * first token exchange, reported as a provider error. Names the provider and where to put the secret.
 */
export function checkClientSecret(id: ProviderId, value: string, name = clientSecretName(id)): string {
  if (value.trim() !== CLIENT_SECRET_PLACEHOLDER) return value;
  const arn = getOptionalStringFromEnv(`${name}_ARN`);
  throw new ConfigurationError(
    `The ${id} provider's client secret is still the placeholder "${CLIENT_SECRET_PLACEHOLDER}": ` +
      (arn
        ? `put the client secret the provider issued in the secret ${arn} (docs/deploy.md, "Provider client secrets")`
        : `set ${name} to the client secret the provider issued`),
  );
}

/** The configuration of a runtime whose secret settings come from `secrets`. */
export function connectorConfig(secrets: Secrets): ConnectorConfig {
  return {
    stateKey: async () => {
      const key = Buffer.from(await secrets.get(STATE_KEY_ENV), 'utf8');
      if (key.length < 32) throw new ConfigurationError(`${STATE_KEY_ENV} must be at least 32 bytes`);
      return key;
    },
    // A route is given only the variables it reads (lib/connectors.ts): each setting is a getter that
    // reads its variable when first used, so reading one the route does not use would fail.
    provider: providerEndpoints,
    client: async (id, params) => {
      const name = clientSecretName(id, params);
      const clientSecret = checkClientSecret(id, await secrets.get(name), name);
      const settings = Object.getOwnPropertyDescriptors(providerEndpoints(id, params));
      // Endpoints on a host the connection named: each request vetted and pinned (loopback outside
      // production only, as for webhook URLs).
      const guard = apiHostFromParams(PROVIDERS[id]) ? { guard: { allowLoopback: loopbackAllowed() } } : {};
      return Object.defineProperties({ clientSecret, ...guard }, settings) as ProviderClient;
    },
    issuer: providerIssuer,
  };
}

/** The local runtime's configuration: every setting, secret or not, from the environment. */
export const envConfig: ConnectorConfig = connectorConfig({ get: async (name) => getStringFromEnv(name) });
