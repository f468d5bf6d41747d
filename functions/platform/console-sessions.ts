// Console sessions: JWTs the console's identity provider signs for a user acting in an organization
// with a role. Verified against the provider's JWKS with a fixed algorithm allow-list.
import type { JWTVerifyGetKey } from 'jose';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import * as z from 'zod/mini';
import type { Clock } from './clock';
import { getStringFromEnv, stage } from './config';
import { AuthInvalidError } from './errors';
import { lazy } from './lazy';
import type { Permission } from './permissions';
import { PERMISSIONS } from './permissions';

export const CONSOLE_ROLES = ['owner', 'admin', 'member'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

/** Who is calling from the console: what the console authorizer puts in the request context. */
export interface ConsoleSession {
  userId: string;
  organizationId: string;
  role: ConsoleRole;
}

/** Asymmetric only: an HMAC secret would have to be shared with us, and `none` is never acceptable. */
export const CONSOLE_ALGORITHMS = ['RS256', 'ES256'];

/** The local server's development identity provider (functions/dev-runtime/identity/dev-console-idp.ts). */
export const DEV_CONSOLE_ISSUER = 'urn:local-dev:console';
export const DEV_CONSOLE_AUDIENCE = 'urn:local-dev:connector-and-event-service';
export const DEV_CONSOLE_JWKS_PATH = '/__dev/console/jwks.json';

const CLOCK_TOLERANCE_SECONDS = 5;

/** jose codes that say the identity provider's key set could not be had, rather than a bad token. */
const KEY_SET_FAILURES = new Set(['ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID', 'ERR_JOSE_GENERIC']);

const claimsSchema = lazy(() =>
  z.object({
    sub: z.string().check(z.minLength(1)).check(z.maxLength(256)),
    org_id: z.string().check(z.minLength(1)).check(z.maxLength(256)),
    role: z.enum(CONSOLE_ROLES),
  }),
);

export interface VerifierOptions {
  keys: JWTVerifyGetKey;
  issuer: string;
  audience: string;
  clock: Clock;
}

/** The session a token stands for; AuthInvalidError for anything else (the reason is in the message). */
export async function verifyConsoleSession(token: string, options: VerifierOptions): Promise<ConsoleSession> {
  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(token, options.keys, {
      algorithms: CONSOLE_ALGORITHMS,
      issuer: options.issuer,
      audience: options.audience,
      requiredClaims: ['exp', 'sub'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: new Date(options.clock.now()),
    }));
  } catch (error) {
    if (error instanceof joseErrors.JOSEError && !KEY_SET_FAILURES.has(error.code)) {
      throw new AuthInvalidError(`Invalid console session: ${error.message}`);
    }
    throw error; // the key set is unreachable or broken: not the caller's fault, and not a 401
  }
  const claims = claimsSchema().safeParse(payload);
  if (!claims.success) throw new AuthInvalidError('Invalid console session: missing or malformed claims');
  return { userId: claims.data.sub, organizationId: claims.data.org_id, role: claims.data.role };
}

export interface ConsoleSessionConfig {
  jwksUrl: string;
  issuer: string;
  audience: string;
}

/**
 * CONSOLE_JWKS_URL, CONSOLE_ISSUER, CONSOLE_AUDIENCE. The local stage defaults to the local server's
 * development identity provider; deployed stages must set all three (CDK context).
 */
export function consoleSessionConfig(): ConsoleSessionConfig {
  const local = stage() === 'local';
  const localBaseUrl = () =>
    getStringFromEnv('PUBLIC_BASE_URL', { default: 'http://localhost:3000' }).replace(/\/+$/, '');
  return {
    jwksUrl: getStringFromEnv(
      'CONSOLE_JWKS_URL',
      local ? { default: `${localBaseUrl()}${DEV_CONSOLE_JWKS_PATH}` } : {},
    ),
    issuer: getStringFromEnv('CONSOLE_ISSUER', local ? { default: DEV_CONSOLE_ISSUER } : {}),
    audience: getStringFromEnv('CONSOLE_AUDIENCE', local ? { default: DEV_CONSOLE_AUDIENCE } : {}),
  };
}

const remoteKeySets = new Map<string, JWTVerifyGetKey>();

/** One cached key set per URL per container: jose refetches on an unknown `kid` (at most every 30 s). */
export function remoteKeys(jwksUrl: string): JWTVerifyGetKey {
  let keys = remoteKeySets.get(jwksUrl);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 3000 });
    remoteKeySets.set(jwksUrl, keys);
  }
  return keys;
}

/** A JWT (three dot-separated parts), as opposed to an `lpk_` API key: the API-key authorizer's switch. */
export const looksLikeConsoleSession = (token: string): boolean => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);

/**
 * What a console session may do on the API-key routes: owners and admins hold every permission an API
 * key can hold (never the system flag), members only the read permissions. The route's own permission
 * check, the rate limit and the error body then apply exactly as for a key.
 */
export function consolePermissions(role: ConsoleRole): Permission[] {
  return role === 'member' ? PERMISSIONS.filter((p) => p.endsWith(':read')) : [...PERMISSIONS];
}

/** The rate-limit bucket and principal id of a console session: one per user, never shared with a key. */
export const consolePrincipalId = (userId: string): string => `console:${userId}`;
