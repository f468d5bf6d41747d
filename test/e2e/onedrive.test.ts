// OneDrive end to end over HTTP against `npm start`'s server (or the emulated AWS runtime), whose
// onedrive provider points at the Graph fake (sandbox/providers/onedrive/): connect with the
// offline_access scope, browse the OneDrive and the SharePoint site, import a folder's subtree through
// Graph's delta, an incremental run after a new file, a change, a deletion and a move out, a 429
// and a 503 waited out, an export that leaves a file of the user’s of the same name as it was, one
// refresh after a 401, and reauth_required once the consent is removed.
import { createHash } from 'node:crypto';
import type { RunningServer } from '../support/local-server';
import { api, startLocalServer } from '../support/local-server';
import { connectThroughSandbox } from '../support/connect';
import { until } from '../support/until';

let server: RunningServer;
let call: ReturnType<typeof api>;
let sandboxUrl = '';
const PROVIDER = 'onedrive';
const ACCOUNT = 'acct-onedrive-e2e';
const VAULT = 'vlt_onedrive';

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

async function sandbox<T>(
  path: string,
  body?: unknown,
  method = body === undefined ? 'GET' : 'POST',
): Promise<T> {
  const response = await fetch(`${sandboxUrl}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status).toBeLessThan(300);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

const files = (container: string) =>
  sandbox<{ files: SandboxFile[] }>(
    `/__sandbox/files?provider=${PROVIDER}&account_id=${ACCOUNT}&container_id=${encodeURIComponent(container)}`,
  ).then((r) => r.files);

async function settled(jobId: string): Promise<Job> {
  let job: Job | undefined;
  await until(
    `job ${jobId}`,
    async () => {
      job = await json<Job>(`/connectors/jobs/${jobId}`);
      return job.status === 'processing' ? undefined : true;
    },
    60_000,
  );
  return job!;
}

const run = async (linkId: string) =>
  settled(
    (await json<{ id: string }>(`/connectors/v1/links/${linkId}/runs`, { method: 'POST', expect: 202 })).id,
  );

describe('OneDrive through the service', () => {
  let connectionId: string;
  let clients: Source;
  let templates: Source;
  let linkId: string;

  it('connects through the Graph fake and browses the OneDrive and the SharePoint site', async () => {
    const connected = await connectThroughSandbox(call, {
      provider: PROVIDER,
      account: ACCOUNT,
      scopeTier: 'import_export',
    });
    connectionId = connected.connectionId;
    sandboxUrl = connected.sandboxUrl;
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
      await sandbox('/__sandbox/files', {
        provider: PROVIDER,
        account_id: ACCOUNT,
        container_id: clients.id,
        name,
        content: `${name} in OneDrive`,
      });
    const first = await run(linkId);
    expect(first).toMatchObject({ status: 'succeeded', counts: { failed: 0 } });
    expect(first.counts.imported).toBeGreaterThanOrEqual(4); // the folder's files and its subfolders'

    const [changed, deleted, moved] = await files(clients.id);
    expect(moved).toBeDefined();
    await sandbox('/__sandbox/files', {
      provider: PROVIDER,
      account_id: ACCOUNT,
      container_id: clients.id,
      name: 'e2e-new.txt',
      content: 'new in OneDrive',
    });
    await sandbox('/__sandbox/files', {
      provider: PROVIDER,
      account_id: ACCOUNT,
      container_id: clients.id,
      name: changed!.name,
      content: 'changed in OneDrive',
    });
    await sandbox(
      `/__sandbox/files/${PROVIDER}/${ACCOUNT}/${encodeURIComponent(deleted!.id)}`,
      undefined,
      'DELETE',
    );
    await sandbox('/__sandbox/move', {
      provider: PROVIDER,
      account_id: ACCOUNT,
      file_id: moved!.id,
      container_id: templates.id,
    });
    const second = await run(linkId);
    expect(second).toMatchObject({ status: 'succeeded', counts: { imported: 1, updated: 1, failed: 0 } });
    const documents = (
      await json<{ data: { source: { id: string }; status: string }[] }>(
        `/connectors/v1/links/${linkId}/documents?limit=200`,
      )
    ).data;
    expect(documents.find((d) => d.source.id === deleted!.id)?.status).toBe('deleted_at_source');
    expect(documents.find((d) => d.source.id === moved!.id)?.status).toBe('deleted_at_source');
  });

  it('waits out a 429 and a 503 with Retry-After and finishes', async () => {
    for (const status of [429, 503]) {
      await sandbox('/__sandbox/next-api-error', { provider: PROVIDER, status, retry_after: 1 });
      const job = await run(linkId);
      expect(job.status).toBe('succeeded');
    }
    const connection = await json<{ status: string; status_history: { status: string }[] }>(
      `/connectors/v1/connections/${connectionId}`,
    );
    expect(connection.status_history.map((h) => h.status)).toContain('throttled');
    expect(connection.status).toBe('healthy');
  });

  it('exports to a OneDrive folder, leaving a file of the user’s of the same name as it was', async () => {
    const documents = (
      await json<{ data: { document_id: string; status: string; source: { name: string } }[] }>(
        `/connectors/v1/links/${linkId}/documents?limit=200`,
      )
    ).data.filter((d) => d.status !== 'deleted_at_source');
    const name = documents[0]!.source.name;
    await sandbox('/__sandbox/files', {
      provider: PROVIDER,
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
    const job = await settled(started.id);
    expect(job).toMatchObject({ status: 'succeeded', counts: { exported: documents.length, failed: 0 } });
    const landed = await files(templates.id);
    expect(landed.find((f) => f.name === name)!.sha256).toBe(
      createHash('sha256').update('the user wrote this').digest('hex'),
    );
    expect(landed.filter((f) => f.name.startsWith(name.replace(/\.[^.]+$/, ''))).length).toBe(2);
  });

  it('refreshes an expired token once (Microsoft rotates the refresh token), and a removed consent is reauth_required', async () => {
    await sandbox('/__sandbox/next-api-error', { provider: PROVIDER, status: 401 });
    expect(await run(linkId)).toMatchObject({ status: 'succeeded' });
    await sandbox('/__sandbox/revoke-grants', { provider: PROVIDER, account_id: ACCOUNT });
    expect(await run(linkId)).toMatchObject({ status: 'failed', reason: 'reauth_required' });
    expect((await json<{ status: string }>(`/connectors/v1/connections/${connectionId}`)).status).toBe(
      'reauth_required',
    );
  });
});
