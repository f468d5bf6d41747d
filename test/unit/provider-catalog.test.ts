// The provider catalog: real providers are offered only where their client id is configured, their
// endpoints default to the production URLs, their authorize requests carry what each needs for offline
// access, and creating a connection for one not configured is a 400.
import { createLocalDeps } from '../../functions/compose/local';
import { createConnection } from '../../functions/connectors/app/connections';
import { listProviders } from '../../functions/connectors/app/provider-settings';
import { authorizeUrl } from '../../functions/connectors/domain/flow-crypto';
import {
  PROVIDERS,
  REAL_PROVIDER_IDS,
  providerEnv,
  providerExtraSetting,
  providerSetting,
  rebased,
  settingDefault,
} from '../../functions/connectors/domain/providers';
import { InvalidRequestError } from '../../functions/platform/errors';
import { resetConfigCache } from '../../functions/platform/config';
import { accountField } from '../../functions/connectors/infra/oauth-client';

const deps = createLocalDeps();
const ORG = 'org_catalogaaaaaaaaaaaaa';

afterEach(() => {
  delete process.env[providerEnv('google_drive', 'CLIENT_ID')];
  delete process.env[providerEnv('google_drive', 'TOKEN_URL')];
  delete process.env[providerEnv('dropbox', 'CONTENT_URL')];
  for (const id of ['dropbox', 'imanage', 'clio'] as const) delete process.env[providerEnv(id, 'ORIGIN')];
  resetConfigCache();
});

describe('which providers are offered', () => {
  it('lists the sandbox providers always and a real one only once its CLIENT_ID is set', async () => {
    const before = (await listProviders(deps, ORG)).map((p) => p.id);
    expect(before).toEqual(['practice', 'drive']);
    process.env[providerEnv('google_drive', 'CLIENT_ID')] = 'client-123.apps.googleusercontent.com';
    resetConfigCache();
    const after = await listProviders(deps, ORG);
    expect(after.map((p) => p.id)).toEqual(['practice', 'drive', 'google_drive']);
    expect(after[2]).toMatchObject({ display_name: 'Google Drive', kind: 'file_storage', enabled: true });
  });

  it('refuses to create a connection for a provider not configured, with a 400 that says so', async () => {
    const input = { provider: 'onedrive' as const, return_url: 'https://app.example.com/back' };
    const error = await createConnection(deps, ORG, input, 'http://localhost:3000').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as Error).message).toMatch(/provider: onedrive is not configured/);
  });
});

describe('the real providers’ definitions', () => {
  it('default every endpoint to the production URL and let the environment override it', () => {
    expect(providerSetting('google_drive', 'tokenUrl')).toBe('https://oauth2.googleapis.com/token');
    expect(providerSetting('onedrive', 'apiUrl')).toBe('https://graph.microsoft.com');
    expect(providerSetting('dropbox', 'revokeUrl')).toBe('https://api.dropboxapi.com/2/auth/token/revoke');
    expect(providerSetting('clio', 'authorizeUrl')).toBe('https://app.clio.com/oauth/authorize');
    expect(providerExtraSetting('dropbox', 'CONTENT_URL')).toBe('https://content.dropboxapi.com');
    process.env[providerEnv('google_drive', 'TOKEN_URL')] = 'http://127.0.0.1:1/token';
    process.env[providerEnv('dropbox', 'CONTENT_URL')] = 'http://127.0.0.1:1/content';
    resetConfigCache();
    expect(providerSetting('google_drive', 'tokenUrl')).toBe('http://127.0.0.1:1/token');
    expect(providerExtraSetting('dropbox', 'CONTENT_URL')).toBe('http://127.0.0.1:1/content');
    // Microsoft has no revocation endpoint: nothing to default, and nothing is called.
    expect(PROVIDERS.onedrive.revocation).toEqual({ style: 'none' });
    expect(() => providerSetting('onedrive', 'revokeUrl')).toThrow(/PROVIDER_ONEDRIVE_REVOKE_URL/);
  });

  it("serve every production URL under the provider's ORIGIN at its own path, a setting named winning", () => {
    process.env[providerEnv('dropbox', 'ORIGIN')] = 'http://127.0.0.1:1/dropbox/';
    process.env[providerEnv('dropbox', 'CONTENT_URL')] = 'http://127.0.0.1:1/content';
    process.env[providerEnv('imanage', 'ORIGIN')] = 'https://gateway.example/imanage/{server}';
    process.env[providerEnv('clio', 'ORIGIN')] = 'https://gateway.example/clio';
    resetConfigCache();
    // Each host of the provider (www, api) under the one origin, the path and query kept.
    expect(providerSetting('dropbox', 'authorizeUrl')).toBe('http://127.0.0.1:1/dropbox/oauth2/authorize');
    expect(providerSetting('dropbox', 'revokeUrl')).toBe('http://127.0.0.1:1/dropbox/2/auth/token/revoke');
    expect(providerExtraSetting('dropbox', 'CONTENT_URL')).toBe('http://127.0.0.1:1/content');
    expect(providerSetting('clio', 'accountUrl')).toBe(
      'https://gateway.example/clio/api/v4/users/who_am_i?fields=id,name,email',
    );
    // A setting that is not a URL is not moved; the client id is never a default.
    expect(providerExtraSetting('clio', 'REGION')).toBe(PROVIDERS.clio.extraSettings.REGION);
    // A per-connection host stays a placeholder of the origin, filled for the connection.
    expect(providerSetting('imanage', 'tokenUrl', { server: 'work.firm.example' })).toBe(
      'https://gateway.example/imanage/work.firm.example/auth/oauth2/token',
    );
    expect(rebased('https://api.box.com/2.0/users/me?fields=id', 'http://h:1/box')).toBe(
      'http://h:1/box/2.0/users/me?fields=id',
    );
    expect(rebased('us', 'http://h:1/box')).toBe('us');
    // Microsoft has no revocation endpoint, under an origin or not.
    expect(settingDefault('onedrive', 'REVOKE_URL', 'http://h:1')).toBeUndefined();
  });

  it.each([
    [
      'google_drive',
      { access_type: 'offline', prompt: 'consent' },
      'https://www.googleapis.com/auth/drive.readonly',
    ],
    ['onedrive', {}, 'offline_access User.Read Files.Read.All Sites.Read.All'],
    ['dropbox', { token_access_type: 'offline' }, 'account_info.read files.metadata.read files.content.read'],
    ['clio', {}, null],
  ] as const)(
    '%s: the authorize request asks for offline access as the provider wants it',
    (id, extra, scope) => {
      const definition = PROVIDERS[id];
      const url = new URL(
        authorizeUrl(definition.defaults.authorizeUrl!, {
          clientId: 'c',
          redirectUri: 'https://svc.example.com/cb',
          scopes: definition.scopeTiers[definition.defaultTier]!.scopes,
          separator: definition.scopeSeparator,
          state: 's',
          challenge: 'x'.repeat(43),
          extra: definition.authorizeParams,
        }),
      );
      for (const [name, value] of Object.entries(extra)) expect(url.searchParams.get(name)).toBe(value);
      expect(url.searchParams.get('scope')).toBe(scope);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    },
  );

  it('every real provider has a tier that asks for its write scopes (exports) and a least-privilege default', () => {
    for (const id of REAL_PROVIDER_IDS) {
      const definition = PROVIDERS[id];
      const tiers = Object.values(definition.scopeTiers);
      expect(tiers.some((t) => definition.writeScopes.every((s) => t.scopes.includes(s)))).toBe(true);
      const fallback = definition.scopeTiers[definition.defaultTier]!;
      if (tiers.length > 1)
        expect(definition.writeScopes.some((s) => fallback.scopes.includes(s))).toBe(false);
    }
  });

  it('reads account fields by dotted path with alternatives', () => {
    const body = {
      user: { permissionId: '0123', emailAddress: 'a@b.c' },
      mail: null,
      userPrincipalName: 'u@t',
    };
    expect(accountField(body, 'user.permissionId')).toBe('0123');
    expect(accountField(body, 'mail|userPrincipalName')).toBe('u@t');
    expect(accountField(body, 'user.missing.deeper')).toBe('');
    expect(accountField({ constructor: 'x' }, 'toString')).toBe('');
  });
});

describe('the CDK context of a real provider', () => {
  it('needs only its client id (production endpoints by default); the sandbox’s still need theirs', async () => {
    const { connectorContext } = await import('../../lib/connectors');
    const parsed = connectorContext({
      providers: {
        google_drive: { clientId: 'g' },
        dropbox: { clientId: 'd', settings: { CONTENT_URL: 'https://c.example' } },
      },
    });
    expect(Object.keys(parsed.providers)).toEqual(['google_drive', 'dropbox']);
    expect(() => connectorContext({ providers: { drive: { clientId: 'x' } } })).toThrow(
      /drive\.authorizeUrl: required: no default/,
    );
    expect(() =>
      connectorContext({ providers: { onedrive: { clientId: 'o', settings: { REGION: 'eu' } } } }),
    ).toThrow(/onedrive\.settings\.REGION/);
  });
});
