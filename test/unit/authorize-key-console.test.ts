// The API-key authorizer also accepts a console session: verified against the identity provider's
// JWKS (served over real HTTP here), turned into a principal whose permissions follow the role.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { createLocalDeps } from '../../functions/compose/local';
import { create } from '../../functions/directory/api/handlers/authorize-key';
import type { DevConsoleIdentityProvider } from '../../functions/dev-runtime/identity/dev-console-idp';
import {
  loadDevConsoleIdentityProvider,
  mintConsoleSession,
} from '../../functions/dev-runtime/identity/dev-console-idp';
import { PERMISSIONS } from '../../functions/platform/permissions';

let jwks: Server;
let idp: DevConsoleIdentityProvider;
const deps = createLocalDeps();
const authorize = create(deps);

beforeAll(async () => {
  idp = await loadDevConsoleIdentityProvider(mkdtempSync(join(tmpdir(), 'authz-idp-')));
  jwks = createServer((_request, response) => {
    response.setHeader('Content-Type', 'application/json');
    response.end(JSON.stringify({ keys: [idp.publicJwk] }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  process.env.STAGE = 'local';
  process.env.CONSOLE_JWKS_URL = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks-${Date.now()}.json`;
});

afterAll(async () => {
  delete process.env.CONSOLE_JWKS_URL;
  await new Promise((resolve) => jwks.close(resolve));
});

const event = (token: string) =>
  ({
    headers: { Authorization: `Bearer ${token}` },
    methodArn: 'arn:aws:execute-api:eu-west-1:1:api/prod/GET/webhooks/v1/endpoints',
    requestContext: { requestId: 'r1' },
  }) as unknown as APIGatewayRequestAuthorizerEvent;

const session = (role: 'owner' | 'admin' | 'member', ttlSeconds = 600) =>
  mintConsoleSession(
    idp,
    { organizationId: 'org_a', userId: `usr_${role}`, role },
    {
      ttlSeconds,
      nowMs: deps.clock.now(),
    },
  );

describe('API-key authorizer with a console session', () => {
  it('gives an owner every key permission (never the system flag), under a per-user principal', async () => {
    const result = await authorize(event((await session('owner')).token));
    expect(result.principalId).toBe('console:usr_owner');
    expect(result.context).toEqual({
      organizationId: 'org_a',
      keyId: 'console:usr_owner',
      permissions: PERMISSIONS.join(','),
      system: false,
    });
  });

  it('gives a member the read permissions only', async () => {
    const result = await authorize(event((await session('member')).token));
    const permissions = String(result.context?.permissions).split(',');
    expect(permissions).toContain('webhooks:read');
    expect(permissions).toContain('connectors:read');
    expect(permissions.every((p) => p.endsWith(':read'))).toBe(true);
  });

  it('refuses a tampered or expired session as Unauthorized (a 401), like an unknown key', async () => {
    const { token } = await session('admin');
    const [header, , signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ sub: 'usr_x', org_id: 'org_a', role: 'owner', exp: 9e9 }),
    ).toString('base64url');
    await expect(authorize(event(`${header}.${forged}.${signature}`))).rejects.toThrow('Unauthorized');
    const expired = await mintConsoleSession(
      idp,
      { organizationId: 'org_a', userId: 'u', role: 'owner' },
      {
        ttlSeconds: 60,
        nowMs: deps.clock.now() - 3600_000,
      },
    );
    await expect(authorize(event(expired.token))).rejects.toThrow('Unauthorized');
    await expect(authorize(event('lpk_notakey'))).rejects.toThrow('Unauthorized');
  });
});
