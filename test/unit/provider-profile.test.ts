// Provider configuration as data: a standard OpenID Connect provider (userinfo names the id `sub`,
// client_secret_post, expires_in as a string) through the real OAuth client over real HTTP.
import type { IncomingMessage, Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exchangeCode, fetchAccount } from '../../functions/connectors/infra/oauth-client';
import type { ProviderDefinition } from '../../functions/connectors/domain/providers';
import { applyProfile, PROVIDERS, providerProfileSchema } from '../../functions/connectors/domain/providers';

let server: Server;
let base: string;
const seen: { path: string; authorization?: string; body: string }[] = [];

const read = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = '';
    request.on('data', (c: Buffer) => (body += c.toString('utf8')));
    request.on('end', () => resolve(body));
  });

beforeAll(async () => {
  server = createServer((request, response) => {
    void read(request).then((body) => {
      seen.push({ path: request.url ?? '', authorization: request.headers.authorization, body });
      response.setHeader('Content-Type', 'application/json');
      if (request.url === '/token') {
        const form = new URLSearchParams(body);
        const ok = form.get('client_id') === 'oidc-client' && form.get('client_secret') === 's3cret';
        response.statusCode = ok ? 200 : 401;
        response.end(
          JSON.stringify(
            ok
              ? { access_token: 'at', token_type: 'Bearer', expires_in: '3600', scope: 'openid email' }
              : { error: 'invalid_client' },
          ),
        );
      } else {
        response.end(JSON.stringify({ sub: '248289761001', email: 'j@example.com', name: 'Jane' }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

const oidc: ProviderDefinition = applyProfile(
  PROVIDERS.practice,
  providerProfileSchema().parse({
    accountFields: { externalId: 'sub' },
    scopeTiers: { standard: { scopes: ['openid', 'email'], required: ['openid'], description: 'Sign in' } },
    tokenEndpointAuthMethod: 'client_secret_post',
  }),
);
const client = {
  tokenUrl: '',
  revokeUrl: '',
  accountUrl: '',
  clientId: 'oidc-client',
  clientSecret: 's3cret',
};

describe('a provider configured as a standard OpenID Connect provider', () => {
  it('authenticates with client_secret_post, reads expires_in given as a string and the sub claim', async () => {
    const endpoints = { ...client, tokenUrl: `${base}/token`, accountUrl: `${base}/userinfo` };
    const tokens = await exchangeCode(endpoints, oidc, {
      code: 'c',
      verifier: 'v',
      redirectUri: 'https://x/cb',
    });
    expect(tokens).toMatchObject({ accessToken: 'at', expiresInSeconds: 3600, scopes: ['openid', 'email'] });
    const tokenCall = seen.find((s) => s.path === '/token')!;
    expect(tokenCall.authorization).toBeUndefined();
    expect(await fetchAccount(endpoints, oidc, tokens.accessToken)).toEqual({
      external_id: '248289761001',
      email: 'j@example.com',
      display_name: 'Jane',
    });
  });

  it('keeps client_secret_basic as the default, with no secret in the body', async () => {
    const endpoints = { ...client, tokenUrl: `${base}/token`, accountUrl: `${base}/userinfo` };
    seen.length = 0;
    await expect(
      exchangeCode(endpoints, PROVIDERS.practice, { code: 'c', verifier: 'v', redirectUri: 'https://x/cb' }),
    ).rejects.toMatchObject({ status: 401 });
    expect(seen[0]!.authorization).toMatch(/^Basic /);
    expect(seen[0]!.body).not.toContain('s3cret');
  });

  it('refuses a profile whose default tier is missing or whose tier requires what it does not ask for', () => {
    expect(() => applyProfile(PROVIDERS.practice, { defaultTier: 'admin' })).toThrow(/defaultTier/);
    expect(() =>
      applyProfile(PROVIDERS.practice, {
        scopeTiers: { standard: { scopes: ['a'], required: ['b'], description: 'x' } },
      }),
    ).toThrow(/requires a scope/);
  });
});
