// Box's OAuth as the Box fake serves it through the sandbox's authorization server (its paths, refresh
// tokens that rotate, RFC 7009 revocation with the client's credentials), read by the production OAuth
// client with Box's definition, and the API answering the tokens it issued: a consent's access token
// browses, a spent refresh token is refused and its replay ends the grant.
import { startSandboxProvider } from '../../sandbox';
import type { SandboxProvider } from '../../sandbox';
import { fetchAccount } from '../../functions/connectors/infra/oauth-client';
import { ProviderApiError } from '../../functions/connectors/infra/content/http';
import { BoxApi } from '../../functions/connectors/providers/box/client';
import { definition as boxDefinition } from '../../functions/connectors/providers/box/definition';
import { boxFake } from '../../sandbox/providers/box';
import { sandboxTestClient } from '../support/sandbox-tokens';

const definition = boxDefinition;

let sandbox: SandboxProvider;

beforeAll(async () => {
  sandbox = await startSandboxProvider({ fakes: [boxFake] });
});
afterAll(() => sandbox.close());

describe('Box OAuth through the sandbox authorization server', () => {
  it('issues tokens the API takes and rotates refresh tokens, a replay ending the grant', async () => {
    const endpoints = sandbox.endpoints('box');
    expect(endpoints.authorizeUrl).toMatch(/\/box\/api\/oauth2\/authorize$/);
    const client = sandboxTestClient(sandbox, 'box', [...definition.scopeTiers.import_export!.scopes]);
    const tokens = await client.tokens('acct-box-oauth', ['root_readwrite']);
    const api = new BoxApi({ apiUrl: endpoints.apiUrl, setting: (name) => endpoints.extra?.[name] ?? '' });
    expect((await api.browse(tokens.access_token, undefined, { limit: 10 })).entries).toEqual([
      { id: '0', name: 'All Files', kind: 'container' },
    ]);

    const refreshed = await client.refresh(tokens.refresh_token);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).toEqual(expect.any(String));
    expect(refreshed.body.refresh_token).not.toBe(tokens.refresh_token);
    const fresh = String(refreshed.body.access_token);
    const account = await fetchAccount(
      { ...endpoints, revokeUrl: endpoints.revokeUrl!, clientId: 'unused', clientSecret: 'unused' },
      definition,
      fresh,
    );
    expect(account.external_id).toMatch(/^\d+$/);
    // The spent refresh token is refused, and its replay ends the grant (the fresh token with it).
    expect((await client.refresh(tokens.refresh_token)).status).toBe(400);
    await expect(api.browse(fresh, '0', { limit: 1 })).rejects.toMatchObject({ status: 401 });
  });

  it("refuses a revocation without the client's credentials, and a token it never issued", async () => {
    const endpoints = sandbox.endpoints('box');
    const client = sandboxTestClient(sandbox, 'box', ['root_readonly']);
    const tokens = await client.tokens('acct-box-revoke', ['root_readonly']);
    const response = await fetch(`${endpoints.apiUrl}/users/me`, {
      headers: { Authorization: `Bearer ${tokens.access_token}` },
    });
    expect(response.status).toBe(200);
    const revoke = await fetch(endpoints.revokeUrl!, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refresh_token }),
    });
    // Without the client's credentials the revocation is refused (RFC 7009 with client authentication).
    expect(revoke.status).toBe(401);
    const failure = await new BoxApi({ apiUrl: endpoints.apiUrl })
      .browse('not-a-token', '0', { limit: 1 })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProviderApiError);
    expect(failure).toMatchObject({ status: 401 });
  });
});
