// Points the service's providers at the sandbox: registers one client per provider (exact redirect
// URI of the service's callback) and returns the PROVIDER_* variables that name it. A real provider
// (clio, google_drive, onedrive, dropbox) is pointed at its fake (sandbox/providers/<id>/).
import { randomBytes } from 'node:crypto';
import { callbackUrl } from '../../connectors/index';
import type { ProviderId } from '../../connectors/index';
import { PROVIDERS, PROVIDER_IDS, providerEnv } from '../../connectors/index';
import { CONTENT_SCOPES, PROVIDER_FAKES, isContentShape } from '../../../sandbox';
import type { SandboxProvider } from '../../../sandbox';

/**
 * Providers the emulated AWS runtime leaves unconfigured: with every provider pointed at the sandbox
 * (each endpoint an override, as no deployment has), the OAuth callback's environment of nine
 * providers' endpoints, client ids and secret ARNs is over Lambda's 4 KB, and the emulated runtime
 * refuses it as Lambda would. iManage Work runs on the local runtime only until a provider's settings
 * take less room (docs/decisions.md, "Nine providers and the callback's 4 KB").
 */
export const NOT_ON_EMULATED_AWS: readonly ProviderId[] = ['imanage'];

export function registerSandboxClients(
  sandbox: SandboxProvider,
  serviceBaseUrl: string,
  providers: readonly ProviderId[] = PROVIDER_IDS,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const id of providers) {
    const definition = PROVIDERS[id];
    const fake = PROVIDER_FAKES.find((f) => f.id === id);
    const clientId = `sandbox-${id}`;
    const clientSecret = randomBytes(24).toString('base64url');
    sandbox.register({
      provider: id,
      clientId,
      clientSecret,
      redirectUris: [callbackUrl(serviceBaseUrl, id)],
      // Whatever a tier asks for, and every scope the sandbox's content API checks (a deployment's
      // profile may name tiers without the write scopes; the sandbox still knows them); a fake knows
      // its provider's scopes.
      scopes: [
        ...new Set([
          ...Object.values(definition.scopeTiers).flatMap((tier) => tier.scopes),
          ...(isContentShape(id) ? CONTENT_SCOPES[id] : []),
          ...(fake?.scopes ?? []),
        ]),
      ],
      rotateRefreshTokens: definition.rotatesRefreshTokens,
      accessTokenSeconds: definition.defaultAccessTokenSeconds,
    });
    const endpoints = sandbox.endpoints(id);
    Object.assign(env, {
      [providerEnv(id, 'AUTHORIZE_URL')]: endpoints.authorizeUrl,
      [providerEnv(id, 'TOKEN_URL')]: endpoints.tokenUrl,
      [providerEnv(id, 'ACCOUNT_URL')]: endpoints.accountUrl,
      [providerEnv(id, 'CLIENT_ID')]: clientId,
      [providerEnv(id, 'CLIENT_SECRET')]: clientSecret,
      [providerEnv(id, 'API_URL')]: endpoints.apiUrl,
      // Only where the provider has them: a revocation endpoint, an `iss` in its responses.
      ...(endpoints.revokeUrl ? { [providerEnv(id, 'REVOKE_URL')]: endpoints.revokeUrl } : {}),
      ...(endpoints.issuer ? { [providerEnv(id, 'ISSUER')]: endpoints.issuer } : {}),
      ...Object.fromEntries(
        Object.entries(endpoints.extra ?? {}).map(([name, value]) => [providerEnv(id, name), value]),
      ),
    });
  }
  return env;
}
