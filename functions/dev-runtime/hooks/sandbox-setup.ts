// Points the service's providers at the sandbox: registers one client per provider (exact redirect
// URI of the service's callback) and returns the PROVIDER_* variables that name it. A real provider
// is pointed at its fake (sandbox/providers/<id>/) by its ORIGIN: the fake serves the production
// paths, so nine providers' settings fit a function's 4 KB environment as Lambda counts it.
import { randomBytes } from 'node:crypto';
import { callbackUrl } from '../../connectors/index';
import type { ProviderId } from '../../connectors/index';
import { PROVIDERS, PROVIDER_IDS, providerEnv, rebased, settingDefault } from '../../connectors/index';
import { CONTENT_SCOPES, PROVIDER_FAKES, isContentShape } from '../../../sandbox';
import type { SandboxProvider } from '../../../sandbox';

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
    const settings: Record<string, string | undefined> = {
      AUTHORIZE_URL: endpoints.authorizeUrl,
      TOKEN_URL: endpoints.tokenUrl,
      ACCOUNT_URL: endpoints.accountUrl,
      API_URL: endpoints.apiUrl,
      // Only where the provider has them: a revocation endpoint, an `iss` in its responses.
      REVOKE_URL: endpoints.revokeUrl,
      ISSUER: endpoints.issuer,
      ...endpoints.extra,
    };
    // A fake serves its provider's production paths under one origin: that origin is the one setting,
    // and a setting is named only where the fake differs (another host's paths: Box's upload host).
    const origin = fakeOrigin(id, endpoints.apiUrl);
    if (origin) env[providerEnv(id, 'ORIGIN')] = origin;
    for (const [name, value] of Object.entries(settings))
      if (value !== undefined && !(origin && settingDefault(id, name, origin) === value))
        env[providerEnv(id, name)] = value;
    env[providerEnv(id, 'CLIENT_ID')] = clientId;
    env[providerEnv(id, 'CLIENT_SECRET')] = clientSecret;
  }
  return env;
}

/** Where a fake serves its production paths: its API root less the production API root's path. */
function fakeOrigin(id: ProviderId, apiUrl: string): string | undefined {
  const production = settingDefault(id, 'API_URL');
  if (production === undefined) return undefined;
  const path = rebased(production, '');
  return apiUrl.endsWith(path) ? apiUrl.slice(0, apiUrl.length - path.length) : undefined;
}

/**
 * One setting (`TOKEN_URL`, `CONTENT_URL`) of the environment `registerSandboxClients` returned, as the
 * service reads it: named, else its production value under the provider's ORIGIN; undefined where the
 * provider has none (Microsoft's revocation endpoint).
 */
export const sandboxSetting = (
  env: Record<string, string | undefined>,
  id: ProviderId,
  name: string,
): string | undefined =>
  env[providerEnv(id, name)] ?? settingDefault(id, name, env[providerEnv(id, 'ORIGIN')]);
