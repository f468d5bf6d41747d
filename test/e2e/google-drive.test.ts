// Google Drive end to end over HTTP against `npm start`'s server, whose google_drive provider points at
// the Drive fake (sandbox/providers/google_drive/): connect with Google's offline parameters, browse
// My Drive, import a folder's subtree, an incremental run after a change and a move out, and an
// export landing in a Drive folder without touching a file of the user's of the same name.
import { createHash } from 'node:crypto';
import type { RunningServer } from '../support/local-server';
import { api, startLocalServer } from '../support/local-server';
import { connectThroughSandbox } from '../support/connect';
import { until } from '../support/until';

let server: RunningServer;
let call: ReturnType<typeof api>;
let sandboxUrl = '';
const ACCOUNT = 'acct-gdrive-e2e';
const VAULT = 'vlt_gdrive';

interface Source {
  id: string;
  name: string;
  kind: 'container' | 'file';
}
interface Job {
  id: string;
  status: 'processing' | 'succeeded' | 'failed';
  counts: Record<string, number>;
}
interface SandboxFile {
  id: string;
  name: string;
  sha256: string;
}

beforeAll(async () => {
  server = await startLocalServer({ LOCAL_SYNC_SWEEP_INTERVAL_MS: '0', LOCAL_TOKEN_SWEEP_INTERVAL_MS: '0' });
  call = api(server);
});
afterAll(() => server?.stop());

async function json<T>(path: string, init?: RequestInit & { expect?: number }): Promise<T> {
  const response = await call(path, init);
  const body = response.status === 204 ? undefined : await response.json();
  expect({ path, status: response.status, body }).toMatchObject({ path, status: init?.expect ?? 200 });
  return body as T;
}

async function sandbox<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${sandboxUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status).toBeLessThan(300);
  return (await response.json()) as T;
}

const files = (container: string) =>
  sandbox<{ files: SandboxFile[] }>(
    `/__sandbox/files?provider=google_drive&account_id=${ACCOUNT}&container_id=${encodeURIComponent(container)}`,
  ).then((r) => r.files);

async function run(linkId: string): Promise<Job> {
  const started = await json<{ id: string }>(`/connectors/v1/links/${linkId}/runs`, {
    method: 'POST',
    expect: 202,
  });
  let job: Job | undefined;
  await until(`run ${started.id}`, async () => {
    job = await json<Job>(`/connectors/jobs/${started.id}`);
    return job.status === 'processing' ? undefined : true;
  });
  return job!;
}

describe('Google Drive through the service', () => {
  let connectionId: string;
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
    const connected = await connectThroughSandbox(call, {
      provider: 'google_drive',
      account: ACCOUNT,
      scopeTier: 'import_export',
    });
    connectionId = connected.connectionId;
    sandboxUrl = connected.sandboxUrl;
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
    const first = await run(linkId);
    expect(first).toMatchObject({ status: 'succeeded' });
    expect(first.counts.imported).toBeGreaterThanOrEqual(4); // the folder's file and its subfolders'

    const direct = await files(clients.id);
    await sandbox('/__sandbox/files', {
      provider: 'google_drive',
      account_id: ACCOUNT,
      container_id: clients.id,
      name: direct[0]!.name,
      content: 'changed in Drive',
    });
    const second = await run(linkId);
    expect(second).toMatchObject({ status: 'succeeded' });
    expect(second.counts.imported ?? 0).toBe(0);
    expect(second.counts.updated).toBe(1);
  });

  it('exports to a Drive folder, leaving a file of the user’s of the same name as it was', async () => {
    const documents = (
      await json<{ data: { document_id: string; source: { name: string } }[] }>(
        `/connectors/v1/links/${linkId}/documents?limit=200`,
      )
    ).data;
    const name = documents[0]!.source.name;
    await sandbox('/__sandbox/files', {
      provider: 'google_drive',
      account_id: ACCOUNT,
      container_id: templates.id,
      name,
      content: 'the user wrote this',
    });
    const started = await json<{ id: string }>(`/connectors/v1/connections/${connectionId}/exports`, {
      method: 'POST',
      body: JSON.stringify({
        vault_id: VAULT,
        document_ids: documents.map((d) => d.document_id),
        destination: { id: templates.id },
      }),
      expect: 202,
    });
    let job: Job | undefined;
    await until('export', async () => {
      job = await json<Job>(`/connectors/jobs/${started.id}`);
      return job.status === 'processing' ? undefined : true;
    });
    expect(job).toMatchObject({ status: 'succeeded', counts: { exported: documents.length, failed: 0 } });
    const landed = await files(templates.id);
    const mine = landed.find((f) => f.name === name)!;
    expect(mine.sha256).toBe(createHash('sha256').update('the user wrote this').digest('hex'));
    expect(landed.filter((f) => f.name.startsWith(name.replace(/\.[^.]+$/, ''))).length).toBe(2);
  });
});
