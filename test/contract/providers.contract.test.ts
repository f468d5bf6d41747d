// The provider contract: every provider (the sandbox's two and the real four) through the PRODUCTION
// OAuth client (functions/connectors/infra/oauth-client.ts) and content-API client
// (functions/connectors/infra/content/*) against its sandbox fake over real HTTP. The fakes behave as
// the providers document (sandbox/providers/<id>/); a case that passes here exercises our client
// against the provider's wire format. Needs no emulator.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { startSandboxProvider } from '../../sandbox';
import type { SandboxProvider } from '../../sandbox';
import { registerSandboxClients } from '../../functions/dev-runtime/hooks/sandbox-setup';
import type { ProviderId } from '../../functions/connectors/domain/providers';
import { PROVIDERS, PROVIDER_IDS, providerEnv } from '../../functions/connectors/domain/providers';
import { authorizeUrl, callbackUrl, newPkce } from '../../functions/connectors/domain/flow-crypto';
import {
  ProviderHttpError,
  exchangeCode,
  fetchAccount,
  refreshTokens,
  revokeToken,
} from '../../functions/connectors/infra/oauth-client';
import type { ProviderClient, TokenSet } from '../../functions/connectors/infra/oauth-client';
import type { ContentApi, SourceEntry } from '../../functions/connectors/infra/content';
import { ProviderApiError, contentApi, hasContentApi } from '../../functions/connectors/infra/content';

const BASE = 'http://127.0.0.1:9';
let sandbox: SandboxProvider;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandboxProvider({ exposeIssued: true });
  env = registerSandboxClients(sandbox, BASE);
});
afterAll(() => sandbox.close());

const setting = (id: ProviderId, field: string) => env[providerEnv(id, field)] ?? '';
const clientOf = (id: ProviderId): ProviderClient => ({
  tokenUrl: setting(id, 'TOKEN_URL'),
  revokeUrl: setting(id, 'REVOKE_URL'),
  accountUrl: setting(id, 'ACCOUNT_URL'),
  clientId: setting(id, 'CLIENT_ID'),
  clientSecret: setting(id, 'CLIENT_SECRET'),
});
const apiOf = (id: ProviderId): ContentApi =>
  contentApi(PROVIDERS[id], { apiUrl: setting(id, 'API_URL'), setting: (name) => setting(id, name) });

async function hook(path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** The consent as a user gives it at the provider's page; the code and `iss` it redirects back with. */
async function consent(id: ProviderId, account: string, tier = PROVIDERS[id].defaultTier) {
  const pkce = newPkce();
  const definition = PROVIDERS[id];
  const redirectUri = callbackUrl(BASE, id);
  const url = authorizeUrl(setting(id, 'AUTHORIZE_URL'), {
    clientId: setting(id, 'CLIENT_ID'),
    redirectUri,
    scopes: definition.scopeTiers[tier]!.scopes,
    separator: definition.scopeSeparator,
    state: 'state-1',
    challenge: pkce.challenge,
    extra: definition.authorizeParams,
  });
  const page = await fetch(url, { redirect: 'manual' });
  const html = await page.text();
  expect(page.status).toBe(200);
  const requestId = /name="request_id" value="([^"]+)"/.exec(html)![1]!;
  const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!;
  const answer = await fetch(`${sandbox.url}${action}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      request_id: requestId,
      decision: 'approve',
      simulate: 'none',
      account_id: account,
      email: `${account}@example.com`,
      display_name: `User ${account}`,
    }),
  });
  const back = new URL(answer.headers.get('location')!);
  expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
  return {
    code: back.searchParams.get('code')!,
    iss: back.searchParams.get('iss') ?? undefined,
    verifier: pkce.verifier,
    redirectUri,
  };
}

async function connect(id: ProviderId, account: string, tier?: string): Promise<TokenSet> {
  const { code, verifier, redirectUri } = await consent(id, account, tier);
  return exchangeCode(clientOf(id), PROVIDERS[id], { code, verifier, redirectUri });
}

const sha256 = async (body: Readable) => {
  const hash = createHash('sha256');
  for await (const chunk of body) hash.update(chunk as Buffer);
  return hash.digest('hex');
};

describe.each(PROVIDER_IDS.map((id) => [id]))('provider %s', (id) => {
  const definition = PROVIDERS[id];

  describe('OAuth through the production client', () => {
    it('connects with the documented parameters: a refresh token, the account, the issuer where sent', async () => {
      const account = `acct-${id}-1`;
      const { code, iss, verifier, redirectUri } = await consent(id, account);
      // RFC 9207: where the provider sends `iss`, it is the issuer we configure for it.
      expect(iss).toBe(setting(id, 'ISSUER') || undefined);
      const tokens = await exchangeCode(clientOf(id), definition, { code, verifier, redirectUri });
      // Offline access asked for as the provider wants it (access_type, offline_access, token_access_type).
      expect(tokens.refreshToken).toEqual(expect.any(String));
      const tier = definition.scopeTiers[definition.defaultTier]!;
      for (const scope of tier.required) expect(tokens.scopes ?? tier.scopes).toContain(scope);
      await expect(fetchAccount(clientOf(id), definition, tokens.accessToken)).resolves.toEqual({
        external_id: account,
        email: `${account}@example.com`,
        display_name: `User ${account}`,
      });
    });

    it('refreshes (rotating or not, as the provider does) and the new access token works', async () => {
      const tokens = await connect(id, `acct-${id}-2`);
      const fresh = await refreshTokens(clientOf(id), definition, tokens.refreshToken!);
      expect(fresh.accessToken).not.toBe(tokens.accessToken);
      if (definition.rotatesRefreshTokens) expect(fresh.refreshToken).not.toBe(tokens.refreshToken);
      else expect(fresh.refreshToken ?? tokens.refreshToken).toBe(tokens.refreshToken);
      await expect(fetchAccount(clientOf(id), definition, fresh.accessToken)).resolves.toMatchObject({
        external_id: `acct-${id}-2`,
      });
    });

    it('revokes the grant as the provider asks for it (or says it cannot)', async () => {
      const tokens = await connect(id, `acct-${id}-3`);
      const revocation = definition.revocation;
      if (revocation.style === 'none') {
        expect(setting(id, 'REVOKE_URL')).toBe('');
        return;
      }
      const [token, hint] =
        revocation.style === 'rfc7009' && tokens.refreshToken
          ? [tokens.refreshToken, 'refresh_token' as const]
          : [tokens.accessToken, 'access_token' as const];
      await revokeToken(clientOf(id), revocation, token, hint);
      await expect(fetchAccount(clientOf(id), definition, tokens.accessToken)).rejects.toMatchObject({
        status: 401,
      });
      await expect(refreshTokens(clientOf(id), definition, tokens.refreshToken!)).rejects.toBeInstanceOf(
        ProviderHttpError,
      );
    });
  });

  const content = hasContentApi(definition.contentApi) ? describe : describe.skip;
  content('content API through the production client', () => {
    const account = `acct-${id}-content`;
    let token: string;
    let api: ContentApi;
    /** The first container at the top (a folder or a matter) and what the fake holds in it. */
    let container: SourceEntry;

    beforeAll(async () => {
      token = (await connect(id, account, Object.keys(definition.scopeTiers).at(-1))).accessToken;
      api = apiOf(id);
      const top = await api.browse(token, undefined, { limit: 100 });
      container = top.entries.find((e) => e.kind === 'container')!;
      expect(container).toBeDefined();
    });

    it('browses a container a page at a time', async () => {
      const seen: SourceEntry[] = [];
      let next: string | undefined;
      do {
        const page = await api.browse(token, container.id, { token: next, limit: 1 });
        expect(page.entries.length).toBeLessThanOrEqual(1);
        seen.push(...page.entries);
        next = page.next;
      } while (next);
      expect(seen.length).toBeGreaterThan(0);
      expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
    });

    it('imports in full, then only what changed: created, modified, deleted', async () => {
      const walk = async (cursor?: string) => {
        const files = [];
        let position: { page: string } | { cursor?: string } = { cursor };
        for (;;) {
          const page = await api.changes(token, container.id, position, 2);
          files.push(...page.files);
          if ('cursor' in page.next) return { files, cursor: page.next.cursor };
          position = page.next;
        }
      };
      const full = await walk();
      expect(full.files.length).toBeGreaterThan(0);
      const victim = full.files.find((f) => !f.deleted)!;
      const body = (await api.download(token, victim.id)).body;
      expect((await sha256(body)).length).toBe(64);

      const created = await hook('/__sandbox/files', {
        provider: id,
        account_id: account,
        container_id: container.id,
        name: 'contract-new.txt',
        content: 'new',
      });
      const changedOne = full.files.find((f) => !f.deleted && f.id !== victim.id)!;
      await hook('/__sandbox/files', {
        provider: id,
        account_id: account,
        container_id: container.id,
        name: changedOne.name,
        content: 'changed',
      });
      const del = await fetch(
        `${sandbox.url}/__sandbox/files/${id}/${account}/${encodeURIComponent(victim.id)}`,
        { method: 'DELETE' },
      );
      expect(del.status).toBe(204);

      const delta = await walk(full.cursor);
      const byId = new Map(delta.files.map((f) => [f.id, f]));
      expect(byId.get(String(created.id))).toMatchObject({ name: 'contract-new.txt', deleted: false });
      expect(byId.get(changedOne.id)?.version).not.toBe(changedOne.version);
      expect(byId.get(victim.id)).toMatchObject({ deleted: true });
      const download = await api.download(token, String(created.id));
      expect(await sha256(download.body)).toBe(createHash('sha256').update('new').digest('hex'));
    });

    it('reports throttling with its Retry-After', async () => {
      await hook('/__sandbox/next-api-error', { provider: id, status: 429, retry_after: 7 });
      const failure = await api.browse(token, container.id, { limit: 1 }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(ProviderApiError);
      expect(failure).toMatchObject({ status: 429, retryAfterSeconds: 7 });
    });

    it('answers 401 for a revoked grant', async () => {
      const other = (await connect(id, `${account}-revoked`)).accessToken;
      await hook('/__sandbox/revoke-grants', { provider: id, account_id: `${account}-revoked` });
      await expect(api.browse(other, undefined, { limit: 1 })).rejects.toMatchObject({ status: 401 });
    });
  });
});
