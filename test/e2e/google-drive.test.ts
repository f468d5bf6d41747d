// Google Drive end to end over HTTP against `npm start`'s server, whose google_drive provider points at
// the Drive fake (sandbox/providers/google_drive/): connect with Google's offline parameters, browse
// My Drive, import a folder's subtree, an incremental run after a change and a move out, throttling
// waited out (Google's 403 userRateLimitExceeded and a 429), and an export landing in a Drive folder without touching a file of the user's of the same name.
import type { ProviderSandbox } from '../support/provider-e2e';
import { providerE2e, sha256 } from '../support/provider-e2e';

const e2e = providerE2e();
const { json } = e2e;
const ACCOUNT = 'acct-gdrive-e2e';
const VAULT = 'vlt_gdrive';

interface Source {
  id: string;
  name: string;
  kind: 'container' | 'file';
}

describe('Google Drive through the service', () => {
  let connectionId: string;
  let sandbox: ProviderSandbox;
  let clients: Source;
  let templates: Source;
  let linkId: string;

  it('is listed locally and connects through the fake', async () => {
    const providers = await json<{ data: { id: string; display_name: string }[] }>(
      '/connectors/v1/providers',
    );
    expect(providers.data.map((p) => p.id)).toEqual(
      expect.arrayContaining(['practice', 'drive', 'clio', 'google_drive', 'onedrive', 'dropbox']),
    );
    ({ connectionId, sandbox } = await e2e.connect('google_drive', ACCOUNT, 'import_export'));
    const connection = await json<{ status: string; account: { external_id: string } }>(
      `/connectors/v1/connections/${connectionId}`,
    );
    expect(connection).toMatchObject({ status: 'healthy', account: { external_id: ACCOUNT } });
  });

  it('browses My Drive and imports a folder with its subfolders, then only what changed', async () => {
    const top = await json<{ data: Source[] }>(`/connectors/v1/connections/${connectionId}/sources`);
    expect(top.data[0]).toMatchObject({ id: 'root', name: 'My Drive', kind: 'container' });
    const mine = await json<{ data: Source[] }>(
      `/connectors/v1/connections/${connectionId}/sources?parent=root`,
    );
    clients = mine.data.find((s) => s.name === 'Clients')!;
    templates = mine.data.find((s) => s.name === 'Templates')!;
    const link = await json<{ id: string }>(`/connectors/v1/connections/${connectionId}/links`, {
      method: 'POST',
      body: JSON.stringify({ vault_id: VAULT, source: { id: clients.id } }),
      expect: 201,
    });
    linkId = link.id;
    const first = await e2e.run(linkId);
    expect(first).toMatchObject({ status: 'succeeded' });
    expect(first.counts.imported).toBeGreaterThanOrEqual(4); // the folder's file and its subfolders'

    const direct = await sandbox.files(clients.id);
    await sandbox.write(clients.id, direct[0]!.name, 'changed in Drive');
    const second = await e2e.run(linkId);
    expect(second).toMatchObject({ status: 'succeeded' });
    expect(second.counts.imported ?? 0).toBe(0);
    expect(second.counts.updated).toBe(1);
  });

  it("waits out Google's 403 userRateLimitExceeded and a 429 with Retry-After and finishes", async () => {
    for (const status of [403, 429] as const) {
      await sandbox.failNext(status, 1, status === 403 ? 'userRateLimitExceeded' : undefined);
      const job = await e2e.run(linkId);
      expect(job.status).toBe('succeeded');
    }
    const connection = await json<{ status: string; status_history: { status: string }[] }>(
      `/connectors/v1/connections/${connectionId}`,
    );
    expect(connection.status_history.map((h) => h.status)).toContain('throttled');
    expect(connection.status).toBe('healthy');
  });

  it('exports to a Drive folder, leaving a file of the user’s of the same name as it was', async () => {
    const documents = await e2e.documents(linkId);
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
    const mine = landed.find((f) => f.name === name)!;
    expect(mine.sha256).toBe(sha256('the user wrote this'));
    expect(landed.filter((f) => f.name.startsWith(name.replace(/\.[^.]+$/, ''))).length).toBe(2);
  });
});
