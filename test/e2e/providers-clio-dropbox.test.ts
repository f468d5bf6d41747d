// Clio and Dropbox end to end over HTTP against `npm start`'s server, which points both at their fakes
// in the sandbox: connect, browse, import a matter or folder in full, import again after a change, a new
// file and a deletion at the provider, export documents back, and a throttle the run waits out.
import type { RunningServer } from '../support/local-server';
import { api, startLocalServer } from '../support/local-server';
import { connectThroughSandbox } from '../support/connect';
import { until } from '../support/until';

let server: RunningServer;
let call: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startLocalServer({ LOCAL_SYNC_SWEEP_INTERVAL_MS: '0', LOCAL_TOKEN_SWEEP_INTERVAL_MS: '0' });
  call = api(server);
});

afterAll(async () => {
  await server?.stop();
});

interface Job {
  id: string;
  status: 'processing' | 'succeeded' | 'failed';
  reason?: string;
  counts: Record<string, number>;
}

async function json<T>(path: string, init?: RequestInit & { expect?: number }): Promise<T> {
  const response = await call(path, init);
  const body = response.status === 204 ? undefined : await response.json();
  expect({ path, status: response.status, body }).toMatchObject({ path, status: init?.expect ?? 200 });
  return body as T;
}

async function settled(jobId: string): Promise<Job> {
  let job: Job | undefined;
  await until(
    `job ${jobId} to finish`,
    async () => {
      job = await json<Job>(`/connectors/jobs/${jobId}`);
      return job.status !== 'processing' ? true : undefined;
    },
    60_000,
  );
  return job!;
}

describe.each([
  ['clio', undefined],
  ['dropbox', 'import_export'],
] as const)('%s', (provider, tier) => {
  const account = `acct-e2e-${provider}`;
  const vault = `vlt_${provider}`;
  let connectionId: string;
  let sandboxUrl: string;
  let container: { id: string; name: string };
  let linkId: string;

  const hook = async <T>(path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') => {
    const response = await fetch(`${sandboxUrl}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.status).toBeLessThan(300);
    return (response.status === 204 ? undefined : await response.json()) as T;
  };
  const files = async () =>
    (
      await hook<{ files: { id: string; name: string; sha256: string }[] }>(
        `/__sandbox/files?provider=${provider}&account_id=${account}&container_id=${encodeURIComponent(container.id)}`,
      )
    ).files;
  const run = async () =>
    settled(
      (await json<{ id: string }>(`/connectors/v1/links/${linkId}/runs`, { method: 'POST', expect: 202 })).id,
    );

  it('connects, browses and imports a container in full', async () => {
    ({ connectionId, sandboxUrl } = await connectThroughSandbox(call, {
      provider,
      account,
      ...(tier ? { scopeTier: tier } : {}),
    }));
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
      await hook('/__sandbox/files', {
        provider,
        account_id: account,
        container_id: container.id,
        name,
        content: `${name} at the provider`,
      });
    const job = await run();
    const there = await files();
    expect(there.length).toBeGreaterThan(0);
    expect(job).toMatchObject({ status: 'succeeded', counts: { failed: 0 } });
    // A Dropbox link takes the folder's whole subtree; the hook lists the folder's own files.
    expect(job.counts.imported).toBeGreaterThanOrEqual(there.length);
  });

  it('imports again only what changed: a new file, a changed one, a deletion', async () => {
    const [changed, deleted] = await files();
    await hook('/__sandbox/files', {
      provider,
      account_id: account,
      container_id: container.id,
      name: 'e2e-new.txt',
      content: 'new at the provider',
    });
    await hook('/__sandbox/files', {
      provider,
      account_id: account,
      container_id: container.id,
      name: changed!.name,
      content: 'changed at the provider',
    });
    await hook(
      `/__sandbox/files/${provider}/${account}/${encodeURIComponent(deleted!.id)}`,
      undefined,
      'DELETE',
    );
    const job = await run();
    expect(job).toMatchObject({ status: 'succeeded', counts: { imported: 1, updated: 1, failed: 0 } });
    const documents = (
      await json<{ data: { source: { id: string }; status: string }[] }>(
        `/connectors/v1/links/${linkId}/documents?limit=200`,
      )
    ).data;
    expect(documents.find((d) => d.source.id === deleted!.id)?.status).toBe('deleted_at_source');
  });

  it('waits out a throttle and finishes', async () => {
    await hook('/__sandbox/next-api-error', { provider, status: 429, retry_after: 1 });
    const job = await run();
    expect(job.status).toBe('succeeded');
    // The 429 throttled the connection (until its Retry-After), and the run resumed after it.
    const connection = await json<{ status: string; status_history: { status: string }[] }>(
      `/connectors/v1/connections/${connectionId}`,
    );
    expect(connection.status_history.map((h) => h.status)).toContain('throttled');
    expect(connection.status).toBe('healthy');
  });

  it('exports documents back into the container without replacing anything there', async () => {
    const documents = (
      await json<{ data: { document_id: string; status: string }[] }>(
        `/connectors/v1/links/${linkId}/documents?limit=200`,
      )
    ).data.filter((d) => d.status !== 'deleted_at_source');
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
    const job = await settled(started.id);
    expect(job).toMatchObject({ status: 'succeeded' });
    const after = await files();
    // Nothing that was there changed; what was exported is either the same bytes (no new file) or new.
    for (const file of before) expect(after.find((f) => f.id === file.id)?.sha256).toBe(file.sha256);
  });
});
