// First start of the local server: a development organization, a key with every permission, a system
// key, written to <data dir>/credentials.json (mode 600). Later starts reuse them.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Directory } from '../directory/directory';
import type { Deps } from '../platform/deps';
import { PERMISSIONS } from '../platform/permissions';

export interface DevCredentials {
  baseUrl: string;
  organizationId: string;
  apiKey: string;
  systemKey: string;
  consoleToken?: string;
}

export async function ensureDevCredentials(
  deps: Deps,
  dataDir: string,
  baseUrl: string,
): Promise<{ credentials: DevCredentials; created: boolean; path: string }> {
  const path = join(dataDir, 'credentials.json');
  const directory = new Directory(deps.tables.platform, deps.clock);
  if (existsSync(path)) {
    const stored = JSON.parse(readFileSync(path, 'utf8')) as DevCredentials;
    if (await directory.getOrganization(stored.organizationId)) {
      const credentials = { ...stored, baseUrl };
      writeFileSync(path, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
      return { credentials, created: false, path };
    }
  }
  const org = await directory.createOrganization('Development');
  const { apiKey } = await directory.createApiKey({
    organizationId: org.id,
    name: 'development (all permissions)',
    permissions: [...PERMISSIONS],
  });
  const { apiKey: systemKey } = await directory.createApiKey({
    organizationId: org.id,
    name: 'development system key',
    permissions: [...PERMISSIONS],
    system: true,
  });
  const credentials: DevCredentials = { baseUrl, organizationId: org.id, apiKey, systemKey };
  writeFileSync(path, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
  return { credentials, created: true, path };
}
