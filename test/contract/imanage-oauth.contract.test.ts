// iManage Work's OAuth as the iManage fake serves it through the sandbox's authorization server, per
// customer server: the consent and the token endpoint under the server's path, PKCE, a refresh that
// answers the same refresh token, the account from discovery read by the production OAuth client with
// iManage's definition, and grants good on the server that issued them only (a code, a refresh token or
// an access token taken to another server is refused). A server that is not a DNS name is no server.
import { createHash, randomBytes } from 'node:crypto';
import { startSandboxProvider } from '../../sandbox';
import type { SandboxProvider } from '../../sandbox';
import { fetchAccount } from '../../functions/connectors/infra/oauth-client';
import { ImanageApi } from '../../functions/connectors/providers/imanage/client';
import { definition } from '../../functions/connectors/providers/imanage/definition';
import { imanageFake } from '../../sandbox/providers/imanage';

const REDIRECT_URI = 'https://client.test.example/callback';
const SERVER = 'work.firm.example';
const OTHER = 'cloudimanage.com';

let sandbox: SandboxProvider;
const clientId = `test-imanage-${randomBytes(4).toString('hex')}`;
const clientSecret = randomBytes(24).toString('base64url');

beforeAll(async () => {
  sandbox = await startSandboxProvider({ fakes: [imanageFake] });
  sandbox.register({
    provider: 'imanage',
    clientId,
    clientSecret,
    redirectUris: [REDIRECT_URI],
    scopes: ['user'],
    rotateRefreshTokens: false,
  });
});
afterAll(() => sandbox.close());

/** The fake's endpoints on one server (the plumbing resolves `{server}` per connection; here by hand). */
const on = (server: string) => {
  const templates = sandbox.endpoints('imanage');
  const fill = (url: string) => url.replaceAll('{server}', server);
  return {
    authorizeUrl: fill(templates.authorizeUrl),
    tokenUrl: fill(templates.tokenUrl),
    accountUrl: fill(templates.accountUrl),
    apiUrl: fill(templates.apiUrl),
  };
};

const token = (server: string, form: Record<string, string>) =>
  fetch(on(server).tokenUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...form, client_id: clientId, client_secret: clientSecret }),
  });

/** Consent on `server` for `account`: the code and the PKCE verifier it must be exchanged with. */
async function consent(server: string, account: string): Promise<{ code: string; verifier: string }> {
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(on(server).authorizeUrl);
  Object.entries({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    scope: 'user',
    state: 'st',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).forEach(([k, v]) => authorize.searchParams.set(k, v));
  const page = await (await fetch(authorize)).text();
  const requestId = /name="request_id" value="([^"]+)"/.exec(page)?.[1];
  const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
  expect(action).toBe(`/imanage/${server}/auth/oauth2/authorize`);
  const approved = await fetch(`${sandbox.url}${action}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ request_id: requestId!, decision: 'approve', account_id: account }),
  });
  const code = new URL(approved.headers.get('location')!).searchParams.get('code')!;
  return { code, verifier };
}

const exchange = (server: string, grant: { code: string; verifier: string }) =>
  token(server, {
    grant_type: 'authorization_code',
    code: grant.code,
    redirect_uri: REDIRECT_URI,
    code_verifier: grant.verifier,
  });

describe('iManage OAuth through the sandbox authorization server, per server', () => {
  it('issues tokens its server takes, refreshes with the same refresh token, and reads the account', async () => {
    const answer = await exchange(SERVER, await consent(SERVER, 'acct-im-oauth'));
    expect(answer.status).toBe(200);
    const tokens = (await answer.json()) as { access_token: string; refresh_token: string; scope: string };
    expect(tokens.scope).toBe('user');
    const api = new ImanageApi({
      apiUrl: on(SERVER).apiUrl,
      accessTokenHeader: definition.accessTokenHeader,
    });
    const top = await api.browse(tokens.access_token, undefined, { limit: 50 });
    expect(top.entries.map((e) => e.name).sort()).toEqual(['Clients', 'Templates']);

    const refreshed = await token(SERVER, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    const body = (await refreshed.json()) as { access_token: string; refresh_token?: string };
    expect(body.refresh_token ?? tokens.refresh_token).toBe(tokens.refresh_token);
    const account = await fetchAccount(
      { ...on(SERVER), revokeUrl: '', clientId: 'unused', clientSecret: 'unused' },
      definition,
      body.access_token,
    );
    expect(account).toMatchObject({ external_id: 'ACCT-IM-OAUTH' });
  });

  it('honours a code, a refresh token and an access token on the server that issued them only', async () => {
    const grant = await consent(SERVER, 'acct-im-tenant');
    expect((await exchange(OTHER, grant)).status).toBe(400); // the code is spent too: one use
    const fresh = await consent(SERVER, 'acct-im-tenant');
    const tokens = (await (await exchange(SERVER, fresh)).json()) as {
      access_token: string;
      refresh_token: string;
    };
    expect(
      (await token(OTHER, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).status,
    ).toBe(400);
    const elsewhere = new ImanageApi({
      apiUrl: on(OTHER).apiUrl,
      accessTokenHeader: definition.accessTokenHeader,
    });
    await expect(elsewhere.browse(tokens.access_token, undefined, { limit: 5 })).rejects.toMatchObject({
      status: 401,
      providerError: 'AUTH_REQUIRED',
    });
  });

  it('serves no server that is not a DNS name (an IP literal, a port)', async () => {
    for (const host of ['127.0.0.1', '10.0.0.1', 'work.firm.example:8443'])
      expect((await fetch(`${sandbox.url}/imanage/${encodeURIComponent(host)}/api`)).status).toBe(404);
  });
});
