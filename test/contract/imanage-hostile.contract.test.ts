// The iManage client against a hostile iManage server: the iManage fake behind a proxy that turns its
// answers against us (discovery naming another API host or a customer id that is a path, a download
// redirected to an internal address, profiles whose ids or URLs point elsewhere, an answer that never
// ends). The client is the production one over real HTTP with production's address guard; the server
// (the proxy, on 127.0.0.1) is trusted as configuration, so "internal" is another loopback port or the
// metadata address. What must hold: our bearer token reaches nothing but the server, nothing internal
// receives a request, no value iManage answers chooses a URL, and the call fails with a reason.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UrlGuard } from '../../functions/connectors/infra/content';
import { ProviderApiError } from '../../functions/connectors/infra/content';
import { ImanageApi } from '../../functions/connectors/providers/imanage/client';
import { ManualClock } from '../../functions/platform/clock';
import { textContent } from '../../sandbox/content/tree';
import type { FolderNode } from '../../sandbox/content/tree';
import { imanageFake } from '../../sandbox/providers/imanage';
import { imanageIds } from '../../sandbox/providers/imanage/work';
import { changesPass, drain } from '../support/content-walk';
import type { FakeHarness } from '../support/fake-harness';
import { startFakeHarness } from '../support/fake-harness';

const TOKEN = 'tok-imanage-hostile';
const ACCOUNT = 'acct-imanage-hostile';
const SERVER = 'work.firm.example';
/** Production's guard: no loopback, private, link-local or metadata address. */
const PRODUCTION: UrlGuard = { allowLoopback: false };
const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/** What the proxy does to one answer: the answer as it is, another, or a body that never ends. */
type Rule = (
  path: string,
  answer: { status: number; headers: Record<string, string>; body: Buffer },
) => { status: number; headers: Record<string, string>; body: Buffer } | 'endless';

let fake: FakeHarness;
let proxy: Server;
let proxyBase = '';
let internal: Server;
let internalUrl = '';
let rule: Rule | undefined;
const apiSeen: Seen[] = [];
const internalSeen: Seen[] = [];
const HOP = ['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'];

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  fake = await startFakeHarness(imanageFake, clock);
  fake.grant(TOKEN, ACCOUNT, ['user']);
  internal = createServer((request, response) => {
    internalSeen.push({ method: request.method!, url: request.url!, headers: request.headers });
    request.resume();
    request.on('end', () => response.writeHead(200, { 'Content-Type': 'text/plain' }).end('internal'));
  });
  internalUrl = await listen(internal);
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
      const answer = await fetch(`${fake.base}${request.url}`, {
        method: request.method,
        headers,
        body: body.length ? body : undefined,
        redirect: 'manual',
      });
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!HOP.includes(name)) out[name] = value.split(fake.base).join(proxyBase);
      });
      const bytes = Buffer.from(
        Buffer.from(await answer.arrayBuffer())
          .toString('latin1')
          .split(fake.base)
          .join(proxyBase),
        'latin1',
      );
      const turned = rule?.(request.url!, { status: answer.status, headers: out, body: bytes }) ?? {
        status: answer.status,
        headers: out,
        body: bytes,
      };
      if (turned === 'endless') {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        response.write('{"data": "');
        const pump = () => {
          while (response.write(chunk));
        };
        response.on('drain', pump);
        response.on('close', () => response.off('drain', pump));
        pump();
        return;
      }
      response.writeHead(turned.status, { ...turned.headers, 'content-length': String(turned.body.length) });
      response.end(turned.body);
    })().catch(() => response.destroy());
  });
  proxyBase = await listen(proxy);
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await new Promise((resolve) => internal.close(resolve));
  await fake.close();
});

beforeEach(() => {
  rule = undefined;
  apiSeen.length = 0;
  internalSeen.length = 0;
});

const api = (guard: UrlGuard = PRODUCTION) =>
  new ImanageApi({ apiUrl: `${proxyBase}/imanage/${SERVER}`, guard });

const failureOf = async (work: Promise<unknown>): Promise<ProviderApiError> => {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderApiError);
  return error as ProviderApiError;
};

let matter: FolderNode;
let documentId = '';
beforeAll(() => {
  const tree = fake.tree(ACCOUNT);
  matter = tree.addFolder(tree.root, 'Matter');
  const { file } = tree.putFile(matter, 'secret.txt', {
    contentType: 'text/plain',
    content: textContent('secret'),
  });
  documentId = imanageIds.providerId(tree, file);
});
const matterId = () => imanageIds.providerId(fake.tree(ACCOUNT), matter);

/** Every JSON answer's text rewritten by `edit`. */
const rewrite =
  (edit: (text: string, path: string) => string): Rule =>
  (path, answer) =>
    /json/.test(answer.headers['content-type'] ?? '')
      ? { ...answer, body: Buffer.from(edit(answer.body.toString('utf8'), path)) }
      : answer;

afterEach(() => {
  // Whatever happened: nothing internal heard from us, and our token went to the server only.
  expect(internalSeen).toEqual([]);
  expect(apiSeen.every((seen) => seen.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
});

describe('the iManage client against a hostile iManage', () => {
  it("takes no API host from discovery: its own server's, whatever `versions[].url` names", async () => {
    rule = rewrite((text) => text.replace(/"url":"[^"]*"/g, `"url":"${internalUrl}/work/api/v2"`));
    const names: string[] = [];
    let next: string | undefined;
    do {
      const page = await api().browse(TOKEN, matterId(), { token: next, limit: 10 });
      names.push(...page.entries.map((e) => e.name));
      next = page.next;
    } while (next);
    expect(names).toEqual(['secret.txt']);
  });

  it('refuses a customer id that is not a number before it reaches any URL', async () => {
    rule = rewrite((text, path) =>
      path.endsWith('/api') ? text.replace(/"customer_id":\d+/, '"customer_id":"1/../../../x"') : text,
    );
    const failure = await failureOf(api().browse(TOKEN, matterId(), { limit: 10 }));
    expect(failure.providerError).toBe('no_customer_id');
    expect(apiSeen.map((seen) => seen.url.split('?')[0])).toEqual([`/imanage/${SERVER}/api`]);
  });

  it('follows no download redirect, to an internal address or elsewhere', async () => {
    for (const target of [`${internalUrl}/steal`, 'http://169.254.169.254/latest/meta-data/']) {
      rule = (path, answer) =>
        path.includes('/download')
          ? { status: 302, headers: { location: target }, body: Buffer.alloc(0) }
          : answer;
      const failure = await failureOf(api().download(TOKEN, documentId));
      expect(failure.status).toBe(302);
    }
  });

  it('drops listed ids that are not iManage ids, and never requests a profile URL', async () => {
    rule = rewrite((text) =>
      text
        .replace(/"id":"ACTIVE!(\d+)\.(\d+)"/g, '"id":"ACTIVE!$1.$2/../../../x"')
        .replace(/"(document_url|folder_url|workspace_url)":"[^"]*"/g, `"$1":"${internalUrl}/profile"`),
    );
    const pass = await changesPass(api(), TOKEN, matterId(), undefined, 10);
    expect(pass.files).toEqual([]);
    rule = undefined;
    const clean = await changesPass(api(), TOKEN, matterId(), undefined, 10);
    expect(clean.files.map((f) => f.id)).toEqual([documentId]);
    expect((await drain((await api().download(TOKEN, documentId)).body)).toString()).toBe('secret');
  });

  it('refuses an answer that never ends, within its size limit', async () => {
    rule = (path, answer) => (path.includes('/children') ? 'endless' : answer);
    const failure = await failureOf(api().browse(TOKEN, matterId(), { limit: 10 }));
    expect(failure.providerError).toBe('response_too_large');
  });

  it("never puts an id or a page token that is not iManage's into a URL", async () => {
    const client = api();
    await expect(client.download(TOKEN, '../../auth/oauth2/token')).rejects.toMatchObject({ status: 404 });
    await expect(client.download(TOKEN, 'ACTIVE!1/../../x')).rejects.toMatchObject({ status: 404 });
    await expect(client.checkContainer(TOKEN, 'ACTIVE!1?x=1')).rejects.toMatchObject({ status: 404 });
    await expect(client.browse(TOKEN, matterId(), { token: 'bm90IG91cnM', limit: 1 })).rejects.toMatchObject({
      status: 400,
    });
    await expect(client.changes(TOKEN, matterId(), { page: 'bm90IG91cnM' }, 10)).rejects.toMatchObject({
      status: 400,
    });
    expect(apiSeen).toEqual([]);
  });
});
