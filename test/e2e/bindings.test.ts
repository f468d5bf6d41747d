// Application key binding over HTTP against the local server, with console sessions minted by its
// development identity provider (and bad ones minted here with jose).
import type { CryptoKey, JWTPayload } from 'jose';
import { SignJWT, UnsecuredJWT, generateKeyPair } from 'jose';
import {
  DEV_CONSOLE_AUDIENCE,
  DEV_CONSOLE_ISSUER,
  DEV_CONSOLE_JWKS_PATH,
} from '../../functions/platform/console-sessions';
import type { DevConsoleIdentityProvider } from '../../functions/dev-runtime/identity/dev-console-idp';
import { loadDevConsoleIdentityProvider } from '../../functions/dev-runtime/identity/dev-console-idp';
import type { RunningServer } from '../support/local-server';
import { startLocalServer } from '../support/local-server';

let server: RunningServer;
let idp: DevConsoleIdentityProvider;
let org: string;
let otherOrg: string;
let owner: string;
const apps: Record<'a' | 'b' | 'c' | 'other', string> = { a: '', b: '', c: '', other: '' };
const keys: Record<'k1' | 'k2' | 'k3' | 'race' | 'system' | 'other', string> = {
  k1: '',
  k2: '',
  k3: '',
  race: '',
  system: '',
  other: '',
};

const admin = <T>(...args: string[]) => server.admin(...args) as T;
const session = (role: string, organization = org, user = `usr_${role}`) =>
  admin<{ token: string }>('mint-session', '--org', organization, '--user', user, '--role', role).token;
const createKey = (organization: string, ...extra: string[]) =>
  admin<{ key: { id: string } }>(
    'create-key',
    '--org',
    organization,
    '--name',
    'k',
    '--permissions',
    'connectors:read',
    ...extra,
  ).key.id;
const createApp = (organization: string) =>
  admin<{ id: string }>('create-app', '--org', organization, '--name', 'app').id;

function put(app: string, key: string, token?: string): Promise<Response> {
  return fetch(`${server.baseUrl}/connectors/v1/applications/${app}/keys/${key}`, {
    method: 'PUT',
    headers: token === undefined ? {} : { Authorization: `Bearer ${token}` },
  });
}

function del(app: string, key: string, token?: string): Promise<Response> {
  return fetch(`${server.baseUrl}/connectors/v1/applications/${app}/keys/${key}`, {
    method: 'DELETE',
    headers: token === undefined ? {} : { Authorization: `Bearer ${token}` },
  });
}

async function expectError(response: Promise<Response>, status: number, code: string): Promise<void> {
  const res = await response;
  expect({ status: res.status, body: await res.json() }).toEqual({
    status,
    body: { error: { code, message: expect.any(String) } },
  });
}

/** A token like the development provider's, with one thing changed. */
async function forged(
  options: { iss?: string; aud?: string; exp?: number; key?: CryptoKey; kid?: string } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ org_id: org, role: 'owner' } satisfies JWTPayload)
    .setProtectedHeader({ alg: 'ES256', kid: options.kid ?? idp.kid })
    .setIssuer(options.iss ?? DEV_CONSOLE_ISSUER)
    .setAudience(options.aud ?? DEV_CONSOLE_AUDIENCE)
    .setSubject('usr_forger')
    .setIssuedAt(now - 120)
    .setExpirationTime(options.exp ?? now + 600)
    .sign(options.key ?? idp.privateKey);
}

beforeAll(async () => {
  server = await startLocalServer();
  org = server.credentials.organizationId;
  idp = await loadDevConsoleIdentityProvider(server.dataDir);
  otherOrg = admin<{ id: string }>('create-org', '--name', 'Other').id;
  for (const name of ['a', 'b', 'c'] as const) apps[name] = createApp(org);
  apps.other = createApp(otherOrg);
  for (const name of ['k1', 'k2', 'k3', 'race'] as const) keys[name] = createKey(org);
  keys.system = createKey(org, '--system', '--org-bound');
  keys.other = createKey(otherOrg);
  owner = session('owner');
}, 120_000); // a dozen admin CLI runs, each a tsx process

afterAll(async () => {
  await server.stop();
});

describe('PUT /connectors/v1/applications/{id}/keys/{keyId}', () => {
  it('binds a key with an owner session: 200 with the binding object', async () => {
    const res = await put(apps.a, keys.k1, owner);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id: expect.stringMatching(/^bnd_[a-z2-7]{20}$/),
      application_id: apps.a,
      api_key_id: keys.k1,
    });
  });

  it('is idempotent: repeating the binding answers 200 with the same binding', async () => {
    const first = (await (await put(apps.a, keys.k1, owner)).json()) as { id: string };
    const again = await put(apps.a, keys.k1, session('admin'));
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ id: first.id, application_id: apps.a, api_key_id: keys.k1 });
  });

  it('binds several keys to one application, with an admin session too', async () => {
    const res = await put(apps.a, keys.k2, session('admin'));
    expect(res.status).toBe(200);
    const listed = admin<{ data: { apiKeyId: string; key: { id: string } }[] }>(
      'list-app-keys',
      '--app',
      apps.a,
    );
    expect(listed.data.map((b) => b.apiKeyId).sort()).toEqual([keys.k1, keys.k2].sort());
    expect(listed.data.every((b) => b.key.id === b.apiKeyId)).toBe(true);
  });

  it('accepts the owner session the local server wrote to credentials.json', async () => {
    expect(server.credentials.consoleToken).toEqual(expect.any(String));
    const res = await put(apps.c, keys.k3, server.credentials.consoleToken);
    expect(res.status).toBe(200);
  });

  it('answers 409 CONFLICT when the key is bound to another application, naming that application', async () => {
    const res = await put(apps.b, keys.k1, owner);
    expect(res.status).toBe(409);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('CONFLICT');
    expect(body.error.message).toContain(apps.a);
  });

  it('answers 401 AUTH_INVALID without a session, with an API key alone, and with garbage', async () => {
    await expectError(put(apps.b, keys.k2), 401, 'AUTH_INVALID');
    await expectError(put(apps.b, keys.k2, server.credentials.apiKey), 401, 'AUTH_INVALID');
    await expectError(put(apps.b, keys.k2, 'not.a.jwt'), 401, 'AUTH_INVALID');
  });

  it('answers 403 PERMISSION_DENIED to a member session', async () => {
    await expectError(put(apps.b, keys.k2, session('member')), 403, 'PERMISSION_DENIED');
  });

  it("answers 403 PERMISSION_DENIED to an owner of another organization, for this organization's application", async () => {
    await expectError(put(apps.a, keys.k1, session('owner', otherOrg)), 403, 'PERMISSION_DENIED');
  });

  it('answers 404 NOT_FOUND for an unknown application, an unknown key, and a key of another organization', async () => {
    await expectError(put('app_aaaaaaaaaaaaaaaaaaaa', keys.k2, owner), 404, 'NOT_FOUND');
    await expectError(put(apps.b, 'key_aaaaaaaaaaaaaaaaaaaa', owner), 404, 'NOT_FOUND');
    await expectError(put(apps.b, keys.other, owner), 404, 'NOT_FOUND');
  });

  it('refuses to bind a system key with 400 INVALID_REQUEST', async () => {
    await expectError(put(apps.b, keys.system, owner), 400, 'INVALID_REQUEST');
  });

  it('lets exactly one of concurrent PUTs binding one key to two applications win', async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => put(i % 2 ? apps.b : apps.c, keys.race, owner)),
    );
    const results = await Promise.all(
      responses.map(async (r) => ({
        status: r.status,
        body: (await r.json()) as { application_id?: string },
      })),
    );
    const won = results.filter((r) => r.status === 200);
    const winner = won[0]!.body.application_id;
    expect(won.every((r) => r.body.application_id === winner)).toBe(true);
    expect(results.filter((r) => r.status === 409)).toHaveLength(8 - won.length);
    expect(won).toHaveLength(4);
  });
});

describe('console session verification', () => {
  it('serves the development JWKS', async () => {
    const res = await fetch(`${server.baseUrl}${DEV_CONSOLE_JWKS_PATH}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { keys: { kid: string; d?: string }[] };
    expect(body.keys).toEqual([expect.objectContaining({ kid: idp.kid, alg: 'ES256', kty: 'EC' })]);
    expect(body.keys[0]!.d).toBeUndefined();
  });

  it('accepts a well-formed token made with the provider key (control for the cases below)', async () => {
    expect((await put(apps.a, keys.k1, await forged())).status).toBe(200);
  });

  it.each([
    ['a wrong issuer', () => forged({ iss: 'https://console.example.test' })],
    ['a wrong audience', () => forged({ aud: 'another-service' })],
    ['an expiry in the past', () => forged({ exp: Math.floor(Date.now() / 1000) - 60 })],
    [
      'another key, claiming the provider key id',
      async () => forged({ key: (await generateKeyPair('ES256')).privateKey }),
    ],
    [
      'another key with its own key id',
      async () => forged({ key: (await generateKeyPair('ES256')).privateKey, kid: 'attacker' }),
    ],
    [
      'HS256 and a shared secret',
      () =>
        new SignJWT({ org_id: org, role: 'owner' })
          .setProtectedHeader({ alg: 'HS256', kid: idp.kid })
          .setIssuer(DEV_CONSOLE_ISSUER)
          .setAudience(DEV_CONSOLE_AUDIENCE)
          .setSubject('usr_forger')
          .setExpirationTime('10m')
          .sign(new TextEncoder().encode('a-secret-of-at-least-32-bytes!!!')),
    ],
    [
      'alg none',
      async () =>
        new UnsecuredJWT({ org_id: org, role: 'owner' })
          .setIssuer(DEV_CONSOLE_ISSUER)
          .setAudience(DEV_CONSOLE_AUDIENCE)
          .setSubject('usr_forger')
          .setExpirationTime('10m')
          .encode(),
    ],
  ])('answers 401 AUTH_INVALID to a token with %s', async (_case, make) => {
    await expectError(put(apps.a, keys.k1, await make()), 401, 'AUTH_INVALID');
  });
});

describe('DELETE /connectors/v1/applications/{id}/keys/{keyId}', () => {
  it('unbinds for rotation (204), then answers 404, and the key can be bound elsewhere', async () => {
    await expectError(del(apps.a, keys.k2, session('member')), 403, 'PERMISSION_DENIED');
    await expectError(del(apps.a, keys.k2), 401, 'AUTH_INVALID');
    expect((await del(apps.a, keys.k2, owner)).status).toBe(204);
    await expectError(del(apps.a, keys.k2, owner), 404, 'NOT_FOUND');
    const listed = admin<{ data: { apiKeyId: string }[] }>('list-app-keys', '--app', apps.a);
    expect(listed.data.map((b) => b.apiKeyId)).toEqual([keys.k1]);
    expect((await put(apps.b, keys.k2, owner)).status).toBe(200);
  });

  it('is also an admin CLI command', () => {
    admin('unbind-key', '--app', apps.b, '--key', keys.k2);
    expect(admin<{ data: unknown[] }>('list-app-keys', '--app', apps.b).data).not.toContainEqual(
      expect.objectContaining({ apiKeyId: keys.k2 }),
    );
  });
});
