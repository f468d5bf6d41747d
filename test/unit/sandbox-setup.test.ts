// How the runtimes point the real providers at their fakes: one ORIGIN per provider, the fake serving
// each production path under it, and a setting named only where the fake serves another host's paths
// apart. What the service reads back is exactly each fake's endpoints, so a fake whose path drifts
// from the production URL's shows here, not as a 404 at run time.
import { PROVIDER_FAKES, startSandboxProvider } from '../../sandbox';
import type { SandboxProvider } from '../../sandbox';
import { registerSandboxClients, sandboxSetting } from '../../functions/dev-runtime/hooks/sandbox-setup';
import type { ProviderId } from '../../functions/connectors/domain/providers';
import { PROVIDER_IDS, providerEnv } from '../../functions/connectors/domain/providers';

let sandbox: SandboxProvider;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandboxProvider({ port: 0, host: '127.0.0.1' });
  env = registerSandboxClients(sandbox, 'http://localhost:3000');
});
afterAll(() => sandbox.close());

/** What a fake serves apart from its production paths: another host's, or a value with no default. */
const NAMED: Partial<Record<ProviderId, string[]>> = {
  box: ['UPLOAD_URL'], // upload.box.com/api/2.0 under /box/upload
  dropbox: ['CONTENT_URL'], // content.dropboxapi.com under /dropbox/content
  google_drive: ['ISSUER'], // an RFC 9207 issuer has no production default here
};

describe.each(PROVIDER_FAKES.map((fake) => [fake.id as ProviderId, fake] as const))('%s', (id, fake) => {
  it('is pointed at by its origin, naming only the settings the fake serves apart', () => {
    const prefix = providerEnv(id, '');
    const named = Object.keys(env)
      .filter((name) => name.startsWith(prefix))
      .map((name) => name.slice(prefix.length))
      .filter((name) => !['ORIGIN', 'CLIENT_ID', 'CLIENT_SECRET'].includes(name));
    expect(named.sort()).toEqual(NAMED[id] ?? []);
    expect(env[providerEnv(id, 'ORIGIN')]).toMatch(
      new RegExp(`^${sandbox.url}${fake.prefix}(/\\{\\w+\\})?$`),
    );
  });

  it("reads back every endpoint of the fake's", () => {
    const endpoints = fake.endpoints(sandbox.url);
    const read = (name: string) => sandboxSetting(env, id, name);
    expect({
      authorizeUrl: read('AUTHORIZE_URL'),
      tokenUrl: read('TOKEN_URL'),
      revokeUrl: read('REVOKE_URL'),
      accountUrl: read('ACCOUNT_URL'),
      apiUrl: read('API_URL'),
      issuer: env[providerEnv(id, 'ISSUER')],
      extra: Object.fromEntries(Object.keys(endpoints.extra).map((name) => [name, read(name)])),
    }).toEqual({ revokeUrl: undefined, issuer: undefined, ...endpoints });
  });
});

it('names every setting of the sandbox providers, which have no production URLs', () => {
  for (const id of PROVIDER_IDS.filter((p) => !PROVIDER_FAKES.some((fake) => fake.id === p))) {
    expect(env[providerEnv(id, 'ORIGIN')]).toBeUndefined();
    expect(env[providerEnv(id, 'TOKEN_URL')]).toBe(`${sandbox.url}/${id}/token`);
  }
});

describe("the sandbox's latency (the import bench's latency mode)", () => {
  it('serves every request, an OAuth one or an API one, no sooner than the latency after it came', async () => {
    const slow = await startSandboxProvider({ port: 0, host: '127.0.0.1', latencyMs: 120 });
    try {
      // The authorization server's (no client registered: 404) and a fake's API (no token: 401).
      for (const [path, status] of [
        ['/practice/account', 404],
        ['/google/drive/v3/files', 401],
      ] as const) {
        const started = performance.now();
        const response = await fetch(`${slow.url}${path}`);
        expect(response.status).toBe(status);
        expect(performance.now() - started).toBeGreaterThanOrEqual(115);
      }
    } finally {
      await slow.close();
    }
  });
});
