// Access tokens from the sandbox provider the way a client gets them: a registered client, the
// authorize endpoint (PKCE S256), the consent page approved for an account, the token endpoint.
import { createHash, randomBytes } from 'node:crypto';
import type { SandboxProvider } from '../../sandbox';
import { completeParams, fillTemplate, paramVars } from '../../functions/connectors/domain/connection-params';
import { PROVIDERS, isProviderId } from '../../functions/connectors/domain/providers';

const REDIRECT_URI = 'https://client.test.example/callback';

export interface SandboxTokens {
  access_token: string;
  refresh_token: string;
  scope: string;
}

export interface SandboxTestClient {
  /** Consent approved for `account` with `scopes`; the tokens the code is exchanged for. */
  tokens(account: string, scopes: string[]): Promise<SandboxTokens>;
  /** A refresh at the token endpoint: its status and body. */
  refresh(refreshToken: string): Promise<{ status: number; body: Record<string, unknown> }>;
}

/** Registers a test client of `provider` that may ask for `scopes`. */
export function sandboxTestClient(
  sandbox: SandboxProvider,
  provider: string,
  scopes: string[],
): SandboxTestClient {
  const clientId = `test-${provider}-${randomBytes(4).toString('hex')}`;
  const clientSecret = randomBytes(24).toString('base64url');
  sandbox.register({
    provider,
    clientId,
    clientSecret,
    redirectUris: [REDIRECT_URI],
    scopes,
    rotateRefreshTokens: true,
  });
  // A provider hosted per region or server: its endpoints as a connection with the default params has them.
  const vars = isProviderId(provider)
    ? paramVars(PROVIDERS[provider], completeParams(PROVIDERS[provider]))
    : {};
  const templates = sandbox.endpoints(provider);
  const endpoints = {
    tokenUrl: fillTemplate(templates.tokenUrl, vars),
    authorizeUrl: fillTemplate(templates.authorizeUrl, vars),
  };
  const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
  const tokenRequest = (form: Record<string, string>) =>
    fetch(endpoints.tokenUrl, {
      method: 'POST',
      headers: { Authorization: basic, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
    });

  return {
    async tokens(account, asked) {
      const verifier = randomBytes(32).toString('base64url');
      const authorize = new URL(endpoints.authorizeUrl);
      Object.entries({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT_URI,
        scope: asked.join(' '),
        state: 'st',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      }).forEach(([k, v]) => authorize.searchParams.set(k, v));
      const page = await (await fetch(authorize)).text();
      const requestId = /name="request_id" value="([^"]+)"/.exec(page)?.[1];
      if (!requestId) throw new Error(`no consent page: ${page.slice(0, 200)}`);
      const approved = await fetch(endpoints.authorizeUrl, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ request_id: requestId, decision: 'approve', account_id: account }),
      });
      const code = new URL(approved.headers.get('location')!).searchParams.get('code');
      if (!code) throw new Error(`consent gave no code: ${approved.headers.get('location')}`);
      const exchanged = await tokenRequest({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
      });
      if (exchanged.status !== 200) throw new Error(`token endpoint answered ${exchanged.status}`);
      return (await exchanged.json()) as SandboxTokens;
    },
    async refresh(refreshToken) {
      const answer = await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken });
      return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
    },
  };
}
