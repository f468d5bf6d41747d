// The Box client against a hostile Box: the Box fake behind a proxy that turns its answers against us
// (the content's 302 to an internal address, an upload session whose endpoints name another host, an
// answer that never ends). The client is the production one over real HTTP with production's address
// guard; the API's own origin (the proxy, on 127.0.0.1) is trusted as configuration, so "internal" is
// another loopback port or the metadata address. What must hold: our bearer token reaches nothing but
// the API's origin, nothing internal receives a request, and the call fails with a reason that says
// which rule refused it. (The shared hostile suite takes Box once the module list holds it.)
import type { UrlGuard } from '../../functions/connectors/infra/content';
import { ProviderApiError } from '../../functions/connectors/infra/content';
import { BoxApi } from '../../functions/connectors/providers/box/client';
import { ManualClock } from '../../functions/platform/clock';
import { textContent } from '../../sandbox/content/tree';
import { boxFake } from '../../sandbox/providers/box';
import { BOX_SESSION_MIN_BYTES, boxIds } from '../../sandbox/providers/box/files';
import { drain, uploadOf } from '../support/content-walk';
import type { FakeHarness } from '../support/fake-harness';
import { startFakeHarness } from '../support/fake-harness';
import type { HostileProxy, Rule } from '../support/hostile-proxy';
import { startHostileProxy } from '../support/hostile-proxy';

const TOKEN = 'tok-box-hostile';
const ACCOUNT = 'acct-box-hostile';
/** Production's guard: no loopback, private, link-local or metadata address. */
const PRODUCTION: UrlGuard = { allowLoopback: false };
const DEVELOPMENT: UrlGuard = { allowLoopback: true };

let fake: FakeHarness;
let hostile: HostileProxy;

beforeAll(async () => {
  fake = await startFakeHarness(boxFake, new ManualClock(Date.parse('2030-01-01T00:00:00Z')));
  fake.grant(TOKEN, ACCOUNT, ['root_readwrite']);
  hostile = await startHostileProxy(fake.base, 'entries');
});

afterAll(async () => {
  await hostile.close();
  await fake.close();
});

beforeEach(() => hostile.reset());

const api = (guard: UrlGuard) =>
  new BoxApi({
    apiUrl: `${hostile.base}/box/2.0`,
    uploadUrl: `${hostile.base}/box/upload/api/2.0`,
    singleUploadMax: BOX_SESSION_MIN_BYTES,
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

function aFile(name: string): string {
  const tree = fake.tree(ACCOUNT);
  const { file } = tree.putFile(tree.root, name, { contentType: 'text/plain', content: textContent(name) });
  return boxIds.providerId(tree, file);
}

/** The content's 302 pointed at `target` instead of the download host. */
const redirectTo =
  (target: string): Rule =>
  (path, answer) =>
    /\/files\/\d+\/content$/.test(path) && answer.status === 302
      ? { ...answer, headers: { ...answer.headers, location: target } }
      : answer;

describe('the Box client against a hostile Box', () => {
  it('follows no download redirect to an internal address, and sends no token there', async () => {
    const id = aFile('secret.txt');
    for (const target of [`${hostile.internalUrl}/steal`, 'http://169.254.169.254/latest/meta-data/']) {
      hostile.rule = redirectTo(target);
      const failure = await failureOf(api(PRODUCTION).download(TOKEN, id));
      expect(failure.providerError).toBe('blocked_address');
    }
    expect(hostile.internalSeen).toEqual([]);
    expect(hostile.apiSeen.every((seen) => seen.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('outside production, reaches a loopback redirect without our token', async () => {
    const id = aFile('loopback.txt');
    hostile.rule = redirectTo(`${hostile.internalUrl}/pre-signed`);
    const download = await api(DEVELOPMENT).download(TOKEN, id);
    expect((await drain(download.body)).toString()).toBe('internal');
    expect(hostile.internalSeen).toHaveLength(1);
    expect(hostile.internalSeen[0]!.headers.authorization).toBeUndefined();
  });

  it('sends parts and the commit to the upload host it was configured with, whatever session_endpoints name', async () => {
    hostile.rule = (path, answer) => {
      if (!path.endsWith('/upload_sessions') || answer.status !== 201) return answer;
      const session = JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>;
      const elsewhere = `${hostile.internalUrl}/upload`;
      session.session_endpoints = {
        upload_part: elsewhere,
        commit: elsewhere,
        abort: elsewhere,
        list_parts: elsewhere,
        status: elsewhere,
        log_event: elsewhere,
      };
      return { ...answer, body: Buffer.from(JSON.stringify(session)) };
    };
    const bytes = Buffer.alloc(BOX_SESSION_MIN_BYTES + 10, 3);
    const made = await api(DEVELOPMENT).upload(TOKEN, '0', uploadOf('large.bin', bytes, 'k1'));
    expect(made.name).toBe('large.bin');
    expect(hostile.internalSeen).toEqual([]);
    expect(hostile.apiSeen.filter((seen) => seen.method === 'PUT')).toHaveLength(3);
  });

  it('refuses an answer that never ends, within its size limit', async () => {
    hostile.rule = (path, answer) => (/\/folders\/0\/items/.test(path) ? 'endless' : answer);
    const failure = await failureOf(api(PRODUCTION).browse(TOKEN, '0', { limit: 10 }));
    expect(failure.providerError).toBe('response_too_large');
  });

  it("never puts an id or a page token that is not Box's into a URL", async () => {
    const client = api(PRODUCTION);
    await expect(client.download(TOKEN, '../../oauth2/revoke')).rejects.toMatchObject({ status: 404 });
    await expect(client.browse(TOKEN, '0', { token: '0:../x?y', limit: 1 })).rejects.toMatchObject({
      status: 400,
    });
    await expect(client.changes(TOKEN, '0', { page: 'bm90IG91cnM' }, 10)).rejects.toMatchObject({
      status: 400,
    });
    expect(hostile.apiSeen).toEqual([]);
  });
});
