// Clio and Dropbox end to end over HTTP against `npm start`'s server, which points both at their fakes
// in the sandbox: connect, browse, import a matter or folder in full, import again after a change, a new
// file and a deletion at the provider, export documents back, and a throttle the run waits out.
import type { ProviderSandbox } from '../support/provider-e2e';
import { providerE2e } from '../support/provider-e2e';

const e2e = providerE2e();
const { json } = e2e;

describe.each([
  ['clio', undefined],
  ['dropbox', 'import_export'],
] as const)('%s', (provider, tier) => {
  const account = `acct-e2e-${provider}`;
  const vault = `vlt_${provider}`;
  let connectionId: string;
  let sandbox: ProviderSandbox;
  let container: { id: string; name: string };
  let linkId: string;

  const files = () => sandbox.files(container.id);

  it('connects, browses and imports a container in full', async () => {
    ({ connectionId, sandbox } = await e2e.connect(provider, account, tier));
    const top = await json<{ data: { id: string; name: string; kind: string }[] }>(
      `/connectors/v1/connections/${connectionId}/sources`,
    );
    container = top.data.find((s) => s.kind === 'container')!;
    expect(container).toBeDefined();
    const link = await json<{ id: string }>(`/connectors/v1/connections/${connectionId}/links`, {
      method: 'POST',
      body: JSON.stringify({ vault_id: vault, source: { id: container.id, name: container.name } }),
      expect: 201,
    });
    linkId = link.id;
    // Two files of the container's own at least (a seeded folder may hold its files in subfolders).
    for (const name of ['e2e-a.txt', 'e2e-b.txt'])
      await sandbox.write(container.id, name, `${name} at the provider`);
    const job = await e2e.run(linkId);
    const there = await files();
    expect(there.length).toBeGreaterThan(0);
    expect(job).toMatchObject({ status: 'succeeded', counts: { failed: 0 } });
    // A Dropbox link takes the folder's whole subtree; the hook lists the folder's own files.
    expect(job.counts.imported).toBeGreaterThanOrEqual(there.length);
  });

  it('imports again only what changed: a new file, a changed one, a deletion', async () => {
    const [changed, deleted] = await files();
    await sandbox.write(container.id, 'e2e-new.txt', 'new at the provider');
    await sandbox.write(container.id, changed!.name, 'changed at the provider');
    await sandbox.remove(deleted!.id);
    const job = await e2e.run(linkId);
    expect(job).toMatchObject({ status: 'succeeded', counts: { imported: 1, updated: 1, failed: 0 } });
    const documents = await e2e.documents(linkId);
    expect(documents.find((d) => d.source.id === deleted!.id)?.status).toBe('deleted_at_source');
  });

  it('waits out a throttle and finishes', async () => {
    await sandbox.failNext(429, 1);
    const job = await e2e.run(linkId);
    expect(job.status).toBe('succeeded');
    // The 429 throttled the connection (until its Retry-After), and the run resumed after it.
    const connection = await json<{ status: string; status_history: { status: string }[] }>(
      `/connectors/v1/connections/${connectionId}`,
    );
    expect(connection.status_history.map((h) => h.status)).toContain('throttled');
    expect(connection.status).toBe('healthy');
  });

  it('exports documents back into the container without replacing anything there', async () => {
    const documents = (await e2e.documents(linkId)).filter((d) => d.status !== 'deleted_at_source');
    const before = await files();
    const started = await json<{ id: string }>(`/connectors/v1/connections/${connectionId}/exports`, {
      method: 'POST',
      body: JSON.stringify({
        vault_id: vault,
        document_ids: documents.slice(0, 2).map((d) => d.document_id),
        destination: { id: container.id },
      }),
      expect: 202,
    });
    const job = await e2e.settled(started.id);
    expect(job).toMatchObject({ status: 'succeeded' });
    const after = await files();
    // Nothing that was there changed; what was exported is either the same bytes (no new file) or new.
    for (const file of before) expect(after.find((f) => f.id === file.id)?.sha256).toBe(file.sha256);
  });
});
