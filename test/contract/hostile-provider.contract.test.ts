// Every provider client against a hostile provider: the sandbox fakes behind a proxy that turns their
// answers against us (a download redirected to an internal address, an upload session or pre-signed URL
// pointing there, a paging link to another origin, an answer that never ends). The clients are the
// production ones over real HTTP, with production's address guard; the API's own origin (the proxy,
// on 127.0.0.1) is trusted as configuration, so "internal" is another loopback port, a private, link-local
// or metadata address, or a name resolving to one. What must hold: our access token reaches nothing but
// the API's origin (in neither Authorization nor the provider's own header, iManage's X-Auth-Token),
// nothing internal receives a request, and the call fails with a reason that says which rule refused
// it (a run reads it as provider_url_refused).
import { completeParams, fillTemplate, paramVars } from '../../functions/connectors/domain/connection-params';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { startSandboxProvider } from '../../sandbox';
import type { SandboxProvider } from '../../sandbox';
import { registerSandboxClients, sandboxSetting } from '../../functions/dev-runtime/hooks/sandbox-setup';
import type { ProviderId } from '../../functions/connectors/domain/providers';
import { PROVIDERS, PROVIDER_IDS } from '../../functions/connectors/domain/providers';
import { classifyApiStatus } from '../../functions/connectors/domain/sync-policy';
import { authorizeUrl, callbackUrl, newPkce } from '../../functions/connectors/domain/flow-crypto';
import { exchangeCode } from '../../functions/connectors/infra/oauth-client';
import type { ContentApi, ChangedFile, UrlGuard } from '../../functions/connectors/infra/content';
import { ProviderApiError, contentApi } from '../../functions/connectors/infra/content';
import { Transport } from '../../functions/connectors/infra/content/http';

/** The request headers our access token may travel in to a provider: Authorization, and its own if it has one. */
const credentialHeaders = (id?: ProviderId): string[] => [
  'authorization',
  ...(id && PROVIDERS[id].accessTokenHeader ? [PROVIDERS[id].accessTokenHeader!.toLowerCase()] : []),
];

/** Nothing outside the API's origins got a credential header, nor the token anywhere in what it received. */
function expectNoCredentials(seen: readonly Seen[], token: string, id?: ProviderId): void {
  for (const request of seen)
    for (const header of credentialHeaders(id)) expect(request.headers[header]).toBeUndefined();
  expect(JSON.stringify(seen)).not.toContain(token);
}

const BASE = 'http://127.0.0.1:9';
/** Production's guard: no loopback, private, link-local or metadata address. */
const PRODUCTION: UrlGuard = { allowLoopback: false };
/** Outside production loopback passes (the fakes live there), and still no token leaves. */
const DEVELOPMENT: UrlGuard = { allowLoopback: true };

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/** What the hostile proxy does to one answer of the fake: the answer as it is, or another. */
type Rule = (
  request: { method: string; path: string; contentType: string },
  answer: { status: number; headers: Record<string, string>; body: Buffer },
) => { status: number; headers: Record<string, string>; body: Buffer } | 'endless' | 'endless-error';

let sandbox: SandboxProvider;
let env: Record<string, string>;
let proxy: Server;
let proxyBase = '';
let rule: Rule | undefined;
/** Every request the proxy (the API's origin) received. */
const apiSeen: Seen[] = [];
/** The "internal" service: a listener on another loopback port. */
let internal: Server;
let internalUrl = '';
const internalSeen: Seen[] = [];

const HOP = ['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'];

function endless(response: ServerResponse, status: number): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  response.write('{"data": "');
  const pump = () => {
    while (response.write(chunk));
  };
  response.on('drain', pump);
  response.on('close', () => response.off('drain', pump));
  pump();
}

async function startProxy(): Promise<void> {
  proxy = createServer((request, response) => {
    void (async () => {
      apiSeen.push({ method: request.method!, url: request.url!, headers: request.headers });
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers))
        if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
          headers.set(name, value);
      const body = Buffer.concat(chunks);
      const answer = await fetch(`${sandbox.url}${request.url}`, {
        method: request.method,
        headers,
        body: body.length || !['GET', 'HEAD'].includes(request.method!) ? body : undefined,
        redirect: 'manual',
      });
      // The fake names its own origin in Locations and upload URLs: the proxy's, so they stay the API's.
      let bytes = Buffer.from(await answer.arrayBuffer());
      if (/json/.test(answer.headers.get('content-type') ?? ''))
        bytes = Buffer.from(bytes.toString('utf8').split(sandbox.url).join(proxyBase));
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!HOP.includes(name))
          out[name] = name === 'location' ? value.replace(sandbox.url, proxyBase) : value;
      });
      const turned = rule?.(
        {
          method: request.method!,
          path: request.url!,
          contentType: String(request.headers['content-type'] ?? ''),
        },
        { status: answer.status, headers: out, body: bytes },
      ) ?? { status: answer.status, headers: out, body: bytes };
      if (turned === 'endless') return endless(response, 200);
      if (turned === 'endless-error') return endless(response, 500);
      response.writeHead(turned.status, { ...turned.headers, 'Content-Length': String(turned.body.length) });
      response.end(turned.body);
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(502).end(String(error));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyBase = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

async function startInternal(): Promise<void> {
  internal = createServer((request, response) => {
    internalSeen.push({ method: request.method!, url: request.url!, headers: request.headers });
    request.resume();
    // What an internal service might answer: taken as a file or a created item, were it reached.
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end('{"id":"internal","name":"internal","eTag":"x","rev":"x","path_lower":"/internal"}');
  });
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  internalUrl = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  sandbox = await startSandboxProvider({ exposeIssued: true });
  env = registerSandboxClients(sandbox, BASE);
  await startProxy();
  await startInternal();
});

afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await new Promise((resolve) => internal.close(resolve));
  await sandbox.close();
});

// Reset after each test, not before: the next provider's beforeAll must meet the fake as it is.
afterEach(() => {
  rule = undefined;
});

beforeEach(() => {
  apiSeen.length = 0;
  internalSeen.length = 0;
});

/** A setting as a connection with the default params gets it (a server's or region's templates filled). */
const setting = (id: ProviderId, field: string) =>
  fillTemplate(sandboxSetting(env, id, field) ?? '', paramVars(PROVIDERS[id], completeParams(PROVIDERS[id])));

/** The production client, its API (and Dropbox's content host) reached through the hostile proxy. */
const apiOf = (id: ProviderId, guard: UrlGuard): Promise<ContentApi> =>
  contentApi(PROVIDERS[id], {
    apiUrl: setting(id, 'API_URL').replace(sandbox.url, proxyBase),
    setting: (name) => setting(id, name).replace(sandbox.url, proxyBase),
    clientId: () => setting(id, 'CLIENT_ID'),
    guard,
  });

/** A token as a user's consent at the fake gives it. */
async function connect(id: ProviderId, account: string): Promise<string> {
  const definition = PROVIDERS[id];
  const pkce = newPkce();
  const redirectUri = callbackUrl(BASE, id);
  const page = await fetch(
    authorizeUrl(setting(id, 'AUTHORIZE_URL'), {
      clientId: setting(id, 'CLIENT_ID'),
      redirectUri,
      scopes: definition.scopeTiers[Object.keys(definition.scopeTiers).at(-1)!]!.scopes,
      separator: definition.scopeSeparator,
      state: 'state-1',
      challenge: pkce.challenge,
      extra: definition.authorizeParams,
    }),
  );
  const html = await page.text();
  const requestId = /name="request_id" value="([^"]+)"/.exec(html)![1]!;
  const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!;
  const answer = await fetch(`${sandbox.url}${action}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      request_id: requestId,
      decision: 'approve',
      simulate: 'none',
      account_id: account,
      email: `${account}@example.com`,
      display_name: `User ${account}`,
    }),
  });
  const code = new URL(answer.headers.get('location')!).searchParams.get('code')!;
  const tokens = await exchangeCode(
    {
      tokenUrl: setting(id, 'TOKEN_URL'),
      revokeUrl: setting(id, 'REVOKE_URL'),
      accountUrl: setting(id, 'ACCOUNT_URL'),
      clientId: setting(id, 'CLIENT_ID'),
      clientSecret: setting(id, 'CLIENT_SECRET'),
    },
    definition,
    { code, verifier: pkce.verifier, redirectUri },
  );
  return tokens.accessToken;
}

const failureOf = async (work: Promise<unknown>): Promise<ProviderApiError> => {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderApiError);
  return error as ProviderApiError;
};

const isJson = (headers: Record<string, string>) => /json/.test(headers['content-type'] ?? '');

/** Addresses a hostile answer may point to, besides the internal listener: each refused before any connection. */
const FORBIDDEN = [
  'http://10.20.30.40/x',
  'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
  'http://[::1]:1/x',
  'http://[::ffff:127.0.0.1]:1/x',
  'http://100.100.100.200/x',
];

describe.each(PROVIDER_IDS.map((id) => [id]))('provider %s against a hostile provider', (id) => {
  let token: string;
  let container: string;
  let file: ChangedFile;

  beforeAll(async () => {
    token = await connect(id, `acct-${id}-hostile`);
    const api = await apiOf(id, PRODUCTION);
    const top = await api.browse(token, undefined, { limit: 100 });
    container = top.entries.find((e) => e.kind === 'container')!.id;
    let position: { page: string } | { cursor?: string } = {};
    for (;;) {
      const page = await api.changes(token, container, position, 50);
      const found = page.files.find((f) => !f.deleted);
      if (found) {
        file = found;
        break;
      }
      if ('cursor' in page.next) throw new Error(`no file in ${id}'s first container`);
      position = page.next;
    }
  });

  afterEach(() => {
    // Whatever happened, our token went to the API's origin only, and nothing internal heard of it.
    expectNoCredentials(internalSeen, token, id);
  });

  /** A download's content answer (not JSON: the bytes, or the redirect to them) turned into a redirect. */
  const redirectDownloadTo =
    (target: string): Rule =>
    (_request, answer) =>
      !isJson(answer.headers) && answer.status < 400
        ? { status: 302, headers: { location: target }, body: Buffer.alloc(0) }
        : answer;

  it('follows no download redirect to an internal address, and sends no token there', async () => {
    rule = redirectDownloadTo(`${internalUrl}/download`);
    const error = await failureOf((await apiOf(id, PRODUCTION)).download(token, file.id, file));
    expect(internalSeen).toEqual([]);
    // Clients that follow a provider's redirect (Clio's 303, Graph's 302) refuse the address; the others
    // follow none and fail on the 3xx itself. Neither is retried as if the provider were down.
    if (error.providerError === 'blocked_address') {
      expect(classifyApiStatus(error.status, error.providerError)).toEqual({
        kind: 'fatal',
        reason: 'provider_url_refused',
      });
    } else {
      expect(error.status).toBe(302);
      expect(classifyApiStatus(error.status, error.providerError).kind).toBe('fatal');
    }
    for (const target of FORBIDDEN) {
      rule = redirectDownloadTo(target);
      const again = await failureOf((await apiOf(id, PRODUCTION)).download(token, file.id, file));
      expect([undefined, 'blocked_address']).toContain(again.providerError);
      expect(again.status).not.toBeUndefined();
    }
  });

  it('outside production, reaches a loopback redirect without our token', async () => {
    rule = redirectDownloadTo(`${internalUrl}/download`);
    await (
      await apiOf(id, DEVELOPMENT)
    )
      .download(token, file.id, file)
      .then((download) => download.body.resume())
      .catch(() => undefined);
    // afterEach: whatever was reached got no credential header.
  });

  /**
   * An upload's session or pre-signed URL (Google's resumable Location, Graph's uploadUrl, Clio's
   * put_url) named elsewhere; a client that uploads to the API itself is answered with a redirect there.
   */
  const uploadElsewhere =
    (target: string): Rule =>
    (request, answer) => {
      if (answer.headers.location && answer.status < 300 && /upload/.test(answer.headers.location))
        return { ...answer, headers: { ...answer.headers, location: target } };
      if (isJson(answer.headers) && /"(uploadUrl|put_url)"/.test(answer.body.toString())) {
        const json = answer.body
          .toString()
          .replace(/"(uploadUrl|put_url)":"[^"]*"/g, (_m, field: string) => `"${field}":"${target}"`);
        return { ...answer, body: Buffer.from(json) };
      }
      if (request.method !== 'GET' && /octet-stream|multipart|text\/plain/.test(request.contentType))
        return { status: 307, headers: { location: target }, body: Buffer.alloc(0) };
      return answer;
    };

  const bigUpload = (key: string) => {
    const bytes = Buffer.alloc(6 * 1024 * 1024 + 1, 1);
    return {
      name: `hostile-${key}.bin`,
      contentType: 'application/octet-stream',
      size: bytes.length,
      body: Readable.from([bytes]),
      idempotencyKey: key,
    };
  };

  it('sends no upload to an internal address the provider names, and no token', async () => {
    rule = uploadElsewhere(`${internalUrl}/upload`);
    const error = await failureOf(
      (await apiOf(id, PRODUCTION)).upload(token, container, bigUpload('exp_h1')),
    );
    expect(internalSeen).toEqual([]);
    expect(classifyApiStatus(error.status, error.providerError).kind).toBe('fatal');
    rule = uploadElsewhere('http://169.254.169.254/upload');
    const metadata = await failureOf(
      (await apiOf(id, PRODUCTION)).upload(token, container, bigUpload('exp_h2')),
    );
    expect(classifyApiStatus(metadata.status, metadata.providerError).kind).toBe('fatal');
  });

  it('outside production, an upload URL on loopback gets the bytes but never our token', async () => {
    rule = uploadElsewhere(`${internalUrl}/upload`);
    await (await apiOf(id, DEVELOPMENT)).upload(token, container, bigUpload('exp_h3')).catch(() => undefined);
  });

  it('follows no paging link to another origin', async () => {
    rule = (_request, answer) =>
      isJson(answer.headers)
        ? {
            ...answer,
            body: Buffer.from(
              answer.body
                .toString()
                .replace(
                  /"(@odata\.nextLink|next)":"[^"]*"/g,
                  (_m, f: string) => `"${f}":"${internalUrl}/next"`,
                ),
            ),
          }
        : answer;
    const api = await apiOf(id, PRODUCTION);
    let position: { page: string } | { cursor?: string } = {};
    for (let pages = 0; pages < 20; pages++) {
      const page: unknown = await api.changes(token, container, position, 1).catch((e: unknown) => e);
      if (page instanceof ProviderApiError) {
        expect(classifyApiStatus(page.status, page.providerError)).toEqual({
          kind: 'fatal',
          reason: 'provider_url_refused',
        });
        break;
      }
      expect(page).not.toBeInstanceOf(Error);
      const next: { page: string } | { cursor: string } = (
        page as { next: { page: string } | { cursor: string } }
      ).next;
      if ('cursor' in next) break;
      position = next;
    }
    expect(internalSeen).toEqual([]);
    expect(apiSeen.every((seen) => !seen.url.includes('/next'))).toBe(true);
  });

  it('refuses an answer that never ends, within its size limit', async () => {
    rule = (_request, answer) => (isJson(answer.headers) ? 'endless' : answer);
    const error = await failureOf((await apiOf(id, PRODUCTION)).browse(token, container, { limit: 5 }));
    expect(error.providerError).toBe('response_too_large');
    expect(classifyApiStatus(error.status, error.providerError).kind).toBe('fatal');
    // An error answer is read for its reason only so far: the status stands.
    rule = (_request, answer) => (isJson(answer.headers) ? 'endless-error' : answer);
    const failed = await failureOf((await apiOf(id, PRODUCTION)).browse(token, container, { limit: 5 }));
    expect(failed.status).toBe(500);
  });
});

describe('the transport alone', () => {
  it('never goes from an https API down to http, whatever the address', async () => {
    const transport = new Transport({ apiUrls: ['https://api.provider.example'], guard: DEVELOPMENT });
    const error = await failureOf(
      transport.send({ operation: 'upload content', token: 'secret-token', url: `${internalUrl}/put` }),
    );
    expect(error.providerError).toBe('insecure_url');
    expect(internalSeen).toEqual([]);
  });

  it('refuses a name that resolves to an internal address (checked after DNS, then pinned)', async () => {
    const rebinding: UrlGuard = {
      allowLoopback: false,
      resolve: async () => [
        { address: '93.184.215.14', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
    };
    const transport = new Transport({ apiUrls: [proxyBase], guard: rebinding });
    const port = new URL(internalUrl).port;
    const error = await failureOf(
      transport.send({ operation: 'download', token: 'secret-token', url: `http://files.example:${port}/x` }),
    );
    expect(error.providerError).toBe('blocked_address');
    expect(internalSeen).toEqual([]);
  });

  it('connects to the vetted address only, whatever the name would resolve to later', async () => {
    const port = new URL(internalUrl).port;
    const transport = new Transport({
      apiUrls: ['http://api.provider.example'],
      guard: { allowLoopback: true, resolve: async () => [{ address: '127.0.0.1', family: 4 }] },
    });
    const response = await transport.send({
      operation: 'download',
      token: 'secret-token',
      url: `http://storage.provider.example:${port}/object`,
    });
    await response.arrayBuffer();
    expect(internalSeen).toHaveLength(1);
    expectNoCredentials(internalSeen, 'secret-token');
    expect(internalSeen[0]!.headers.host).toBe(`storage.provider.example:${port}`);
  });

  it("keeps a provider's own token header (iManage's X-Auth-Token) from every other host, as Authorization", async () => {
    // The API's origin is the proxy in front of the iManage fake: its download is redirected elsewhere.
    const transport = new Transport({
      apiUrls: [proxyBase],
      accessTokenHeader: PROVIDERS.imanage.accessTokenHeader,
      guard: DEVELOPMENT,
    });
    rule = () => ({ status: 302, headers: { location: `${internalUrl}/signed` }, body: Buffer.alloc(0) });
    const followed = await transport.send({
      operation: 'download',
      token: 'secret-token',
      url: `${proxyBase}/imanage/work.firm.example/api`,
      followRedirects: true,
    });
    await followed.arrayBuffer();
    const named = await transport.send({
      operation: 'upload content',
      token: 'secret-token',
      url: `${internalUrl}/put`,
      method: 'PUT',
      headers: { 'X-Auth-Token': 'secret-token' },
      body: Buffer.from('bytes'),
    });
    await named.arrayBuffer();
    expect(apiSeen.map((seen) => seen.headers['x-auth-token'])).toEqual(['secret-token']);
    expect(apiSeen[0]!.headers.authorization).toBeUndefined();
    expect(internalSeen).toHaveLength(2);
    expectNoCredentials(internalSeen, 'secret-token', 'imanage');
  });
});
