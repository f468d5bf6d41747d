// The iManage client against a hostile iManage server: the iManage fake behind a proxy that turns its
// answers against us (discovery naming another API host or a customer id that is a path, a download
// redirected to an internal address, profiles whose ids or URLs point elsewhere, an answer that never
// ends). The client is the production one over real HTTP with production's address guard; the server
// (the proxy, on 127.0.0.1) is trusted as configuration, so "internal" is another loopback port or the
// metadata address. What must hold: our access token (in X-Auth-Token) reaches nothing but the server, nothing internal
// receives a request, no value iManage answers chooses a URL, and the call fails with a reason.
import type { UrlGuard } from '../../functions/connectors/infra/content';
import { ProviderApiError } from '../../functions/connectors/infra/content';
import { ImanageApi } from '../../functions/connectors/providers/imanage/client';
import { definition } from '../../functions/connectors/providers/imanage/definition';
import { ManualClock } from '../../functions/platform/clock';
import { textContent } from '../../sandbox/content/tree';
import type { FolderNode } from '../../sandbox/content/tree';
import { imanageFake } from '../../sandbox/providers/imanage';
import { imanageIds } from '../../sandbox/providers/imanage/work';
import { changesPass, drain } from '../support/content-walk';
import type { FakeHarness } from '../support/fake-harness';
import { startFakeHarness } from '../support/fake-harness';
import type { HostileProxy, Rule } from '../support/hostile-proxy';
import { startHostileProxy } from '../support/hostile-proxy';

const TOKEN = 'tok-imanage-hostile';
/** A token discovery has not answered for yet (a container keeps an answer per server and token). */
const UNDISCOVERED = 'tok-imanage-hostile-undiscovered';
const ACCOUNT = 'acct-imanage-hostile';
const SERVER = 'work.firm.example';
/** Production's guard: no loopback, private, link-local or metadata address. */
const PRODUCTION: UrlGuard = { allowLoopback: false };
const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));

let fake: FakeHarness;
let hostile: HostileProxy;

beforeAll(async () => {
  fake = await startFakeHarness(imanageFake, clock);
  fake.grant(TOKEN, ACCOUNT, ['user']);
  fake.grant(UNDISCOVERED, ACCOUNT, ['user']);
  hostile = await startHostileProxy(fake.base, 'data');
});

afterAll(async () => {
  await hostile.close();
  await fake.close();
});

beforeEach(() => hostile.reset());

const api = (guard: UrlGuard = PRODUCTION) =>
  new ImanageApi({
    apiUrl: `${hostile.base}/imanage/${SERVER}`,
    accessTokenHeader: definition.accessTokenHeader,
    guard,
  });

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
  expect(hostile.internalSeen).toEqual([]);
  for (const seen of hostile.apiSeen) {
    expect([TOKEN, UNDISCOVERED]).toContain(seen.headers['x-auth-token']);
    expect(seen.headers.authorization).toBeUndefined();
  }
});

describe('the iManage client against a hostile iManage', () => {
  it("takes no API host from discovery: its own server's, whatever `versions[].url` names", async () => {
    hostile.rule = rewrite((text) =>
      text.replace(/"url":"[^"]*"/g, `"url":"${hostile.internalUrl}/work/api/v2"`),
    );
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
    hostile.rule = rewrite((text, path) =>
      path.endsWith('/api') ? text.replace(/"customer_id":\d+/, '"customer_id":"1/../../../x"') : text,
    );
    const failure = await failureOf(api().browse(UNDISCOVERED, matterId(), { limit: 10 }));
    expect(failure.providerError).toBe('no_customer_id');
    expect(hostile.apiSeen.map((seen) => seen.url.split('?')[0])).toEqual([`/imanage/${SERVER}/api`]);
  });

  it('follows no download redirect, to an internal address or elsewhere', async () => {
    for (const target of [`${hostile.internalUrl}/steal`, 'http://169.254.169.254/latest/meta-data/']) {
      hostile.rule = (path, answer) =>
        path.includes('/download')
          ? { status: 302, headers: { location: target }, body: Buffer.alloc(0) }
          : answer;
      const failure = await failureOf(api().download(TOKEN, documentId));
      expect(failure.status).toBe(302);
    }
  });

  it('drops listed ids that are not iManage ids, and never requests a profile URL', async () => {
    hostile.rule = rewrite((text) =>
      text
        .replace(/"id":"ACTIVE!(\d+)\.(\d+)"/g, '"id":"ACTIVE!$1.$2/../../../x"')
        .replace(
          /"(document_url|folder_url|workspace_url)":"[^"]*"/g,
          `"$1":"${hostile.internalUrl}/profile"`,
        ),
    );
    const pass = await changesPass(api(), TOKEN, matterId(), undefined, 10);
    expect(pass.files).toEqual([]);
    hostile.rule = undefined;
    const clean = await changesPass(api(), TOKEN, matterId(), undefined, 10);
    expect(clean.files.map((f) => f.id)).toEqual([documentId]);
    expect((await drain((await api().download(TOKEN, documentId)).body)).toString()).toBe('secret');
  });

  it('refuses an answer that never ends, within its size limit', async () => {
    hostile.rule = (path, answer) => (path.includes('/children') ? 'endless' : answer);
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
    expect(hostile.apiSeen).toEqual([]);
  });
});
