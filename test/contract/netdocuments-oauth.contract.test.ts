// NetDocuments' OAuth as its fake serves it through the sandbox's authorization server, per region: the
// consent page at /neWeb2/OAuth.aspx and the token endpoint at /v1/OAuth under the region's segment,
// comma-separated scopes, the client's credentials as HTTP Basic, a refresh that keeps its refresh
// token. The PRODUCTION OAuth client (exchangeCode, refreshTokens, fetchAccount) with NetDocuments'
// definition reads it, and the API takes the tokens only in the region that issued them.
import { createHash, randomBytes } from 'node:crypto';
import { startSandboxProvider } from '../../sandbox';
import type { SandboxProvider } from '../../sandbox';
import { exchangeCode, fetchAccount, refreshTokens } from '../../functions/connectors/infra/oauth-client';
import { NetDocumentsApi } from '../../functions/connectors/providers/netdocuments/client';
import { definition } from '../../functions/connectors/providers/netdocuments/definition';
import { netdocumentsFake } from '../../sandbox/providers/netdocuments';

const REDIRECT_URI = 'https://client.test.example/callback';
let sandbox: SandboxProvider;

beforeAll(async () => {
  sandbox = await startSandboxProvider({ fakes: [netdocumentsFake] });
});
afterAll(() => sandbox.close());

/** The fake's endpoint templates with the region filled in, as the connection's settings hold them. */
function regional(region: string) {
  const templates = sandbox.endpoints('netdocuments');
  const fill = (url: string) => url.replace('{region}', region);
  return {
    authorizeUrl: fill(templates.authorizeUrl),
    tokenUrl: fill(templates.tokenUrl),
    accountUrl: fill(templates.accountUrl),
    apiUrl: fill(templates.apiUrl),
    revokeUrl: '',
  };
}

function registered(scopes: string[]) {
  const clientId = `test-nd-${randomBytes(4).toString('hex')}`;
  const clientSecret = randomBytes(24).toString('base64url');
  sandbox.register({
    provider: 'netdocuments',
    clientId,
    clientSecret,
    redirectUris: [REDIRECT_URI],
    scopes,
    // The fake's own shape decides how a refresh answers (it keeps its token), whatever this says.
    rotateRefreshTokens: true,
  });
  return { clientId, clientSecret };
}

/** The consent approved for `account` in `region`: the code and its verifier. */
async function consent(region: string, clientId: string, scope: string, account: string) {
  const endpoints = regional(region);
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(endpoints.authorizeUrl);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    scope,
    state: 'st',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }))
    authorize.searchParams.set(k, v);
  const page = await fetch(authorize, { redirect: 'manual' });
  if (page.status !== 200) return { location: new URL(page.headers.get('location')!), verifier };
  const requestId = /name="request_id" value="([^"]+)"/.exec(await page.text())?.[1];
  const approved = await fetch(endpoints.authorizeUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ request_id: requestId!, decision: 'approve', account_id: account }),
  });
  return { location: new URL(approved.headers.get('location')!), verifier };
}

describe('NetDocuments OAuth through the sandbox authorization server, per region', () => {
  it('issues tokens for comma-separated scopes that the API takes in that region only', async () => {
    expect(sandbox.endpoints('netdocuments').authorizeUrl).toMatch(
      /\/netdocuments\/\{region\}\/neWeb2\/OAuth\.aspx$/,
    );
    const app = registered(['read', 'edit']);
    const scope = definition.scopeTiers.import_export!.scopes.join(definition.scopeSeparator);
    expect(scope).toBe('read,edit');
    const { location, verifier } = await consent('eu', app.clientId, scope, 'acct-nd-oauth');
    const code = location.searchParams.get('code');
    expect(code).toEqual(expect.any(String));
    const eu = { ...regional('eu'), ...app };

    // A code of the EU data center is no good at another's token endpoint (and is spent there).
    const other = await consent('eu', app.clientId, scope, 'acct-nd-oauth');
    await expect(
      exchangeCode({ ...regional('us'), ...app }, definition, {
        code: other.location.searchParams.get('code')!,
        verifier: other.verifier,
        redirectUri: REDIRECT_URI,
      }),
    ).rejects.toMatchObject({ status: 400 });
    const tokens = await exchangeCode(eu, definition, { code: code!, verifier, redirectUri: REDIRECT_URI });
    expect(tokens.scopes).toEqual(['read', 'edit']);
    expect(tokens.refreshToken).toEqual(expect.any(String));
    expect(tokens.expiresInSeconds).toBe(3600);

    const account = await fetchAccount(eu, definition, tokens.accessToken);
    expect(account).toMatchObject({ external_id: 'acct-nd-oauth' });
    const api = new NetDocumentsApi({ apiUrl: eu.apiUrl });
    expect((await api.browse(tokens.accessToken, undefined, { limit: 10 })).entries).toHaveLength(1);
    await expect(
      new NetDocumentsApi({ apiUrl: regional('us').apiUrl }).browse(tokens.accessToken, undefined, {
        limit: 10,
      }),
    ).rejects.toMatchObject({ status: 401 });

    // A refresh answers a new access token and keeps the refresh token (not rotated).
    const refreshed = await refreshTokens(eu, definition, tokens.refreshToken!);
    expect(refreshed.refreshToken ?? tokens.refreshToken).toBe(tokens.refreshToken);
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    expect((await refreshTokens(eu, definition, tokens.refreshToken!)).accessToken).toEqual(
      expect.any(String),
    );
    await expect(
      refreshTokens({ ...regional('de'), ...app }, definition, tokens.refreshToken!),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('refuses a space-separated scope list and an unknown region', async () => {
    const app = registered(['read', 'edit']);
    const { location } = await consent('us', app.clientId, 'read edit', 'acct-nd-scopes');
    expect(location.searchParams.get('error')).toBe('invalid_scope');
    const unknown = await fetch(regional('xx').authorizeUrl);
    expect(unknown.status).toBe(404);
  });
});
