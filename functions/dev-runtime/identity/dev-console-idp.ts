// The local server's development identity provider for console sessions: an ES256 key pair kept
// under the data directory (mode 600), a JWKS route the console authorizer verifies against, and
// minting for the admin CLI and the bootstrap. Never deployed: a real console brings its own.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CryptoKey, JWK } from 'jose';
import { SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK } from 'jose';
import type { ConsoleRole } from '../../platform/console-sessions';
import {
  DEV_CONSOLE_AUDIENCE,
  DEV_CONSOLE_ISSUER,
  DEV_CONSOLE_JWKS_PATH,
} from '../../platform/console-sessions';
import type { Extension } from '../server/server';
import { LocalDataError, parseDataFile } from '../../compose/local';

const ALGORITHM = 'ES256';
const FILE = 'console-idp.json';

export interface DevConsoleIdentityProvider {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

interface Stored {
  kid: string;
  privateJwk: JWK;
}

function readStored(path: string): Stored | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const stored = parseDataFile<Partial<Stored>>(path, text, REMEDY);
  if (typeof stored.kid !== 'string' || typeof stored.privateJwk !== 'object' || stored.privateJwk === null)
    throw new LocalDataError(`${path} does not hold a key pair (kid, privateJwk): ${REMEDY}`);
  return stored as Stored;
}

const REMEDY =
  'delete it and start again: a new signing key is made, and console sessions signed by the old one ' +
  'stop verifying (the server mints a new one into credentials.json)';

async function createStored(path: string): Promise<Stored> {
  const { privateKey } = await generateKeyPair(ALGORITHM, { extractable: true });
  const privateJwk = await exportJWK(privateKey);
  const { d: _d, ...publicJwk } = privateJwk;
  const stored: Stored = { kid: await calculateJwkThumbprint(publicJwk), privateJwk };
  try {
    writeFileSync(path, JSON.stringify(stored, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
    return stored;
  } catch (error) {
    // The server and the admin CLI may race to create it: the first writer's key is the key.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readStored(path)!;
    throw error;
  }
}

/** The key pair under `dataDir`, made on first use. */
export async function loadDevConsoleIdentityProvider(dataDir: string): Promise<DevConsoleIdentityProvider> {
  const path = join(dataDir, FILE);
  const stored = readStored(path) ?? (await createStored(path));
  const { d: _d, ...publicJwk } = stored.privateJwk;
  return {
    kid: stored.kid,
    privateKey: (await importJWK(stored.privateJwk, ALGORITHM)) as CryptoKey,
    publicJwk: { ...publicJwk, kid: stored.kid, alg: ALGORITHM, use: 'sig' },
  };
}

export interface MintedSession {
  token: string;
  expiresAt: string;
}

/** A console session token as the console's identity provider would issue it. */
export async function mintConsoleSession(
  idp: DevConsoleIdentityProvider,
  claims: { organizationId: string; userId: string; role: ConsoleRole },
  options: { ttlSeconds: number; nowMs: number },
): Promise<MintedSession> {
  const iat = Math.floor(options.nowMs / 1000);
  const exp = iat + options.ttlSeconds;
  const token = await new SignJWT({ org_id: claims.organizationId, role: claims.role })
    .setProtectedHeader({ alg: ALGORITHM, kid: idp.kid, typ: 'JWT' })
    .setIssuer(DEV_CONSOLE_ISSUER)
    .setAudience(DEV_CONSOLE_AUDIENCE)
    .setSubject(claims.userId)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(idp.privateKey);
  return { token, expiresAt: new Date(exp * 1000).toISOString() };
}

/** GET /__dev/console/jwks.json: the public half, which the console authorizer fetches. */
export function devConsoleIdentityProvider(dataDir: string): Extension {
  let idp: Promise<DevConsoleIdentityProvider> | undefined;
  return async (request, response, url) => {
    if (url.pathname !== DEV_CONSOLE_JWKS_PATH || request.method !== 'GET') return false;
    idp ??= loadDevConsoleIdentityProvider(dataDir).catch((error: unknown) => {
      idp = undefined; // let the next request try again
      throw error;
    });
    response.setHeader('Content-Type', 'application/json');
    response.setHeader('Cache-Control', 'max-age=60');
    response.end(JSON.stringify({ keys: [(await idp).publicJwk] }));
    return true;
  };
}
