// First start of the local server: a development organization, a key with every permission, a system
// key, and an owner console session, written to <data dir>/credentials.json (mode 600). Later starts
// reuse them, and mint a new console session when the stored one is expired or no longer verifies.
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLocalJWKSet } from 'jose';
import { Directory, directoryRepositories } from '../../directory/index';
import type { ConsoleSession } from '../../platform/console-sessions';
import {
  DEV_CONSOLE_AUDIENCE,
  DEV_CONSOLE_ISSUER,
  verifyConsoleSession,
} from '../../platform/console-sessions';
import type { Deps } from '../../platform/ports';
import { PERMISSIONS } from '../../platform/permissions';
import type { DevConsoleIdentityProvider } from './dev-console-idp';
import { loadDevConsoleIdentityProvider, mintConsoleSession } from './dev-console-idp';
import { parseDataFile } from '../../compose/local';

export interface DevCredentials {
  baseUrl: string;
  organizationId: string;
  apiKey: string;
  systemKey: string;
  consoleToken?: string;
}

const CONSOLE_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
/** Re-mint a little before expiry, so a token read from the file does not lapse mid-session. */
const CONSOLE_TOKEN_MIN_LIFE_MS = 24 * 3600 * 1000;
export const DEV_CONSOLE_USER = 'usr_development_owner';

async function consoleToken(
  deps: Deps,
  idp: DevConsoleIdentityProvider,
  organizationId: string,
  current: string | undefined,
): Promise<string> {
  const wanted: ConsoleSession = { userId: DEV_CONSOLE_USER, organizationId, role: 'owner' };
  const verify = (token: string, nowMs: number) =>
    verifyConsoleSession(token, {
      keys: createLocalJWKSet({ keys: [idp.publicJwk] }),
      issuer: DEV_CONSOLE_ISSUER,
      audience: DEV_CONSOLE_AUDIENCE,
      clock: { now: () => nowMs },
    });
  if (current) {
    const still = await verify(current, deps.clock.now() + CONSOLE_TOKEN_MIN_LIFE_MS).catch(() => undefined);
    if (still && JSON.stringify(still) === JSON.stringify(wanted)) return current;
  }
  const minted = await mintConsoleSession(idp, wanted, {
    ttlSeconds: CONSOLE_TOKEN_TTL_SECONDS,
    nowMs: deps.clock.now(),
  });
  return minted.token;
}

export async function ensureDevCredentials(
  deps: Deps,
  dataDir: string,
  baseUrl: string,
): Promise<{
  credentials: DevCredentials;
  created: boolean;
  path: string;
  /** Said when stored credentials named an organization the data no longer holds: kept aside, replaced. */
  replaced?: string;
}> {
  const path = join(dataDir, 'credentials.json');
  const directory = new Directory(directoryRepositories(deps), deps.clock);
  const idp = await loadDevConsoleIdentityProvider(dataDir);
  const write = (credentials: DevCredentials) =>
    writeFileSync(path, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
  let replaced: string | undefined;
  if (existsSync(path)) {
    const stored = parseDataFile<DevCredentials>(
      path,
      readFileSync(path, 'utf8'),
      'move it aside (or delete it) and start again: new development credentials are written ' +
        '(the API keys it held stay valid; their secrets exist only in that file)',
    );
    if (await directory.getOrganization(stored.organizationId)) {
      const token = await consoleToken(deps, idp, stored.organizationId, stored.consoleToken);
      const credentials = { ...stored, baseUrl, consoleToken: token };
      write(credentials);
      return { credentials, created: false, path };
    }
    // Its organization is gone (a lost platform journal, a reset table): its keys answer 401 now.
    const aside = `${path}.stale-${new Date(deps.clock.now()).toISOString().replace(/[:.]/g, '-')}`;
    copyFileSync(path, aside);
    replaced =
      `${path} named organization ${stored.organizationId}, which the platform table does not hold ` +
      `(see any damage reported above): its keys no longer work. New development credentials are ` +
      `written; the old file is kept at ${aside}.`;
  }
  const org = await directory.createOrganization('Development');
  const { apiKey } = await directory.createApiKey({
    organizationId: org.id,
    name: 'development (all permissions)',
    permissions: [...PERMISSIONS],
  });
  // The system key lives in the platform's own organization, never in a customer's (decisions.md).
  const platform = await directory.createOrganization('Platform', { platform: true });
  const { apiKey: systemKey } = await directory.createApiKey({
    organizationId: platform.id,
    name: 'development system key',
    permissions: [...PERMISSIONS],
    system: true,
  });
  const credentials: DevCredentials = {
    baseUrl,
    organizationId: org.id,
    apiKey,
    systemKey,
    consoleToken: await consoleToken(deps, idp, org.id, undefined),
  };
  write(credentials);
  return { credentials, created: true, path, ...(replaced ? { replaced } : {}) };
}
