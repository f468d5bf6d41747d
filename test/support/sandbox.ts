// The sandbox OAuth provider in process, for integration tests of the connect flow and the token
// lifecycle: the connector configuration pointing at it, and a user approving consent on it.
import { randomBytes } from 'node:crypto';
import type { ConnectorConfig } from '../../functions/connectors/infra/config';
import type { ProviderId } from '../../functions/connectors/domain/providers';
import { PROVIDER_IDS, providerEnv } from '../../functions/connectors/domain/providers';
import type { SandboxProvider } from '../../sandbox';
import { registerSandboxClients, sandboxSetting } from '../../functions/dev-runtime/hooks/sandbox-setup';

/** Registers our clients at the sandbox (callbacks under `baseUrl`) and returns the config to use them. */
export function sandboxConnectorConfig(sandbox: SandboxProvider, baseUrl: string): ConnectorConfig {
  const env = registerSandboxClients(sandbox, baseUrl);
  const setting = (id: ProviderId, field: string) => {
    const value = sandboxSetting(env, id, field);
    if (!value) throw new Error(`the sandbox registered no ${providerEnv(id, field)}`);
    return value;
  };
  for (const id of PROVIDER_IDS) setting(id, 'CLIENT_ID');
  const stateKey = randomBytes(32);
  const provider = (id: ProviderId) => ({
    authorizeUrl: setting(id, 'AUTHORIZE_URL'),
    tokenUrl: setting(id, 'TOKEN_URL'),
    // A provider without a revocation endpoint (Microsoft) has none.
    revokeUrl: sandboxSetting(env, id, 'REVOKE_URL') ?? '',
    accountUrl: setting(id, 'ACCOUNT_URL'),
    apiUrl: setting(id, 'API_URL'),
    clientId: setting(id, 'CLIENT_ID'),
  });
  return {
    stateKey: async () => stateKey,
    provider,
    client: async (id) => ({ ...provider(id), clientSecret: setting(id, 'CLIENT_SECRET') }),
  };
}

/** Approves consent at the sandbox as the user would; returns the code and state it redirects with. */
export async function approveAtSandbox(
  authorizeUrl: string,
  account: string,
): Promise<{ code: string; state: string; iss?: string }> {
  const page = await (await fetch(authorizeUrl)).text();
  const requestId = /name="request_id" value="([^"]+)"/.exec(page)![1]!;
  const url = new URL(authorizeUrl);
  const answer = await fetch(`${url.origin}${url.pathname}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      request_id: requestId,
      decision: 'approve',
      simulate: 'none',
      account_id: account,
    }),
  });
  const back = new URL(answer.headers.get('location')!);
  return {
    code: back.searchParams.get('code')!,
    state: back.searchParams.get('state')!,
    ...(back.searchParams.has('iss') ? { iss: back.searchParams.get('iss')! } : {}),
  };
}
