// The provider contract: every provider (the sandbox's two and the real four) through the PRODUCTION
// OAuth client (functions/connectors/infra/oauth-client.ts) and content-API client
// (functions/connectors/providers/<id>/client.ts) against its sandbox fake over real HTTP. The fakes behave as
// the providers document (sandbox/providers/<id>/); a case that passes here exercises our client
// against the provider's wire format. Needs no emulator.
import { completeParams, fillTemplate, paramVars } from '../../functions/connectors/domain/connection-params';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { externalAccountId, startSandboxProvider } from '../../sandbox';
import type { SandboxProvider } from '../../sandbox';
import { registerSandboxClients, sandboxSetting } from '../../functions/dev-runtime/hooks/sandbox-setup';
import type { ProviderId } from '../../functions/connectors/domain/providers';
import { PROVIDERS, PROVIDER_IDS, isRealProvider } from '../../functions/connectors/domain/providers';
import { authorizeUrl, callbackUrl, newPkce } from '../../functions/connectors/domain/flow-crypto';
import {
  ProviderHttpError,
  exchangeCode,
  fetchAccount,
  refreshTokens,
  revokeToken,
} from '../../functions/connectors/infra/oauth-client';
import type { ProviderClient, TokenSet } from '../../functions/connectors/infra/oauth-client';
import type { ContentApi, ProviderFile, SourceEntry } from '../../functions/connectors/infra/content';
import { FeedRestartError, ProviderApiError, contentApi } from '../../functions/connectors/infra/content';
import { DropboxApi } from '../../functions/connectors/providers/dropbox/client';

const BASE = 'http://127.0.0.1:9';
let sandbox: SandboxProvider;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandboxProvider({ exposeIssued: true });
  env = registerSandboxClients(sandbox, BASE);
});
afterAll(() => sandbox.close());

/** A setting as a connection with the default params gets it (a server's or region's templates filled). */
const setting = (id: ProviderId, field: string) =>
  fillTemplate(sandboxSetting(env, id, field) ?? '', paramVars(PROVIDERS[id], completeParams(PROVIDERS[id])));
const clientOf = (id: ProviderId): ProviderClient => ({
  tokenUrl: setting(id, 'TOKEN_URL'),
  revokeUrl: setting(id, 'REVOKE_URL'),
  accountUrl: setting(id, 'ACCOUNT_URL'),
  clientId: setting(id, 'CLIENT_ID'),
  clientSecret: setting(id, 'CLIENT_SECRET'),
});
const apiOf = (id: ProviderId): Promise<ContentApi> =>
  contentApi(PROVIDERS[id], {
    apiUrl: setting(id, 'API_URL'),
    setting: (name) => setting(id, name),
    clientId: () => setting(id, 'CLIENT_ID'),
  });

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

/**
 * Providers whose changes feed is a search by modification date (iManage Work's): a deletion, or a file
 * moved out of the container, is in no answer of it, so it waits for the link's reconcile.
 */
const FEED_WITHOUT_DELETIONS: readonly ProviderId[] = ['imanage'];

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
        external_id: externalAccountId(id, account),
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
        external_id: externalAccountId(id, `acct-${id}-2`),
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
      await revokeToken(clientOf(id), { ...definition, revocation }, token, hint);
      await expect(fetchAccount(clientOf(id), definition, tokens.accessToken)).rejects.toMatchObject({
        status: 401,
      });
      await expect(refreshTokens(clientOf(id), definition, tokens.refreshToken!)).rejects.toBeInstanceOf(
        ProviderHttpError,
      );
    });
  });

  describe('content API through the production client', () => {
    const account = `acct-${id}-content`;
    let token: string;
    let api: ContentApi;
    /** The first container at the top (a folder or a matter) and what the fake holds in it. */
    let container: SourceEntry;

    beforeAll(async () => {
      token = (await connect(id, account, Object.keys(definition.scopeTiers).at(-1))).accessToken;
      api = await apiOf(id);
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
      // A feed that lists no deletions leaves them to the reconcile (docs/providers.md, the changes table).
      if (FEED_WITHOUT_DELETIONS.includes(id)) expect(byId.has(victim.id)).toBe(false);
      else expect(byId.get(victim.id)).toMatchObject({ deleted: true });
      const download = await api.download(token, String(created.id));
      expect(await sha256(download.body)).toBe(createHash('sha256').update('new').digest('hex'));
    });

    it('never replaces a file the user made; replaces our own export only at the version it saw', async () => {
      await hook('/__sandbox/files', {
        provider: id,
        account_id: account,
        container_id: container.id,
        name: 'Letterhead.txt',
        content: 'the user wrote this',
      });
      const send = (name: string, text: string, key: string, replace?: ProviderFile) =>
        api.upload(token, container.id, {
          name,
          contentType: 'text/plain',
          size: Buffer.byteLength(text),
          body: Readable.from([Buffer.from(text)]),
          idempotencyKey: key,
          ...(replace ? { replace } : {}),
        });
      const read = async (fileId: string) => {
        const chunks: Buffer[] = [];
        for await (const chunk of (await api.download(token, fileId)).body) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks).toString('utf8');
      };
      const theirs = (await api.findFile(token, container.id, 'Letterhead.txt'))!;
      expect(theirs).toMatchObject({ name: 'Letterhead.txt' });
      expect(await api.findFile(token, container.id, 'No such file.txt')).toBeUndefined();
      await expect(send('Letterhead.txt', 'ours v1', 'exp_lh_0')).rejects.toMatchObject({
        reason: 'name_taken',
      });
      expect(await read(theirs.id)).toBe('the user wrote this');

      const ours = await send('Letterhead (2).txt', 'ours v1', 'exp_lh_1');
      expect(ours.name).toBe('Letterhead (2).txt');
      expect(await api.findFile(token, container.id, 'Letterhead (2).txt')).toEqual(ours);
      // A retried upload (same key, same bytes) is the same file.
      expect((await send('Letterhead (2).txt', 'ours v1', 'exp_lh_1')).id).toBe(ours.id);
      if (api.replaces !== false) {
        const next = await send('Letterhead (2).txt', 'ours v2', 'exp_lh_2', ours);
        expect(next.id).toBe(ours.id);
        expect(next.version).not.toBe(ours.version);
        // The version seen is gone: a replace over it is refused, not written.
        await expect(send('Letterhead (2).txt', 'ours v3', 'exp_lh_3', ours)).rejects.toMatchObject({
          reason: 'changed',
        });
        expect(await read(next.id)).toBe('ours v2');
      }
      expect(await read(theirs.id)).toBe('the user wrote this');
    });

    it('refuses names and ids that would change which URL a request goes to', async () => {
      for (const name of ['..', '.', '', ' ', 'a/b', '../up.txt', 'a\\b', 'nul\u0000.txt', 'cr\r\nlf.txt'])
        await expect(
          api.upload(token, container.id, {
            name,
            contentType: 'text/plain',
            size: 1,
            body: Readable.from([Buffer.from('x')]),
            idempotencyKey: 'exp_bad_name',
          }),
        ).rejects.toMatchObject({ reason: 'invalid_name' });
      for (const bad of ['..', '.'] as const) {
        const error = (await api.download(token, bad).catch((e: unknown) => e)) as ProviderApiError;
        expect(error).toBeInstanceOf(ProviderApiError);
        expect([400, 404]).toContain(error.status);
        const check = (await api.checkContainer(token, bad).catch((e: unknown) => e)) as ProviderApiError;
        expect(check).toBeInstanceOf(ProviderApiError);
        expect([400, 404]).toContain(check.status);
      }
    });

    it('reports throttling with its Retry-After', async () => {
      await hook('/__sandbox/next-api-error', { provider: id, status: 429, retry_after: 7 });
      const failure = await api.browse(token, container.id, { limit: 1 }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(ProviderApiError);
      expect(failure).toMatchObject({ status: 429, retryAfterSeconds: 7 });
    });

    it('answers 401 for an expired or refused token (the caller refreshes once)', async () => {
      await hook('/__sandbox/next-api-error', { provider: id, status: 401 });
      await expect(api.browse(token, container.id, { limit: 1 })).rejects.toMatchObject({ status: 401 });
    });

    it('answers 401 for a revoked grant', async () => {
      const other = (await connect(id, `${account}-revoked`)).accessToken;
      await hook('/__sandbox/revoke-grants', { provider: id, account_id: `${account}-revoked` });
      await expect(api.browse(other, undefined, { limit: 1 })).rejects.toMatchObject({ status: 401 });
    });
  });
});

/** What only real providers' clients promise (the sandbox's own shapes overwrite by name, scope by subtree). */
const REAL_WITH_CONTENT = PROVIDER_IDS.filter(isRealProvider).filter(
  // Folders within folders: the file-storage providers. Clio's matters hold documents; its own cases
  // (200 MiB streamed, an upload retried, a same-named document untouched) are in test/unit/clio-content.
  (id) => PROVIDERS[id].kind === 'file_storage',
);
describe.each(REAL_WITH_CONTENT.map((id) => [id]))('provider %s, as a real provider', (id) => {
  const definition = PROVIDERS[id];
  const account = `acct-${id}-real`;
  let token: string;
  let api: ContentApi;
  let clients: SourceEntry;
  let templates: SourceEntry;
  const files = async (container?: string) =>
    (
      (await (
        await fetch(
          `${sandbox.url}/__sandbox/files?provider=${id}&account_id=${account}${container ? `&container_id=${container}` : ''}`,
        )
      ).json()) as {
        files: { id: string; name: string; container_id: string; sha256: string; size: number }[];
      }
    ).files;
  const walk = async (container: string, cursor?: string) => {
    const out = [];
    let position: { page: string } | { cursor?: string } = { cursor };
    for (;;) {
      const page = await api.changes(token, container, position, 50);
      out.push(...page.files);
      if ('cursor' in page.next) return { files: out, cursor: page.next.cursor };
      position = page.next;
    }
  };

  beforeAll(async () => {
    token = (await connect(id, account, Object.keys(definition.scopeTiers).at(-1))).accessToken;
    api = await apiOf(id);
    const listed = (await api.browse(token, undefined, { limit: 100 })).entries;
    // The top is the account's root (a drive), or its top folders themselves (iManage's workspaces).
    const root = listed.find((e) => e.kind === 'container')!;
    const top = listed.some((e) => e.name === 'Clients')
      ? listed
      : (await api.browse(token, root.id, { limit: 100 })).entries;
    clients = top.find((e) => e.name === 'Clients')!;
    templates = top.find((e) => e.name === 'Templates')!;
    expect(clients && templates).toBeTruthy();
  });

  it("imports a folder's whole subtree, then reports moves out as deletions and moves in as files", async () => {
    const full = await walk(clients.id);
    const inside = await files(clients.id);
    expect(full.files.filter((f) => !f.deleted).length).toBeGreaterThanOrEqual(3); // subfolders too
    const leaving = full.files.find((f) => !f.deleted)!;
    const arriving = (await files(templates.id))[0]!;
    await hook('/__sandbox/move', {
      provider: id,
      account_id: account,
      file_id: leaving.id,
      container_id: templates.id,
    });
    // The id the provider gives the file where it arrived (the same id, or its new path for Dropbox).
    const arrived = await hook('/__sandbox/move', {
      provider: id,
      account_id: account,
      file_id: arriving.id,
      container_id: clients.id,
    });
    const delta = await walk(clients.id, full.cursor);
    const byId = new Map(delta.files.map((f) => [f.id, f]));
    if (FEED_WITHOUT_DELETIONS.includes(id)) expect(byId.has(leaving.id)).toBe(false);
    else expect(byId.get(leaving.id)).toMatchObject({ deleted: true });
    expect(byId.get(String(arrived.id))).toMatchObject({ deleted: false, name: arriving.name });
    expect(inside.length).toBeGreaterThan(0);
  });

  it('streams a 200 MiB file within a memory budget', async () => {
    const size = 200 * 1024 * 1024;
    const created = await hook('/__sandbox/files', {
      provider: id,
      account_id: account,
      container_id: templates.id,
      name: 'large.bin',
      size,
    });
    const expected = (await files(templates.id)).find((f) => f.id === created.id)!.sha256;
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    try {
      const download = await api.download(token, String(created.id));
      const hash = createHash('sha256');
      let bytes = 0;
      for await (const chunk of download.body) {
        hash.update(chunk as Buffer);
        bytes += (chunk as Buffer).length;
      }
      expect(bytes).toBe(size);
      expect(hash.digest('hex')).toBe(expected);
    } finally {
      clearInterval(sampler);
    }
    expect(peak - before).toBeLessThan(96 * 1024 * 1024);
  });

  it('exports above the small-upload size through an upload session, and a retry does not make a second file', async () => {
    // Dropbox's single call takes 150 MiB: the session is asked for here at a lower size, as it would
    // be above that (test/unit/dropbox-content covers the chunking); Drive's resumable starts above 5 MB.
    const sessionApi =
      id === 'dropbox'
        ? new DropboxApi({
            apiUrl: setting(id, 'API_URL'),
            contentUrl: setting(id, 'CONTENT_URL'),
            singleUploadMax: 1024 * 1024,
            chunkBytes: 4 * 1024 * 1024,
          })
        : api;
    const urls: string[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      urls.push(String(input instanceof Request ? input.url : input));
      return realFetch(input, init);
    };
    const bytes = Buffer.alloc(6 * 1024 * 1024 + 12_345, 7);
    const upload = () =>
      sessionApi.upload(token, templates.id, {
        name: 'session-export.bin',
        contentType: 'application/octet-stream',
        size: bytes.length,
        body: Readable.from([bytes.subarray(0, 1_000_000), bytes.subarray(1_000_000)]),
        idempotencyKey: 'exp_session_1',
      });
    let first: ProviderFile;
    let again: ProviderFile;
    try {
      first = await upload();
      again = await upload();
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(again.id).toBe(first.id);
    const session = {
      dropbox: ['/upload_session/start', '/upload_session/append_v2', '/upload_session/finish'],
      google_drive: ['uploadType=resumable'],
      onedrive: ['/createUploadSession'],
    }[id as string];
    for (const step of session ?? []) expect(urls.some((u) => u.includes(step))).toBe(true);
    const stored = (await files(templates.id)).filter((f) => f.name === 'session-export.bin');
    expect(stored).toHaveLength(1);
    expect(stored[0]!.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  /** An upload of `bytes` with fetch replaced by `intercept(realFetch)` while it runs. */
  async function uploadWith(
    intercept: (realFetch: typeof fetch) => typeof fetch,
    name: string,
    idempotencyKey: string,
    bytes: Buffer,
  ): Promise<ProviderFile> {
    const realFetch = globalThis.fetch;
    globalThis.fetch = intercept(realFetch);
    try {
      return await api.upload(token, templates.id, {
        name,
        contentType: 'application/octet-stream',
        size: bytes.length,
        body: Readable.from([bytes]),
        idempotencyKey,
      });
    } finally {
      globalThis.fetch = realFetch;
    }
  }

  if (id === 'onedrive') {
    it('reads a 503 serviceNotAvailable with Retry-After as throttling, as Graph documents it', async () => {
      await hook('/__sandbox/next-api-error', { provider: id, status: 503, retry_after: 4 });
      await expect(api.browse(token, templates.id, { limit: 1 })).rejects.toMatchObject({
        status: 503,
        providerError: 'serviceNotAvailable',
        throttled: true,
        retryAfterSeconds: 4,
      });
    });

    it('resumes an upload session where its uploadUrl says it is: after a lost answer and after a 5xx', async () => {
      const fragment = 32 * 320 * 1024;
      const bytes = Buffer.alloc(2 * fragment + 4321);
      for (let i = 0; i < bytes.length; i += 4096) bytes[i] = (i / 4096) % 251;
      const seen: string[] = [];
      let puts = 0;
      const out = await uploadWith(
        (realFetch) => async (input, init) => {
          const url = String(input instanceof Request ? input.url : input);
          if (url.includes('/upload/') && !url.includes('/v1.0/')) {
            const method = init?.method ?? 'GET';
            seen.push(`${method} ${new Headers(init?.headers).get('content-range') ?? ''}`.trim());
            if (method === 'PUT') {
              puts++;
              // The first fragment arrives but its answer is lost; the second fails at the provider.
              if (puts === 1) {
                await realFetch(input, init).then((r) => r.arrayBuffer());
                throw new TypeError('fetch failed');
              }
              if (puts === 2) return new Response('{}', { status: 503 });
            }
          }
          return realFetch(input, init);
        },
        'resumed-fragments.bin',
        'exp_resumed_fragments_1',
        bytes,
      );
      const total = bytes.length;
      expect(seen).toEqual([
        `PUT bytes 0-${fragment - 1}/${total}`, // arrived, answer lost
        'GET', // -> nextExpectedRanges [fragment-]: not sent again
        `PUT bytes ${fragment}-${2 * fragment - 1}/${total}`, // 503
        'GET', // -> nextExpectedRanges [fragment-]: sent again
        `PUT bytes ${fragment}-${2 * fragment - 1}/${total}`,
        `PUT bytes ${2 * fragment}-${total - 1}/${total}`,
      ]);
      const stored = (await files(templates.id)).find((f) => f.name === 'resumed-fragments.bin')!;
      expect(out.id.endsWith(stored.id)).toBe(true);
      expect(stored.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    });

    it('gives up an upload session whose fragment keeps failing, and drops the session', async () => {
      const bytes = Buffer.alloc(32 * 320 * 1024 + 10, 3);
      const seen: string[] = [];
      const failing =
        (realFetch: typeof fetch): typeof fetch =>
        async (input, init) => {
          const url = String(input instanceof Request ? input.url : input);
          if (url.includes('/upload/') && !url.includes('/v1.0/')) {
            seen.push(init?.method ?? 'GET');
            if (init?.method === 'PUT') return new Response('{}', { status: 500 });
          }
          return realFetch(input, init);
        };
      await expect(uploadWith(failing, 'never-made.bin', 'exp_never_made_1', bytes)).rejects.toMatchObject({
        status: 500,
        operation: 'upload fragment',
      });
      expect(seen).toEqual(['PUT', 'GET', 'PUT', 'GET', 'PUT', 'DELETE']);
      expect((await files(templates.id)).some((f) => f.name === 'never-made.bin')).toBe(false);
    });

    it('downloads through the 302 without our token: the pre-authenticated URL refuses one', async () => {
      const created = await hook('/__sandbox/files', {
        provider: id,
        account_id: account,
        container_id: templates.id,
        name: 'pre-authenticated.txt',
        content: 'bytes behind a 302',
      });
      const [drive, item] = String(created.id).split(':');
      const graph = setting(id, 'API_URL');
      const redirect = await fetch(`${graph}/v1.0/drives/${drive}/items/${item}/content`, {
        headers: { Authorization: `Bearer ${token}` },
        redirect: 'manual',
      });
      expect(redirect.status).toBe(302);
      const location = redirect.headers.get('location')!;
      const withToken = await fetch(location, { headers: { Authorization: `Bearer ${token}` } });
      expect(withToken.status).toBe(401);
      const download = await api.download(token, String(created.id));
      expect(await sha256(download.body)).toBe(
        createHash('sha256').update('bytes behind a 302').digest('hex'),
      );
    });

    it('refuses to go on from a delta link Graph answers 410 to, and a new enumeration lists the drive', async () => {
      const mine = await walk(clients.id);
      const site = (await api.browse(token, undefined, { limit: 10 })).entries.find((e) =>
        e.id.startsWith('site:'),
      )!;
      const library = (await api.browse(token, site.id, { limit: 10 })).entries[0]!;
      // The library's delta path with a token Graph no longer honours (here another drive's): 410
      // resyncRequired, as for an expired one.
      const driveOf = (item: string) => item.slice(0, item.indexOf(':'));
      const stale = mine.cursor.replace(driveOf(clients.id), driveOf(library.id));
      expect(stale).not.toBe(mine.cursor);
      // The run, not the client, starts over: a full pass with its reconcile, which sees deletions too.
      await expect(api.changes(token, library.id, { cursor: stale }, 50)).rejects.toBeInstanceOf(
        FeedRestartError,
      );
      const fresh = await api.changes(token, library.id, {}, 50);
      expect(fresh.files.length).toBeGreaterThan(0);
      expect(fresh.files.every((f) => f.id.startsWith(library.id.split(':')[0]!))).toBe(true);
    });

    it('never sends our token to a page link that is not Graph’s', async () => {
      for (const bad of ['//attacker.example/v1.0/me', '/v1.0/../../x', 'https://attacker.example/v1.0/x'])
        await expect(api.browse(token, templates.id, { token: bad, limit: 1 })).rejects.toMatchObject({
          status: 400,
          providerError: 'invalid_page_token',
        });
    });

    it('uploads a large file in 320 KiB-multiple fragments and refuses names OneDrive cannot hold', async () => {
      const bytes = Buffer.alloc(21 * 1024 * 1024 + 7, 3);
      const out = await api.upload(token, templates.id, {
        name: 'fragments.bin',
        contentType: 'application/octet-stream',
        size: bytes.length,
        body: Readable.from([bytes]),
        idempotencyKey: 'exp_fragments',
      });
      const stored = (await files(templates.id)).find((f) => f.id === out.id)!;
      expect(stored).toMatchObject({ name: 'fragments.bin', size: bytes.length });
      expect(stored.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      for (const name of ['..', 'a/b.txt', 'what?.txt', 'a:b'])
        await expect(
          api.upload(token, templates.id, {
            name,
            contentType: 'text/plain',
            size: 1,
            body: Readable.from([Buffer.from('x')]),
            idempotencyKey: `exp_${name}`,
          }),
        ).rejects.toMatchObject({ name: 'UploadRefusedError', reason: 'invalid_name' });
    });

    it('never replaces a file it was not asked to: a taken name is refused, `replace` only at the version seen', async () => {
      const user = await hook('/__sandbox/files', {
        provider: id,
        account_id: account,
        container_id: templates.id,
        name: 'Minutes.txt',
        content: 'the user wrote this',
      });
      const send = (text: string, key: string, replace?: { id: string; name: string; version: string }) =>
        api.upload(token, templates.id, {
          name: replace?.name ?? 'Minutes.txt',
          contentType: 'text/plain',
          size: Buffer.byteLength(text),
          body: Readable.from([Buffer.from(text)]),
          idempotencyKey: key,
          ...(replace ? { replace } : {}),
        });
      // findFile sees the user's file (case-insensitively, as OneDrive names are); a create is refused.
      expect(await api.findFile(token, templates.id, 'minutes.TXT')).toMatchObject({ id: String(user.id) });
      await expect(send('ours', 'exp_min_1')).rejects.toMatchObject({ reason: 'name_taken' });
      const sha = (text: string) => createHash('sha256').update(text).digest('hex');
      // Ours beside it, then replaced at the version seen; once the user edits it, a replace is refused.
      const ours = await api.upload(token, templates.id, {
        name: 'Minutes (2).txt',
        contentType: 'text/plain',
        size: 2,
        body: Readable.from([Buffer.from('v1')]),
        idempotencyKey: 'exp_min_2',
      });
      const seen = (await api.findFile(token, templates.id, 'Minutes (2).txt'))!;
      expect(seen).toMatchObject({ id: ours.id, version: ours.version });
      const next = await send('v2', 'exp_min_3', seen);
      expect(next.id).toBe(ours.id);
      await hook('/__sandbox/files', {
        provider: id,
        account_id: account,
        container_id: templates.id,
        name: 'Minutes (2).txt',
        content: 'the user edited our export',
      });
      await expect(send('v3', 'exp_min_4', next)).rejects.toMatchObject({ reason: 'changed' });
      const after = await files(templates.id);
      expect(after.find((f) => f.name === 'Minutes.txt')!.sha256).toBe(sha('the user wrote this'));
      expect(after.find((f) => f.name === 'Minutes (2).txt')!.sha256).toBe(sha('the user edited our export'));
    });
  }

  if (id === 'google_drive') {
    it('resumes a resumable upload where the session says it is: after a lost answer and after a failed chunk', async () => {
      const chunk = 8 * 1024 * 1024;
      const bytes = Buffer.alloc(2 * chunk + 4321);
      for (let i = 0; i < bytes.length; i += 4096) bytes[i] = (i / 4096) % 251;
      const chunkPuts: string[] = [];
      let puts = 0;
      const out = await uploadWith(
        (realFetch) => async (input, init) => {
          const url = String(input instanceof Request ? input.url : input);
          const range = new Headers(init?.headers).get('content-range') ?? '';
          if (init?.method === 'PUT' && url.includes('upload_id=')) {
            chunkPuts.push(range);
            puts++;
            // The first chunk arrives but its answer is lost; the second never arrives (network error).
            if (puts === 1) {
              await realFetch(input, init).then((r) => r.arrayBuffer());
              throw new TypeError('fetch failed');
            }
            if (puts === 3) throw new TypeError('fetch failed');
          }
          return realFetch(input, init);
        },
        'resumed.bin',
        'exp_resumed_1',
        bytes,
      );
      const total = bytes.length;
      expect(chunkPuts).toEqual([
        `bytes 0-${chunk - 1}/${total}`, // arrived, answer lost
        `bytes */${total}`, // -> 308 Range 0-(chunk-1): not sent again
        `bytes ${chunk}-${2 * chunk - 1}/${total}`, // failed on the way
        `bytes */${total}`, // -> 308 Range 0-(chunk-1): sent again
        `bytes ${chunk}-${2 * chunk - 1}/${total}`,
        `bytes ${2 * chunk}-${total - 1}/${total}`,
      ]);
      const stored = (await files(templates.id)).find((f) => f.id === out.id)!;
      expect(stored.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    });

    it('exports Google-native documents to an Office format, refusing those over the 10 MB export limit', async () => {
      const doc = await hook('/__sandbox/files', {
        provider: id,
        account_id: account,
        container_id: templates.id,
        name: 'Memo',
        content: 'native memo',
        content_type: 'application/vnd.google-apps.document',
      });
      const download = await api.download(token, String(doc.id));
      expect(download.contentType).toBe(
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      );
      expect(await sha256(download.body)).toBe(createHash('sha256').update('native memo').digest('hex'));
      const big = await hook('/__sandbox/files', {
        provider: id,
        account_id: account,
        container_id: templates.id,
        name: 'Huge sheet',
        size: 11 * 1024 * 1024,
        content_type: 'application/vnd.google-apps.spreadsheet',
      });
      await expect(api.download(token, String(big.id))).rejects.toMatchObject({
        status: 403,
        providerError: 'exportSizeLimitExceeded',
        throttled: false,
      });
    });

    it('reads a 403 userRateLimitExceeded as throttling, with its Retry-After', async () => {
      await hook('/__sandbox/next-api-error', {
        provider: id,
        status: 403,
        reason: 'userRateLimitExceeded',
        retry_after: 3,
      });
      await expect(api.browse(token, templates.id, { limit: 1 })).rejects.toMatchObject({
        status: 403,
        providerError: 'userRateLimitExceeded',
        throttled: true,
        retryAfterSeconds: 3,
      });
    });
  }
});
