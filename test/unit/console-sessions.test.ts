// Console session verification: signature against the JWKS, issuer, audience, expiry, algorithm
// allow-list and the claims a session must carry.
import type { CryptoKey, JWK, JWTPayload } from 'jose';
import { SignJWT, UnsecuredJWT, createLocalJWKSet, exportJWK, generateKeyPair } from 'jose';
import { ManualClock } from '../../functions/platform/clock';
import { verifyConsoleSession } from '../../functions/platform/console-sessions';
import { AuthInvalidError } from '../../functions/platform/errors';

const ISSUER = 'https://console.example.test';
const AUDIENCE = 'connector-and-event-service';
const NOW = Date.UTC(2026, 0, 1, 12);
const clock = new ManualClock(NOW);

let signing: CryptoKey;
let other: CryptoKey;
let rsa: CryptoKey;
let jwks: { keys: JWK[] };

beforeAll(async () => {
  const es = await generateKeyPair('ES256');
  const rs = await generateKeyPair('RS256');
  signing = es.privateKey;
  other = (await generateKeyPair('ES256')).privateKey;
  rsa = rs.privateKey;
  jwks = {
    keys: [
      { ...(await exportJWK(es.publicKey)), kid: 'es', alg: 'ES256' },
      { ...(await exportJWK(rs.publicKey)), kid: 'rs', alg: 'RS256' },
    ],
  };
});

const verify = (token: string) =>
  verifyConsoleSession(token, { keys: createLocalJWKSet(jwks), issuer: ISSUER, audience: AUDIENCE, clock });

const claims: JWTPayload = { org_id: 'org_a', role: 'admin' };

function mint(
  options: {
    payload?: JWTPayload;
    key?: CryptoKey | Uint8Array;
    alg?: string;
    kid?: string;
    iss?: string;
    aud?: string;
    exp?: number | null;
    sub?: string | null;
  } = {},
): Promise<string> {
  const iat = Math.floor(NOW / 1000);
  let jwt = new SignJWT(options.payload ?? claims)
    .setProtectedHeader({ alg: options.alg ?? 'ES256', kid: options.kid ?? 'es' })
    .setIssuer(options.iss ?? ISSUER)
    .setAudience(options.aud ?? AUDIENCE)
    .setIssuedAt(iat);
  if (options.sub !== null) jwt = jwt.setSubject(options.sub ?? 'usr_1');
  if (options.exp !== null) jwt = jwt.setExpirationTime(options.exp ?? iat + 600);
  return jwt.sign(options.key ?? signing);
}

async function expectRefused(token: Promise<string> | string, reason: RegExp): Promise<void> {
  const error = await verify(await token).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthInvalidError);
  expect((error as Error).message).toMatch(reason);
}

describe('verifyConsoleSession', () => {
  it('returns user, organization and role of a valid ES256 session', async () => {
    expect(await verify(await mint())).toEqual({ userId: 'usr_1', organizationId: 'org_a', role: 'admin' });
  });

  it('accepts RS256 too', async () => {
    const token = await mint({
      alg: 'RS256',
      kid: 'rs',
      key: rsa,
      payload: { org_id: 'org_b', role: 'owner' },
    });
    expect(await verify(token)).toEqual({ userId: 'usr_1', organizationId: 'org_b', role: 'owner' });
  });

  it('refuses another issuer', async () => {
    await expectRefused(mint({ iss: 'https://evil.example.test' }), /"iss"/);
  });

  it('refuses another audience', async () => {
    await expectRefused(mint({ aud: 'some-other-service' }), /"aud"/);
  });

  it('refuses an expired session, and accepts it again within the clock tolerance', async () => {
    const exp = Math.floor(NOW / 1000) - 60;
    await expectRefused(mint({ exp }), /"exp"/);
    const justNow = await mint({ exp: Math.floor(NOW / 1000) - 2 });
    await expect(verify(justNow)).resolves.toMatchObject({ userId: 'usr_1' });
  });

  it('refuses a token without exp or sub', async () => {
    await expectRefused(mint({ exp: null }), /"exp"/);
    await expectRefused(mint({ sub: null }), /"sub"/);
  });

  it('refuses HS256, even with the public key material as the secret', async () => {
    await expectRefused(mint({ alg: 'HS256', key: new TextEncoder().encode('x'.repeat(32)) }), /"alg"/);
    const jwkAsSecret = new TextEncoder().encode(JSON.stringify(jwks.keys[0]));
    await expectRefused(mint({ alg: 'HS256', key: jwkAsSecret }), /"alg"/);
  });

  it('refuses an unsecured (alg none) token', async () => {
    const token = new UnsecuredJWT({ ...claims, sub: 'usr_1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime(Math.floor(NOW / 1000) + 600)
      .encode();
    await expectRefused(token, /"alg".*not allowed/);
  });

  it('refuses a token signed by a key not in the JWKS, whatever kid it claims', async () => {
    await expectRefused(mint({ key: other }), /signature/);
    await expectRefused(mint({ key: other, kid: 'unknown' }), /no applicable key/);
  });

  it('refuses a session without an organization or with an unknown role', async () => {
    await expectRefused(mint({ payload: { role: 'owner' } }), /claims/);
    await expectRefused(mint({ payload: { org_id: 'org_a', role: 'superuser' } }), /claims/);
  });

  it('refuses what is not a JWT at all, an API key for instance', async () => {
    await expectRefused(`lpk_${'a'.repeat(20)}_${'A'.repeat(43)}`, /Invalid Compact JWS/);
  });
});
