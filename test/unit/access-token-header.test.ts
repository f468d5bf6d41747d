// The header a provider's API takes our access token in, as its definition names it (iManage Work's
// X-Auth-Token; Authorization: Bearer when it names none), over real HTTP: the content transport's
// requests to the API's origin, the account lookup and a bearer-style revocation carry it, and a request
// to any other host carries neither it nor Authorization, whatever the request's own headers held.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as fc from 'fast-check';
import { accessTokenHeaders, withoutAccessToken } from '../../functions/connectors/infra/access-token';
import { Transport } from '../../functions/connectors/infra/content/http';
import { fetchAccount, revokeToken } from '../../functions/connectors/infra/oauth-client';
import { PROVIDERS } from '../../functions/connectors/domain/providers';

const TOKEN = 'at-secret-1';

let api: Server;
let apiBase = '';
let other: Server;
let otherBase = '';
const apiSeen: IncomingHttpHeaders[] = [];
const otherSeen: IncomingHttpHeaders[] = [];

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  other = createServer((request, response) => {
    otherSeen.push(request.headers);
    request.resume();
    response.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end('bytes');
  });
  otherBase = await listen(other);
  api = createServer((request, response) => {
    apiSeen.push(request.headers);
    request.resume();
    if (request.url === '/download')
      return void response.writeHead(302, { Location: `${otherBase}/signed` }).end();
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ data: { user: { id: 'u1', email: 'u@firm.example', name: 'U' } } }));
  });
  apiBase = await listen(api);
});

afterAll(async () => {
  await new Promise((resolve) => api.close(resolve));
  await new Promise((resolve) => other.close(resolve));
});

beforeEach(() => {
  apiSeen.length = 0;
  otherSeen.length = 0;
});

const transport = (accessTokenHeader?: string) =>
  new Transport({ apiUrls: [apiBase], accessTokenHeader, guard: { allowLoopback: true } });

describe('the access token header', () => {
  it("iManage's definition names X-Auth-Token; the others take Authorization: Bearer", () => {
    expect(PROVIDERS.imanage.accessTokenHeader).toBe('X-Auth-Token');
    for (const definition of Object.values(PROVIDERS).filter((d) => d.id !== 'imanage'))
      expect(accessTokenHeaders(definition.accessTokenHeader, TOKEN)).toEqual({
        Authorization: `Bearer ${TOKEN}`,
      });
  });

  it('goes to the API in the header the definition names, the bare token, and in no other', async () => {
    await transport('X-Auth-Token').json({ operation: 'discovery', token: TOKEN, url: `${apiBase}/api` });
    await transport().json({ operation: 'discovery', token: TOKEN, url: `${apiBase}/api` });
    expect(apiSeen.map((h) => [h['x-auth-token'], h.authorization])).toEqual([
      [TOKEN, undefined],
      [undefined, `Bearer ${TOKEN}`],
    ]);
  });

  it('never reaches another host: not on a followed redirect, not on a URL the provider named', async () => {
    for (const header of ['X-Auth-Token', undefined]) {
      const t = transport(header);
      const download = await t.send({
        operation: 'download',
        token: TOKEN,
        url: `${apiBase}/download`,
        followRedirects: true,
      });
      await download.arrayBuffer();
      // A request's own headers naming the credential do not carry it past the API's origins either.
      const upload = await t.send({
        operation: 'upload content',
        token: TOKEN,
        url: `${otherBase}/put`,
        method: 'PUT',
        headers: { [(header ?? 'authorization').toLowerCase()]: TOKEN, AUTHORIZATION: `Bearer ${TOKEN}` },
        body: Buffer.from('x'),
      });
      await upload.arrayBuffer();
    }
    expect(otherSeen).toHaveLength(4);
    for (const headers of otherSeen) {
      expect(headers.authorization).toBeUndefined();
      expect(headers['x-auth-token']).toBeUndefined();
      expect(JSON.stringify(headers)).not.toContain(TOKEN);
    }
  });

  it('drops the credential headers whatever their case, and keeps every other', () => {
    const casing = (name: string) =>
      fc
        .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
        .map((upper) => [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''));
    fc.assert(
      fc.property(
        casing('x-auth-token'),
        casing('authorization'),
        fc.dictionary(fc.constantFrom('Accept', 'Content-Type', 'X-Request-Id'), fc.string()),
        (own, bearer, rest) => {
          const kept = withoutAccessToken(
            { ...rest, [own]: TOKEN, [bearer]: `Bearer ${TOKEN}` },
            'X-Auth-Token',
          );
          expect(kept).toEqual(rest);
        },
      ),
      { seed: 4242 },
    );
  });

  it('the account lookup and a bearer-style revocation send it as the content API does', async () => {
    const client = {
      tokenUrl: `${apiBase}/token`,
      revokeUrl: `${apiBase}/revoke`,
      accountUrl: `${apiBase}/api`,
      clientId: 'c',
      clientSecret: 's',
    };
    await expect(fetchAccount(client, PROVIDERS.imanage, TOKEN)).resolves.toEqual({
      external_id: 'u1',
      email: 'u@firm.example',
      display_name: 'U',
    });
    await revokeToken(
      client,
      { ...PROVIDERS.imanage, revocation: { style: 'bearer' } },
      TOKEN,
      'access_token',
    );
    await revokeToken(
      client,
      { ...PROVIDERS.dropbox, revocation: { style: 'bearer' } },
      TOKEN,
      'access_token',
    );
    expect(apiSeen.map((h) => [h['x-auth-token'], h.authorization])).toEqual([
      [TOKEN, undefined],
      [TOKEN, undefined],
      [undefined, `Bearer ${TOKEN}`],
    ]);
  });
});
