// The NetDocuments client against a hostile NetDocuments: the fake behind a proxy that turns its answers
// against us (a download answered with a redirect to an internal address, a listing whose skiptoken is
// not a plain token, an answer that never ends). The client is the production one over real HTTP with
// production's address guard; the API's own origin (the proxy, on 127.0.0.1) is trusted as
// configuration, so "internal" is another loopback port or the metadata address. NetDocuments' API hands
// back no URL of its own: the client follows no redirect at all, so what must hold is that our bearer
// token reaches nothing but the API's origin, nothing internal receives a request, and the call fails
// with a reason that says which rule refused it.
import type { UrlGuard } from '../../functions/connectors/infra/content';
import { ProviderApiError } from '../../functions/connectors/infra/content';
import { NetDocumentsApi } from '../../functions/connectors/providers/netdocuments/client';
import { ManualClock } from '../../functions/platform/clock';
import { textContent } from '../../sandbox/content/tree';
import { netdocumentsFake } from '../../sandbox/providers/netdocuments';
import { cabinetId, ndIds } from '../../sandbox/providers/netdocuments/documents';
import type { FakeHarness } from '../support/fake-harness';
import { startFakeHarness } from '../support/fake-harness';
import type { HostileProxy, Seen } from '../support/hostile-proxy';
import { startHostileProxy } from '../support/hostile-proxy';

const TOKEN = 'tok-nd-hostile';
const ACCOUNT = 'acct-nd-hostile';
/** Production's guard: no loopback, private, link-local or metadata address. */
const PRODUCTION: UrlGuard = { allowLoopback: false };

let fake: FakeHarness;
let hostile: HostileProxy;
let proxyBase = '';
let internalUrl = '';
let apiSeen: Seen[] = [];
let internalSeen: Seen[] = [];

beforeAll(async () => {
  fake = await startFakeHarness(netdocumentsFake, new ManualClock(Date.parse('2030-01-01T00:00:00Z')));
  fake.grant(TOKEN, ACCOUNT, ['read', 'edit']);
  hostile = await startHostileProxy(fake.base, 'Results');
  ({ base: proxyBase, internalUrl, apiSeen, internalSeen } = hostile);
});

afterAll(async () => {
  await hostile.close();
  await fake.close();
});

beforeEach(() => hostile.reset());

const api = (guard: UrlGuard) => new NetDocumentsApi({ apiUrl: `${proxyBase}/netdocuments/us`, guard });

const failureOf = async (work: Promise<unknown>): Promise<ProviderApiError> => {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderApiError);
  return error as ProviderApiError;
};

function aDocument(name: string): string {
  const tree = fake.tree(ACCOUNT);
  const { file } = tree.putFile(tree.root, name, { contentType: 'text/plain', content: textContent(name) });
  return ndIds.providerId(tree, file);
}

describe('the NetDocuments client against a hostile NetDocuments', () => {
  it('follows no redirect of a download, to an internal address or anywhere, and sends no token there', async () => {
    const id = aDocument('secret.txt');
    for (const target of [
      `${internalUrl}/steal`,
      'http://169.254.169.254/latest/meta-data/',
      `${proxyBase}/x`,
    ]) {
      hostile.rule = (path, answer) =>
        /\/v1\/Document\/[\d-]+$/.test(path.split('?')[0]!)
          ? { status: 302, headers: { location: target }, body: Buffer.alloc(0) }
          : answer;
      const failure = await failureOf(api(PRODUCTION).download(TOKEN, id));
      expect(failure.status).toBe(302);
    }
    expect(internalSeen).toEqual([]);
    expect(apiSeen.every((seen) => seen.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('refuses a skiptoken that is not a plain token instead of putting it into a URL', async () => {
    hostile.rule = (path, answer) => {
      if (!path.startsWith('/netdocuments/us/v2/container/')) return answer;
      const list = JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>;
      return {
        ...answer,
        body: Buffer.from(JSON.stringify({ ...list, SkipToken: `x&top=1#${internalUrl}` })),
      };
    };
    aDocument('a.txt');
    const failure = await failureOf(api(PRODUCTION).browse(TOKEN, cabinetId(ACCOUNT), { limit: 1 }));
    expect(failure.providerError).toBe('invalid_skiptoken');
    expect(internalSeen).toEqual([]);
  });

  it('refuses an answer that never ends, within its size limit', async () => {
    hostile.rule = (path, answer) => (path.includes('/v2/container/') ? 'endless' : answer);
    const failure = await failureOf(api(PRODUCTION).browse(TOKEN, cabinetId(ACCOUNT), { limit: 10 }));
    expect(failure.providerError).toBe('response_too_large');
  });

  it("never puts an id or a page token that is not NetDocuments' into a URL", async () => {
    const client = api(PRODUCTION);
    await expect(client.download(TOKEN, '../../v1/OAuth')).rejects.toMatchObject({ status: 404 });
    await expect(client.checkContainer(TOKEN, 'NG-../../x')).rejects.toMatchObject({ status: 404 });
    await expect(
      client.browse(TOKEN, cabinetId(ACCOUNT), { token: '../x?y', limit: 1 }),
    ).rejects.toMatchObject({
      status: 400,
    });
    await expect(
      client.changes(TOKEN, cabinetId(ACCOUNT), { page: 'bm90IG91cnM' }, 10),
    ).rejects.toMatchObject({
      status: 400,
    });
    expect(apiSeen).toEqual([]);
  });
});
