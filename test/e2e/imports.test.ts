// Connections at work, over HTTP against `npm start`'s server and its sandbox provider: browse a
// provider, link a matter to a vault, run imports and read the documents back, idempotent second runs,
// a changed file updated, a lapsed grant failing a run with reauth_required and a reconnect importing
// nothing again, the provider switched off refusing new runs while one in flight finishes, scheduled
// runs, a purge deleting exactly the imported documents, and an export landing files at the provider.
import { createHash } from 'node:crypto';
import type { RunningServer } from '../support/local-server';
import { api, startLocalServer } from '../support/local-server';
import type { Receiver } from '../support/receiver';
import { startReceiver } from '../support/receiver';
import { until } from '../support/until';

/** Waits until `condition` holds. */
const waitFor = (what: string, condition: () => Promise<boolean>, ms = 30_000) =>
  until(what, async () => ((await condition()) ? true : undefined), ms);
import { connectThroughSandbox } from '../support/connect';

let server: RunningServer;
let receiver: Receiver;
let call: ReturnType<typeof api>;
let sandboxUrl = '';

const ACCOUNT = 'acct-imports-1';
const VAULT = 'vlt_imports';

interface Source {
  id: string;
  name: string;
  kind: 'container' | 'file';
  version?: string;
}

interface Job {
  id: string;
  kind: string;
  status: 'processing' | 'succeeded' | 'failed';
  reason?: string;
  counts: Record<string, number>;
  failures?: unknown[];
  waiting?: { reason: string; until: string };
}

interface SandboxFile {
  id: string;
  name: string;
  container_id: string;
  version: number;
  sha256: string;
}

beforeAll(async () => {
  [server, receiver] = await Promise.all([
    startLocalServer({ LOCAL_SCHEDULE_INTERVAL_MS: '0' }),
    startReceiver(),
  ]);
  call = api(server);
  const endpoint = await call('/webhooks/v1/endpoints', {
    method: 'POST',
    body: JSON.stringify({
      url: receiver.url('/imports'),
      eventTypeFilters: ['vault.ingest.completed', 'connector.*'],
    }),
  });
  expect({ status: endpoint.status, body: await endpoint.json() }).toMatchObject({ status: 201 });
});

afterAll(async () => {
  await Promise.all([server?.stop(), receiver?.close()]);
});

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

const sandboxFiles = (provider: string, account: string, container: string) =>
  sandbox<{ files: SandboxFile[] }>(
    `/__sandbox/files?provider=${provider}&account_id=${account}&container_id=${encodeURIComponent(container)}`,
  ).then((r) => r.files);

async function connect(provider: 'practice' | 'drive', account: string): Promise<string> {
  const connected = await connectThroughSandbox(call, { provider, account });
  sandboxUrl = connected.sandboxUrl;
  return connected.connectionId;
}

async function settled(jobId: string): Promise<Job> {
  let job: Job | undefined;
  await waitFor(`job ${jobId} to finish`, async () => {
    job = await json<Job>(`/connectors/jobs/${jobId}`);
    return job.status !== 'processing';
  });
  return job!;
}

async function run(linkId: string): Promise<Job> {
  const started = await json<{ id: string; status: string }>(`/connectors/v1/links/${linkId}/runs`, {
    method: 'POST',
    expect: 202,
  });
  expect(started).toEqual({ id: expect.stringMatching(/^job_/), status: 'processing' });
  return settled(started.id);
}

async function sweepNow(): Promise<void> {
  const response = await fetch(`${server.baseUrl}/__dev/sync-sweep`, { method: 'POST' });
  expect(response.status).toBe(200);
}

/** The events the receiver got, parsed. */
const events = () =>
  receiver.received.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });

const sha256 = (bytes: ArrayBuffer) => createHash('sha256').update(Buffer.from(bytes)).digest('hex');

interface LinkDocument {
  document_id: string;
  source: { id: string; name: string; version: string | null };
  vault_version: number | null;
  status: string;
}

const linkDocuments = async (linkId: string) =>
  (await json<{ data: LinkDocument[] }>(`/connectors/v1/links/${linkId}/documents?limit=200`)).data;

const vaultContent = async (documentId: string) => {
  const response = await fetch(
    `${server.baseUrl}/__dev/vault/${server.credentials.organizationId}/${VAULT}/${documentId}/content`,
  );
  return response.status === 200 ? sha256(await response.arrayBuffer()) : response.status;
};

describe('import links and runs', () => {
  let connectionId: string;
  let matter: Source;
  let linkId: string;
  let matterFiles: SandboxFile[];

  it("browses the provider: the matters, then a matter's documents", async () => {
    connectionId = await connect('practice', ACCOUNT);
    const top = await json<{ data: Source[]; next_page_token: string | null }>(
      `/connectors/v1/connections/${connectionId}/sources?limit=2`,
    );
    expect(top.data).toHaveLength(2);
    expect(top.data.every((s) => s.kind === 'container')).toBe(true);
    expect(top.next_page_token).toEqual(expect.any(String));
    const rest = await json<{ data: Source[]; next_page_token: string | null }>(
      `/connectors/v1/connections/${connectionId}/sources?limit=2&page_token=${encodeURIComponent(top.next_page_token!)}`,
    );
    expect(rest.data.length).toBeGreaterThan(0);
    expect(rest.data.map((s) => s.id)).not.toContain(top.data[0]!.id);
    matter = top.data[0]!;
    const documents = await json<{ data: Source[] }>(
      `/connectors/v1/connections/${connectionId}/sources?parent=${encodeURIComponent(matter.id)}`,
    );
    matterFiles = await sandboxFiles('practice', ACCOUNT, matter.id);
    expect(documents.data.map((d) => d.id).sort()).toEqual(matterFiles.map((f) => f.id).sort());
    expect(documents.data.every((d) => d.kind === 'file' && d.version)).toBe(true);

    const missing = await call(`/connectors/v1/connections/${connectionId}/sources?parent=no-such-matter`);
    expect(missing.status).toBe(404);
  });

  it('creates an import link after checking its source, and refuses an unknown source with 400', async () => {
    const bad = await call(`/connectors/v1/connections/${connectionId}/links`, {
      method: 'POST',
      body: JSON.stringify({ vault_id: VAULT, source: { id: 'no-such-matter' } }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('INVALID_REQUEST');

    const link = await json<Record<string, unknown>>(`/connectors/v1/connections/${connectionId}/links`, {
      method: 'POST',
      body: JSON.stringify({ vault_id: VAULT, source: { id: matter.id } }),
      expect: 201,
    });
    expect(link).toMatchObject({
      id: expect.stringMatching(/^lnk_/),
      connection_id: connectionId,
      vault_id: VAULT,
      source: { id: matter.id },
      schedule: null,
      status: 'idle',
      last_run: null,
    });
    linkId = link.id as string;
    const twin = await call(`/connectors/v1/connections/${connectionId}/links`, {
      method: 'POST',
      body: JSON.stringify({ vault_id: VAULT, source: { id: matter.id } }),
    });
    expect(twin.status).toBe(409);
    const listed = await json<{ data: { id: string }[] }>(`/connectors/v1/connections/${connectionId}/links`);
    expect(listed.data.map((l) => l.id)).toEqual([linkId]);
  });

  it('imports every document of the matter into the vault, byte for byte, with its events', async () => {
    const job = await run(linkId);
    expect(job).toMatchObject({
      kind: 'sync',
      status: 'succeeded',
      counts: {
        listed: matterFiles.length,
        imported: matterFiles.length,
        updated: 0,
        unchanged: 0,
        failed: 0,
      },
    });
    const documents = await linkDocuments(linkId);
    expect(documents).toHaveLength(matterFiles.length);
    for (const file of matterFiles) {
      const document = documents.find((d) => d.source.id === file.id)!;
      expect(document).toMatchObject({
        status: 'imported',
        source: { version: String(file.version) },
        vault_version: 1,
      });
      expect(await vaultContent(document.document_id)).toBe(file.sha256);
    }
    await waitFor(
      'a vault.ingest.completed per document',
      async () => events().filter((e) => e.type === 'vault.ingest.completed').length >= matterFiles.length,
    );
    const ingested = events().filter((e) => e.type === 'vault.ingest.completed');
    expect(new Set(ingested.map((e) => e.data.objectId))).toEqual(
      new Set(documents.map((d) => d.document_id)),
    );
    await waitFor('connector.sync.completed', async () =>
      events().some((e) => e.type === 'connector.sync.completed'),
    );
    const link = await json<{ status: string; last_run: { job_id: string; status: string } }>(
      `/connectors/v1/links/${linkId}`,
    );
    expect(link).toMatchObject({ status: 'idle', last_run: { job_id: job.id, status: 'succeeded' } });
  });

  it('imports nothing on a second run, and updates exactly the one document whose file changed', async () => {
    expect(await run(linkId)).toMatchObject({
      status: 'succeeded',
      counts: { imported: 0, updated: 0, failed: 0 },
    });
    const changed = matterFiles[0]!;
    await sandbox('/__sandbox/files', {
      provider: 'practice',
      account_id: ACCOUNT,
      container_id: matter.id,
      name: changed.name,
      content: 'A new version of this document.\n',
    });
    expect(await run(linkId)).toMatchObject({
      status: 'succeeded',
      counts: { listed: 1, imported: 0, updated: 1, unchanged: 0, failed: 0 },
    });
    const document = (await linkDocuments(linkId)).find((d) => d.source.id === changed.id)!;
    expect(document.vault_version).toBe(2);
    expect(await vaultContent(document.document_id)).toBe(
      createHash('sha256').update('A new version of this document.\n').digest('hex'),
    );
  });

  it('fails a run with reauth_required when the grant lapses, and after a reconnect imports nothing again', async () => {
    await sandbox('/__sandbox/revoke-grants', { provider: 'practice', account_id: ACCOUNT });
    expect(await run(linkId)).toMatchObject({ status: 'failed', reason: 'reauth_required' });
    expect((await json<{ status: string }>(`/connectors/v1/connections/${connectionId}`)).status).toBe(
      'reauth_required',
    );
    const refused = await call(`/connectors/v1/links/${linkId}/runs`, { method: 'POST' });
    expect(refused.status).toBe(409);

    expect(await connect('practice', ACCOUNT)).toBe(connectionId); // the same connection comes back
    const { status_history } = await json<{ status_history: { status: string; at: string }[] }>(
      `/connectors/v1/connections/${connectionId}`,
    );
    expect(status_history.map((h) => h.status)).toEqual(['healthy', 'reauth_required', 'healthy', 'pending']);
    const job = await run(linkId);
    expect(job).toMatchObject({ status: 'succeeded', counts: { imported: 0, updated: 0, failed: 0 } });
    expect(await linkDocuments(linkId)).toHaveLength(matterFiles.length);
  });

  it('resumes by itself after the provider rate limits a run, and follows Retry-After', async () => {
    await sandbox('/__sandbox/files', {
      provider: 'practice',
      account_id: ACCOUNT,
      container_id: matter.id,
      name: 'Rate limited.txt',
      content: 'arrives after a 429\n',
    });
    await sandbox('/__sandbox/next-api-error', { provider: 'practice', status: 429, retry_after: 2 });
    const started = await json<{ id: string }>(`/connectors/v1/links/${linkId}/runs`, {
      method: 'POST',
      expect: 202,
    });
    await waitFor(
      'the run to wait',
      async () => (await json<Job>(`/connectors/jobs/${started.id}`)).waiting?.reason === 'throttled',
    );
    expect((await json<{ status: string }>(`/connectors/v1/connections/${connectionId}`)).status).toBe(
      'throttled',
    );
    expect(await settled(started.id)).toMatchObject({ status: 'succeeded', counts: { imported: 1 } });
  });

  it('refuses new runs while the provider is off, lets the run in flight finish, and runs again once it is on', async () => {
    await sandbox('/__sandbox/next-api-error', { provider: 'practice', status: 503, retry_after: 1 });
    const inFlight = await json<{ id: string }>(`/connectors/v1/links/${linkId}/runs`, {
      method: 'POST',
      expect: 202,
    });
    const toggle = (enabled: boolean) =>
      json('/connectors/v1/connections', {
        method: 'PATCH',
        body: JSON.stringify({ provider: 'practice', enabled, confirm_organization_wide: true }),
      });
    await toggle(false);
    const refused = await call(`/connectors/v1/links/${linkId}/runs`, { method: 'POST' });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('turned off');
    expect(await settled(inFlight.id)).toMatchObject({ status: 'succeeded' });
    await toggle(true);
    expect(await run(linkId)).toMatchObject({ status: 'succeeded' });
  });

  it('runs a scheduled link when it comes due, and records a skipped run while the provider is off', async () => {
    const second = (await json<{ data: Source[] }>(`/connectors/v1/connections/${connectionId}/sources`))
      .data[1]!;
    const link = await json<{ id: string; next_run_at: string }>(
      `/connectors/v1/connections/${connectionId}/links`,
      {
        method: 'POST',
        body: JSON.stringify({ vault_id: VAULT, source: { id: second.id }, schedule: { every_minutes: 60 } }),
        expect: 201,
      },
    );
    expect(link.next_run_at).toEqual(expect.any(String));
    await sweepNow();
    await waitFor(
      'the first scheduled run',
      async () =>
        (await json<{ last_run: { status: string } | null }>(`/connectors/v1/links/${link.id}`)).last_run
          ?.status === 'succeeded',
    );
    await json('/connectors/v1/connections', {
      method: 'PATCH',
      body: JSON.stringify({ provider: 'practice', enabled: false, confirm_organization_wide: true }),
    });
    await server.advanceClock(61 * 60_000);
    await sweepNow();
    const skipped = await json<{ last_skipped: { reason: string } | null; next_run_at: string }>(
      `/connectors/v1/links/${link.id}`,
    );
    expect(skipped.last_skipped).toMatchObject({ reason: 'provider_disabled' });
    expect(Date.parse(skipped.next_run_at)).toBeGreaterThan(Date.parse(link.next_run_at));
    await json('/connectors/v1/connections', {
      method: 'PATCH',
      body: JSON.stringify({ provider: 'practice', enabled: true, confirm_organization_wide: true }),
    });
  });

  it('exports vault documents to a folder at the file-storage provider, once per document version', async () => {
    const driveAccount = 'acct-imports-drive';
    const drive = await connect('drive', driveAccount);
    const folders = await json<{ data: Source[] }>(`/connectors/v1/connections/${drive}/sources`);
    const folder = folders.data.find((s) => s.kind === 'container')!;
    const documents = await linkDocuments(linkId);
    const ids = documents.map((d) => d.document_id);
    const started = await json<{ id: string }>(`/connectors/v1/connections/${drive}/exports`, {
      method: 'POST',
      body: JSON.stringify({
        vault_id: VAULT,
        document_ids: [...ids, 'doc_missing'],
        destination: { id: folder.id },
      }),
      expect: 202,
    });
    const job = await settled(started.id);
    expect(job).toMatchObject({
      kind: 'export',
      status: 'succeeded',
      counts: { requested: ids.length + 1, exported: ids.length, unchanged: 0, failed: 1 },
      failures: [{ document_id: 'doc_missing', reason: 'document_not_found' }],
    });
    const landed = await sandboxFiles('drive', driveAccount, folder.id);
    for (const document of documents) {
      const file = landed.find((f) => f.name === document.source.name)!;
      expect(file.sha256).toBe(await vaultContent(document.document_id));
    }
    const again = await json<{ id: string }>(`/connectors/v1/connections/${drive}/exports`, {
      method: 'POST',
      body: JSON.stringify({ vault_id: VAULT, document_ids: ids, destination: { id: folder.id } }),
      expect: 202,
    });
    expect(await settled(again.id)).toMatchObject({ counts: { exported: 0, unchanged: ids.length } });
    expect(await sandboxFiles('drive', driveAccount, folder.id)).toHaveLength(landed.length);
  });

  it("purges exactly the documents the connection imported, leaving another connection's in the same vault", async () => {
    const other = await connect('practice', 'acct-imports-2');
    const otherMatter = (await json<{ data: Source[] }>(`/connectors/v1/connections/${other}/sources`))
      .data[0]!;
    const otherLink = await json<{ id: string }>(`/connectors/v1/connections/${other}/links`, {
      method: 'POST',
      body: JSON.stringify({ vault_id: VAULT, source: { id: otherMatter.id } }),
      expect: 201,
    });
    expect((await run(otherLink.id)).status).toBe('succeeded');
    const kept = await linkDocuments(otherLink.id);
    const imported = (
      await json<{ data: { id: string }[] }>(`/connectors/v1/connections/${connectionId}/links`)
    ).data;
    const ours = (await Promise.all(imported.map((l) => linkDocuments(l.id)))).flat();

    const deleted = await json<{ id: string }>(`/connectors/v1/connections/${connectionId}?purge=true`, {
      method: 'DELETE',
      expect: 202,
    });
    expect(await settled(deleted.id)).toMatchObject({
      status: 'succeeded',
      counts: { deleted: ours.length },
    });
    for (const document of ours) expect(await vaultContent(document.document_id)).toBe(404);
    for (const document of kept) expect(typeof (await vaultContent(document.document_id))).toBe('string');
  });
});
