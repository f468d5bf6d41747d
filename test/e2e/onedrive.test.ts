// OneDrive end to end over HTTP against `npm start`'s server (or the emulated AWS runtime), whose
// onedrive provider points at the Graph fake (sandbox/providers/onedrive/): connect with the
// offline_access scope, browse the OneDrive and the SharePoint site, import a folder's subtree through
// Graph's delta, an incremental run after a new file, a change, a deletion and a move out, a 429
// and a 503 waited out, an export that leaves a file of the user’s of the same name as it was, one
// refresh after a 401, and reauth_required once the consent is removed.
import type { ProviderSandbox } from '../support/provider-e2e';
import { providerE2e, sha256 } from '../support/provider-e2e';

const e2e = providerE2e();
const { json } = e2e;
const PROVIDER = 'onedrive';
const ACCOUNT = 'acct-onedrive-e2e';
const VAULT = 'vlt_onedrive';

interface Source {
  id: string;
  name: string;
  kind: 'container' | 'file';
}

describe('OneDrive through the service', () => {
  let connectionId: string;
  let sandbox: ProviderSandbox;
  let clients: Source;
  let templates: Source;
  let linkId: string;

  it('connects through the Graph fake and browses the OneDrive and the SharePoint site', async () => {
    ({ connectionId, sandbox } = await e2e.connect(PROVIDER, ACCOUNT, 'import_export'));
    const connection = await json<{ status: string; account: { external_id: string } }>(
      `/connectors/v1/connections/${connectionId}`,
    );
    expect(connection).toMatchObject({ status: 'healthy', account: { external_id: ACCOUNT } });

    const top = await json<{ data: Source[] }>(`/connectors/v1/connections/${connectionId}/sources`);
    expect(top.data[0]).toMatchObject({ name: 'OneDrive', kind: 'container' });
    const site = top.data.find((s) => s.id.startsWith('site:'))!;
    expect(site).toMatchObject({ name: 'Team Site', kind: 'container' });
    const libraries = await json<{ data: Source[] }>(
      `/connectors/v1/connections/${connectionId}/sources?parent=${encodeURIComponent(site.id)}`,
    );
    expect(libraries.data).toEqual([expect.objectContaining({ name: 'Documents', kind: 'container' })]);

    const mine = await json<{ data: Source[] }>(
      `/connectors/v1/connections/${connectionId}/sources?parent=${encodeURIComponent(top.data[0]!.id)}`,
    );
    clients = mine.data.find((s) => s.name === 'Clients')!;
    templates = mine.data.find((s) => s.name === 'Templates')!;
    expect(clients && templates).toBeTruthy();
  });

  it('imports a folder with its subfolders, then only what changed, deletions and moves out included', async () => {
    const link = await json<{ id: string }>(`/connectors/v1/connections/${connectionId}/links`, {
      method: 'POST',
      body: JSON.stringify({ vault_id: VAULT, source: { id: clients.id, name: clients.name } }),
      expect: 201,
    });
    linkId = link.id;
    for (const name of ['e2e-a.txt', 'e2e-b.txt'])
      await sandbox.write(clients.id, name, `${name} in OneDrive`);
    const first = await e2e.run(linkId);
    expect(first).toMatchObject({ status: 'succeeded', counts: { failed: 0 } });
    expect(first.counts.imported).toBeGreaterThanOrEqual(4); // the folder's files and its subfolders'

    const [changed, deleted, moved] = await sandbox.files(clients.id);
    expect(moved).toBeDefined();
    await sandbox.write(clients.id, 'e2e-new.txt', 'new in OneDrive');
    await sandbox.write(clients.id, changed!.name, 'changed in OneDrive');
    await sandbox.remove(deleted!.id);
    await sandbox.move(moved!.id, templates.id);
    const second = await e2e.run(linkId);
    expect(second).toMatchObject({ status: 'succeeded', counts: { imported: 1, updated: 1, failed: 0 } });
    const documents = await e2e.documents(linkId);
    expect(documents.find((d) => d.source.id === deleted!.id)?.status).toBe('deleted_at_source');
    expect(documents.find((d) => d.source.id === moved!.id)?.status).toBe('deleted_at_source');
  });

  it('waits out a 429 and a 503 with Retry-After and finishes', async () => {
    for (const status of [429, 503] as const) {
      await sandbox.failNext(status, 1);
      const job = await e2e.run(linkId);
      expect(job.status).toBe('succeeded');
    }
    const connection = await json<{ status: string; status_history: { status: string }[] }>(
      `/connectors/v1/connections/${connectionId}`,
    );
    expect(connection.status_history.map((h) => h.status)).toContain('throttled');
    expect(connection.status).toBe('healthy');
  });

  it('exports to a OneDrive folder, leaving a file of the user’s of the same name as it was', async () => {
    const documents = (await e2e.documents(linkId)).filter((d) => d.status !== 'deleted_at_source');
    const name = documents[0]!.source.name;
    await sandbox.write(templates.id, name, 'the user wrote this');
    const started = await json<{ id: string }>(`/connectors/v1/connections/${connectionId}/exports`, {
      method: 'POST',
      body: JSON.stringify({
        vault_id: VAULT,
        document_ids: documents.map((d) => d.document_id),
        destination: { id: templates.id },
      }),
      expect: 202,
    });
    const job = await e2e.settled(started.id);
    expect(job).toMatchObject({ status: 'succeeded', counts: { exported: documents.length, failed: 0 } });
    const landed = await sandbox.files(templates.id);
    expect(landed.find((f) => f.name === name)!.sha256).toBe(sha256('the user wrote this'));
    expect(landed.filter((f) => f.name.startsWith(name.replace(/\.[^.]+$/, ''))).length).toBe(2);
  });

  it('refreshes an expired token once (Microsoft rotates the refresh token), and a removed consent is reauth_required', async () => {
    await sandbox.failNext(401);
    expect(await e2e.run(linkId)).toMatchObject({ status: 'succeeded' });
    await sandbox.hook('/__sandbox/revoke-grants', { provider: PROVIDER, account_id: ACCOUNT });
    expect(await e2e.run(linkId)).toMatchObject({ status: 'failed', reason: 'reauth_required' });
    expect((await json<{ status: string }>(`/connectors/v1/connections/${connectionId}`)).status).toBe(
      'reauth_required',
    );
  });
});
