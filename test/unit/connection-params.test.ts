// A connection's params (a region, a server): the definition's checks, defaults, the endpoint
// templates they fill, the account key that keeps two hosts' accounts apart, and the deployment's
// allowed hosts.
import fc from 'fast-check';
import {
  ParamsError,
  accountKey,
  checkParams,
  completeParams,
  fillTemplate,
  hostParamProblem,
  missingParams,
  paramVars,
  settingsSuffix,
  unfilled,
} from '../../functions/connectors/domain/connection-params';
import type { ProviderDefinition } from '../../functions/connectors/domain/provider-definition';
import { hostAllowed } from '../../functions/connectors/app/connection-params';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProviderHttpError, refreshTokens } from '../../functions/connectors/infra/oauth-client';
import { PROVIDERS } from '../../functions/connectors/domain/providers';

type Definition = Pick<ProviderDefinition, 'id' | 'params'>;

const regional: Definition = {
  id: 'regional',
  params: {
    region: {
      kind: 'choice',
      label: 'Region',
      description: 'Where the repository is hosted',
      choices: {
        us: { label: 'United States', vars: { web: 'vault.example.com', api: 'api.vault.example.com' } },
        eu: {
          label: 'Europe',
          vars: { web: 'eu.example.com', api: 'api.eu.example.com' },
          settingsSuffix: 'EU',
        },
      },
      default: 'us',
    },
  },
};

const hosted: Definition = {
  id: 'hosted',
  params: {
    server: { kind: 'host', label: 'Server', description: 'Your server', example: 'work.firm.example' },
  },
};

const plain: Definition = { id: 'plain' };

describe('host params', () => {
  it.each(['work.firm.example', 'cloudimanage.com', 'a-b.c-d.example', 'xn--bcher-kva.example'])(
    'accepts %s',
    (host) => expect(hostParamProblem(host)).toBeUndefined(),
  );

  it.each([
    ['', 'host name'],
    [' work.firm.example', 'host name'],
    ['https://work.firm.example', 'alone'],
    ['work.firm.example:8443', 'alone'],
    ['work.firm.example/path', 'alone'],
    ['user@work.firm.example', 'alone'],
    ['127.0.0.1', 'not an address'],
    ['[::1]', 'alone'],
    ['10.0.0.1', 'not an address'],
    ['1.2.3.4.5', 'not an address'],
    ['localhost', 'with a domain'],
    ['-bad.example', 'DNS host name'],
    ['bad_.example', 'DNS host name'],
    ['a..b.example', 'DNS host name'],
    [`${'a'.repeat(64)}.example`, 'DNS host name'],
  ])('refuses %j', (host, problem) => {
    expect(hostParamProblem(host)).toContain(problem);
  });

  it('stores a host lower case without its trailing dot', () => {
    expect(checkParams(hosted, { server: 'Work.Firm.Example.' })).toEqual({ server: 'work.firm.example' });
  });
});

describe('checking and completing params', () => {
  it('refuses an unknown name, naming what is known', () => {
    expect(() => checkParams(regional, { zone: 'us' })).toThrow(
      new ParamsError('zone', 'is not a param of regional; known: region'),
    );
    expect(() => checkParams(plain, { region: 'us' })).toThrow(/takes none/);
  });

  it('refuses a value not among the choices', () => {
    expect(() => checkParams(regional, { region: 'mars' })).toThrow(/must be one of us, eu/);
  });

  it('says which params the page must ask, and fills defaults', () => {
    expect(missingParams(regional, {})).toEqual(['region']);
    expect(missingParams(regional, { region: 'eu' })).toEqual([]);
    expect(completeParams(regional, {})).toEqual({ region: 'us' });
    expect(completeParams(regional, { region: 'eu' })).toEqual({ region: 'eu' });
  });

  it('requires a param without a default', () => {
    expect(() => completeParams(hosted, {})).toThrow(new ParamsError('server', 'is required'));
  });

  it('gives a provider without params none', () => {
    expect(missingParams(plain)).toEqual([]);
    expect(completeParams(plain)).toEqual({});
  });
});

describe('endpoint templates', () => {
  it("fill a choice's vars and the param's own value", () => {
    const vars = paramVars(regional, { region: 'eu' });
    expect(fillTemplate('https://{web}/neWeb2/OAuth.aspx', vars)).toBe(
      'https://eu.example.com/neWeb2/OAuth.aspx',
    );
    expect(fillTemplate('https://{api}/v1/OAuth', vars)).toBe('https://api.eu.example.com/v1/OAuth');
    expect(fillTemplate('http://127.0.0.1:3001/fake/{region}/v1', vars)).toBe(
      'http://127.0.0.1:3001/fake/eu/v1',
    );
  });

  it('leave a placeholder without a var for the caller to report', () => {
    const value = fillTemplate('https://{server}/api', paramVars(regional, { region: 'us' }));
    expect(unfilled(value)).toEqual(['server']);
  });

  it('never let a value change the URL beyond its segment', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const url = new URL(fillTemplate('https://fixed.example/{x}/tail', { x: value }));
        expect(url.host).toBe('fixed.example');
        expect(url.pathname.endsWith('/tail')).toBe(true);
      }),
    );
  });

  it("name the chosen value's own client", () => {
    expect(settingsSuffix(regional, { region: 'eu' })).toBe('EU');
    expect(settingsSuffix(regional, { region: 'us' })).toBeUndefined();
  });
});

describe('account keys', () => {
  it('keep the same user on two servers apart, and leave providers without params as they were', () => {
    const a = accountKey(hosted, { server: 'a.example' }, 'jsmith');
    const b = accountKey(hosted, { server: 'b.example' }, 'jsmith');
    expect(a).not.toBe(b);
    expect(accountKey(hosted, { server: 'a.example' }, 'jsmith')).toBe(a);
    expect(accountKey(plain, {}, 'jsmith')).toBe('jsmith');
  });

  it('are distinct for distinct (params, account) pairs', () => {
    const host = fc.constantFrom('a.example', 'b.example', 'a.example#x', 'c.example&d');
    fc.assert(
      fc.property(host, fc.string(), host, fc.string(), (h1, id1, h2, id2) => {
        fc.pre(h1 !== h2 || id1 !== id2);
        // Host params are DNS names (no '#' or '&'), so the key is unambiguous for stored values.
        fc.pre(!hostParamProblem(h1) && !hostParamProblem(h2));
        expect(accountKey(hosted, { server: h1 }, id1)).not.toBe(accountKey(hosted, { server: h2 }, id2));
      }),
    );
  });
});

describe("a deployment's allowed hosts", () => {
  it('allow any host when none are listed', () => expect(hostAllowed('x.example', [])).toBe(true));

  it('match exact names and *.suffix patterns, not the suffix itself or a look-alike', () => {
    const patterns = ['cloudimanage.com', '*.firm.example'];
    expect(hostAllowed('cloudimanage.com', patterns)).toBe(true);
    expect(hostAllowed('work.firm.example', patterns)).toBe(true);
    expect(hostAllowed('firm.example', patterns)).toBe(false);
    expect(hostAllowed('evilfirm.example', patterns)).toBe(false);
    expect(hostAllowed('eu.cloudimanage.com', patterns)).toBe(false);
  });
});

describe("token requests to a customer's server", () => {
  let hits = 0;
  const server = createServer((request, response) => {
    hits++;
    request.resume();
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ access_token: 'at', token_type: 'Bearer', expires_in: 60 }));
  });
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/auth/oauth2/token`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const client = (allowLoopback: boolean) => ({
    tokenUrl: url,
    revokeUrl: '',
    accountUrl: '',
    clientId: 'id',
    clientSecret: 'secret',
    guard: { allowLoopback },
  });

  it('go through the address guard: a refused address is never asked', async () => {
    hits = 0;
    const refused = refreshTokens(client(false), PROVIDERS.imanage, 'rt');
    await expect(refused).rejects.toBeInstanceOf(ProviderHttpError);
    await expect(refreshTokens(client(false), PROVIDERS.imanage, 'rt')).rejects.toMatchObject({
      oauthError: 'blocked_address',
    });
    expect(hits).toBe(0);
  });

  it('reach an address the guard passes, pinned', async () => {
    hits = 0;
    const tokens = await refreshTokens(client(true), PROVIDERS.imanage, 'rt');
    expect(tokens.accessToken).toBe('at');
    expect(hits).toBe(1);
  });
});
