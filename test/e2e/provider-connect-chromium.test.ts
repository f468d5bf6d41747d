// Each real provider of the module list (functions/connectors/providers/index.ts) connect -> import -> export with a person
// in Chromium, on both runtimes: under test/e2e/ the `e2e` project runs it against the local
// runtime and `e2e-aws` against the emulated AWS runtime. The customer's server creates the connection
// over the API; the person opens connect_url, continues, approves on the provider fake's consent page
// and lands on return_url with the connection's id. Then the connection is healthy, an import link
// brings the fake's files into a vault byte for byte, a change at the provider (a new file, a changed
// one, a deletion) is what the next run picks up, and an exported document is read back at the fake.
// One flow per provider and one server and browser for the file keep the added CI time small.
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../browser/browser-support';
import type { LinkDocument, SandboxFile } from '../support/provider-e2e';
import { ProviderSandbox, providerE2e } from '../support/provider-e2e';
import { externalAccountId } from '../../sandbox';
import { PROVIDER_MODULES } from '../../functions/connectors/providers';

const e2e = providerE2e();
const { json } = e2e;
const RETURN_URL = 'https://app.example.com/connected';

let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ browser, page } = await launchBrowser());
  // The customer's app behind return_url: a page of its own, served here (the test has no network).
  await page.route(`${new URL(RETURN_URL).origin}/**`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>App</title><h1>Back in the app</h1>',
    }),
  );
}, 60_000);
afterAll(() => browser?.close());

interface Source {
  id: string;
  name: string;
  kind: 'container' | 'file';
}

const sources = async (connectionId: string, parent?: string) =>
  (
    await json<{ data: Source[] }>(
      `/connectors/v1/connections/${connectionId}/sources?limit=200${parent ? `&parent=${encodeURIComponent(parent)}` : ''}`,
    )
  ).data;

/** Where a provider's seeded account keeps the folders the flow imports from and exports to. */
async function folders(provider: string, connectionId: string): Promise<{ from: Source; to: Source }> {
  const top = (await sources(connectionId)).filter((s) => s.kind === 'container');
  if (provider === 'clio') return { from: top[0]!, to: top[1]! }; // two matters
  // A drive's seeded Clients and Templates folders: at the top, or in the first drive (My Drive, OneDrive).
  const named = (level: Source[], name: string) =>
    level.find((s) => s.name === name && s.kind === 'container');
  const level = named(top, 'Clients') ? top : await sources(connectionId, top[0]!.id);
  return { from: named(level, 'Clients')!, to: named(level, 'Templates')! };
}

/** The connect flow as a person does it in Chromium, from connect_url to the app's return_url. */
async function connectInChromium(
  provider: string,
  account: string,
  scopeTier?: string,
  params?: Record<string, string>,
) {
  const created = await json<{ connection_id: string; connect_url: string }>('/connectors/v1/connections', {
    method: 'POST',
    body: JSON.stringify({
      provider,
      return_url: RETURN_URL,
      ...(scopeTier ? { scope_tier: scopeTier } : {}),
      ...(params ? { params } : {}),
    }),
    expect: 201,
  });
  await page.goto(created.connect_url);
  await page.getByRole('button', { name: 'Continue' }).click();
  // The provider fake's consent page, on the sandbox's origin.
  await page.getByRole('button', { name: 'Approve' }).waitFor();
  expect(new URL(page.url()).origin).not.toBe(new URL(e2e.server.baseUrl).origin);
  await page.getByLabel('Account id').fill(account);
  await page.getByLabel('Display name').fill(`Person at ${provider}`);
  const sandboxUrl = new URL(page.url()).origin;
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.getByRole('heading', { name: 'Back in the app' }).waitFor({ timeout: 30_000 });
  const back = new URL(page.url());
  expect(`${back.origin}${back.pathname}`).toBe(RETURN_URL);
  expect(back.searchParams.get('connection_id')).toBe(created.connection_id);
  return { connectionId: created.connection_id, sandboxUrl };
}

/**
 * Every real provider of the module list, connected at the tier that asks for its write scopes (an
 * export needs them), or its default tier when it has none (Clio's come with the app's registration).
 */
const CONNECTS = PROVIDER_MODULES.filter((module) => !('sandbox' in module)).map(({ definition }) => {
  const writing = Object.entries(definition.scopeTiers).find(
    ([, tier]) =>
      definition.writeScopes.length > 0 &&
      definition.writeScopes.every((scope) => tier.scopes.includes(scope)),
  );
  // A server param is given its example (a customer's own server, not the default one).
  const hosts = Object.entries(definition.params ?? {}).filter(([, spec]) => spec.kind === 'host');
  const params = hosts.length
    ? Object.fromEntries(hosts.map(([name, spec]) => [name, spec.kind === 'host' ? spec.example : '']))
    : undefined;
  return [definition.id, writing?.[0], params] as const;
});

/** Providers whose changes feed (a search by modification date) lists no deletion: the reconcile's. */
const FEED_WITHOUT_DELETIONS: readonly string[] = ['imanage'];

describe.each(CONNECTS)('%s in Chromium', (provider, tier, params) => {
  const account = `acct-chromium-${provider.replace('_', '-')}`;
  const vault = `vlt_chromium_${provider}`;

  it('connects, imports in full and then incrementally with a deletion, and exports', async () => {
    const { connectionId, sandboxUrl } = await connectInChromium(provider, account, tier, params);
    const sandbox = new ProviderSandbox(sandboxUrl, provider, account);
    const connection = await json<{ status: string; provider: string; account: { external_id: string } }>(
      `/connectors/v1/connections/${connectionId}`,
    );
    expect(connection).toMatchObject({
      status: 'healthy',
      provider,
      account: { external_id: externalAccountId(provider, account) },
      // The server given is kept with the connection, and the grant is that server's at the fake.
      ...(params ? { params } : {}),
    });

    // Full import: every document's bytes are the provider's file's.
    const { from, to } = await folders(provider, connectionId);
    for (const name of ['chromium-a.txt', 'chromium-b.txt'])
      await sandbox.write(from.id, name, `${name} at ${provider}`);
    const link = await json<{ id: string }>(`/connectors/v1/connections/${connectionId}/links`, {
      method: 'POST',
      body: JSON.stringify({ vault_id: vault, source: { id: from.id, name: from.name } }),
      expect: 201,
    });
    // The folder's whole subtree (a drive folder's link takes its subfolders too), by the path of a
    // file of its own (a matter's name at Clio is not its folder's).
    const all = await sandbox.files();
    const own = all.find((f) => f.container_id === from.id)!.path;
    const prefix = own.slice(0, own.lastIndexOf('/') + 1);
    const subtree = async () => (await sandbox.files()).filter((f) => f.path.startsWith(prefix));
    const first = await e2e.run(link.id);
    const atProvider = await subtree();
    expect(first).toMatchObject({ status: 'succeeded', counts: { imported: atProvider.length, failed: 0 } });
    await expectSameBytes(vault, await e2e.documents(link.id), atProvider);

    // A change at the provider: the next run takes exactly that, the deletion included (or, where the
    // feed lists no deletion, the link's reconcile, a full run).
    const [changed, deleted] = atProvider.filter((f) => f.name.startsWith('chromium-'));
    await sandbox.write(from.id, 'chromium-new.txt', `new at ${provider}`);
    await sandbox.write(from.id, changed!.name, `changed at ${provider}`);
    await sandbox.remove(deleted!.id);
    const second = await e2e.run(link.id);
    expect(second).toMatchObject({ status: 'succeeded', counts: { imported: 1, updated: 1, failed: 0 } });
    if (FEED_WITHOUT_DELETIONS.includes(provider))
      expect(await e2e.run(link.id, 'full')).toMatchObject({ status: 'succeeded', counts: { failed: 0 } });
    const documents = await e2e.documents(link.id);
    expect(documents.find((d) => d.source.id === deleted!.id)?.status).toBe('deleted_at_source');
    const live = documents.filter((d) => d.status !== 'deleted_at_source');
    await expectSameBytes(vault, live, await subtree());

    // Export: the new document lands in the other folder, read back at the fake with its bytes.
    const exported = live.find((d) => d.source.name === 'chromium-new.txt')!;
    const started = await json<{ id: string }>(`/connectors/v1/connections/${connectionId}/exports`, {
      method: 'POST',
      body: JSON.stringify({
        vault_id: vault,
        document_ids: [exported.document_id],
        destination: { id: to.id },
      }),
      expect: 202,
    });
    expect(await e2e.settled(started.id)).toMatchObject({
      status: 'succeeded',
      counts: { exported: 1, failed: 0 },
    });
    const landed = (await sandbox.files(to.id)).filter((f) => f.name === 'chromium-new.txt');
    expect(landed.map((f) => f.sha256)).toEqual([await e2e.vaultSha256(vault, exported.document_id)]);
  }, 180_000);
});

/** Each document's vault bytes hash as its provider file does, and every provider file has a document. */
async function expectSameBytes(
  vault: string,
  documents: LinkDocument[],
  files: SandboxFile[],
): Promise<void> {
  const byId = new Map(files.map((f) => [f.id, f.sha256]));
  const held = await Promise.all(
    documents.map(async (d) => [d.source.id, await e2e.vaultSha256(vault, d.document_id)] as const),
  );
  expect(new Map(held)).toEqual(byId);
}
