// Points the service's providers at the sandbox: registers one client per provider (exact redirect
// URI of the service's callback) and returns the PROVIDER_* variables that name it.
import { randomBytes } from 'node:crypto';
import { callbackUrl } from '../../connectors/index';
import type { ProviderId } from '../../connectors/index';
import { PROVIDERS, PROVIDER_IDS, providerEnv } from '../../connectors/index';
import { CONTENT_SCOPES, isContentShape } from '../../../sandbox';
import type { SandboxProvider } from '../../../sandbox';

export function registerSandboxClients(
  sandbox: SandboxProvider,
  serviceBaseUrl: string,
  providers: readonly ProviderId[] = PROVIDER_IDS,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const id of providers) {
    const definition = PROVIDERS[id];
    const clientId = `sandbox-${id}`;
    const clientSecret = randomBytes(24).toString('base64url');
    sandbox.register({
      provider: id,
      clientId,
      clientSecret,
      redirectUris: [callbackUrl(serviceBaseUrl, id)],
      // Whatever a tier asks for, and every scope the sandbox's content API checks (a deployment's
      // profile may name tiers without the write scopes; the sandbox still knows them).
      scopes: [
        ...new Set([
          ...Object.values(definition.scopeTiers).flatMap((tier) => tier.scopes),
          ...(isContentShape(id) ? CONTENT_SCOPES[id] : []),
        ]),
      ],
      rotateRefreshTokens: definition.rotatesRefreshTokens,
      accessTokenSeconds: definition.defaultAccessTokenSeconds,
    });
    const endpoints = sandbox.endpoints(id);
    Object.assign(env, {
      [providerEnv(id, 'AUTHORIZE_URL')]: endpoints.authorizeUrl,
      [providerEnv(id, 'TOKEN_URL')]: endpoints.tokenUrl,
      [providerEnv(id, 'REVOKE_URL')]: endpoints.revokeUrl,
      [providerEnv(id, 'ACCOUNT_URL')]: endpoints.accountUrl,
      [providerEnv(id, 'CLIENT_ID')]: clientId,
      [providerEnv(id, 'CLIENT_SECRET')]: clientSecret,
      [providerEnv(id, 'ISSUER')]: endpoints.issuer,
      [providerEnv(id, 'API_URL')]: endpoints.apiUrl,
    });
  }
  return env;
}
