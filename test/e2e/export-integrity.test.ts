// Exports keep the user's files exact, over HTTP against the running server and its sandbox
// provider, on both runtimes: a file of the user's at the destination is never replaced whatever the
// `conflict` policy (rename as default, skip, fail, replace only over our own export); each document
// has its own outcome, so one refused document fails alone, the ones after it are tried, and the
// counts are what happened.
import { createHash } from 'node:crypto';
import type { RunningServer } from '../support/local-server';
import { api, startLocalServer } from '../support/local-server';
import { connectThroughSandbox } from '../support/connect';
import { until } from '../support/until';

let server: RunningServer;
let call: ReturnType<typeof api>;
let sandboxUrl = '';

const VAULT = 'vlt_export_integrity';
const SOURCE = 'acct-export-src';
const DESTINATION = 'acct-export-dst';

interface Job {
  id: string;
  status: 'processing' | 'succeeded' | 'failed';
  reason?: string;
  conflict?: string;
  counts: Record<string, number>;
  failures: { document_id: string; reason: string; message?: string }[];
}

interface SandboxFile {
  id: string;
  name: string;
  sha256: string;
}

beforeAll(async () => {
  server = await startLocalServer({
    LOCAL_SCHEDULE_INTERVAL_MS: '0',
    // The sandbox refuses (413) an upload over 64 KiB: a provider refusing one document of an export.
    SANDBOX_MAX_UPLOAD_BYTES: String(64 * 1024),
  });
  call = api(server);
});

afterAll(async () => {
  await server?.stop();
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

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

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

let source: string;
let destination: string;
let matter: string;
let folder: string;
let linkId: string;
/** Vault document ids by the source file's name. */
const documentOf = new Map<string, string>();

const putSourceFile = (name: string, content: string) =>
  sandbox('/__sandbox/files', {
    provider: 'practice',
    account_id: SOURCE,
    container_id: matter,
    name,
    content,
  });
const putDestinationFile = (name: string, content: string) =>
  sandbox('/__sandbox/files', {
    provider: 'drive',
    account_id: DESTINATION,
    container_id: folder,
    name,
    content,
  });
const destinationFiles = async () =>
  (
    await sandbox<{ files: SandboxFile[] }>(
      `/__sandbox/files?provider=drive&account_id=${DESTINATION}&container_id=${encodeURIComponent(folder)}`,
    )
  ).files;

async function importAll(): Promise<void> {
  const started = await json<{ id: string }>(`/connectors/v1/links/${linkId}/runs`, {
    method: 'POST',
    expect: 202,
  });
  expect((await settled(started.id)).status).toBe('succeeded');
  const documents = await json<{ data: { document_id: string; source: { name: string } }[] }>(
    `/connectors/v1/links/${linkId}/documents?limit=200`,
  );
  for (const d of documents.data) documentOf.set(d.source.name, d.document_id);
}

async function exportNames(names: string[], conflict?: string): Promise<Job> {
  const started = await json<{ id: string }>(`/connectors/v1/connections/${destination}/exports`, {
    method: 'POST',
    body: JSON.stringify({
      vault_id: VAULT,
      document_ids: names.map((n) => documentOf.get(n)!),
      destination: { id: folder },
      ...(conflict ? { conflict } : {}),
    }),
    expect: 202,
  });
  return settled(started.id);
}

beforeAll(async () => {
  const src = await connectThroughSandbox(call, { provider: 'practice', account: SOURCE });
  source = src.connectionId;
  sandboxUrl = src.sandboxUrl;
  destination = (await connectThroughSandbox(call, { provider: 'drive', account: DESTINATION })).connectionId;
  matter = (await json<{ data: { id: string }[] }>(`/connectors/v1/connections/${source}/sources`)).data[0]!
    .id;
  folder = (
    await json<{ data: { id: string; kind: string }[] }>(`/connectors/v1/connections/${destination}/sources`)
  ).data.find((s) => s.kind === 'container')!.id;
  await putSourceFile('Letterhead.txt', 'our letterhead v1');
  await putSourceFile('a.txt', 'document a');
  await putSourceFile('back\\slash.txt', 'a name no destination can hold as one file name');
  await putSourceFile('b.txt', 'document b');
  await sandbox('/__sandbox/files', {
    provider: 'practice',
    account_id: SOURCE,
    container_id: matter,
    name: 'too-large-for-the-destination.bin',
    size: 100 * 1024,
  });
  linkId = (
    await json<{ id: string }>(`/connectors/v1/connections/${source}/links`, {
      method: 'POST',
      body: JSON.stringify({ vault_id: VAULT, source: { id: matter } }),
      expect: 201,
    })
  ).id;
  await importAll();
  await putDestinationFile('Letterhead.txt', "the user's own letterhead");
});

describe('an export into a folder that holds a file of the same name', () => {
  const users = async () => (await destinationFiles()).find((f) => f.name === 'Letterhead.txt')!.sha256;

  it('refuses an unknown conflict policy with 400', async () => {
    const response = await call(`/connectors/v1/connections/${destination}/exports`, {
      method: 'POST',
      body: JSON.stringify({
        vault_id: VAULT,
        document_ids: [documentOf.get('a.txt')],
        destination: { id: folder },
        conflict: 'overwrite',
      }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('INVALID_REQUEST');
  });

  it("fails, skips or refuses to replace the document as asked, leaving the user's file as it was", async () => {
    const failed = await exportNames(['Letterhead.txt'], 'fail');
    expect(failed).toMatchObject({
      status: 'succeeded',
      conflict: 'fail',
      counts: { requested: 1, exported: 0, skipped: 0, failed: 1 },
      failures: [{ document_id: documentOf.get('Letterhead.txt'), reason: 'name_conflict' }],
    });
    expect(await exportNames(['Letterhead.txt'], 'skip')).toMatchObject({
      status: 'succeeded',
      counts: { requested: 1, exported: 0, skipped: 1, failed: 0 },
      failures: [],
    });
    expect(await exportNames(['Letterhead.txt'], 'replace')).toMatchObject({
      status: 'succeeded',
      counts: { exported: 0, failed: 1 },
      failures: [{ reason: 'not_ours' }],
    });
    expect(await users()).toBe(sha("the user's own letterhead"));
    expect((await destinationFiles()).map((f) => f.name)).not.toContain('Letterhead (2).txt');
  });

  it("renames by default, then updates its own file with the next version, never the user's", async () => {
    expect(await exportNames(['Letterhead.txt'])).toMatchObject({
      status: 'succeeded',
      conflict: 'rename',
      counts: { requested: 1, exported: 1, failed: 0 },
    });
    let files = await destinationFiles();
    expect(files.find((f) => f.name === 'Letterhead (2).txt')!.sha256).toBe(sha('our letterhead v1'));
    expect(await users()).toBe(sha("the user's own letterhead"));

    await putSourceFile('Letterhead.txt', 'our letterhead v2');
    await importAll();
    expect(await exportNames(['Letterhead.txt'])).toMatchObject({ counts: { exported: 1, failed: 0 } });
    files = await destinationFiles();
    expect(files.find((f) => f.name === 'Letterhead (2).txt')!.sha256).toBe(sha('our letterhead v2'));
    expect(files.filter((f) => f.name.startsWith('Letterhead'))).toHaveLength(2);
    expect(await users()).toBe(sha("the user's own letterhead"));
  });

  it("treats our file as the user's once the user changed it: replace is refused, rename goes beside", async () => {
    await putDestinationFile('Letterhead (2).txt', 'the user edited our export');
    await putSourceFile('Letterhead.txt', 'our letterhead v3');
    await importAll();
    expect(await exportNames(['Letterhead.txt'], 'replace')).toMatchObject({
      counts: { exported: 0, failed: 1 },
      failures: [{ reason: 'not_ours' }],
    });
    expect(await exportNames(['Letterhead.txt'])).toMatchObject({ counts: { exported: 1, failed: 0 } });
    const files = await destinationFiles();
    expect(files.find((f) => f.name === 'Letterhead (2).txt')!.sha256).toBe(
      sha('the user edited our export'),
    );
    expect(files.find((f) => f.name === 'Letterhead (3).txt')!.sha256).toBe(sha('our letterhead v3'));
    expect(await users()).toBe(sha("the user's own letterhead"));
  });
});

describe('an export with documents the destination refuses', () => {
  it('uploads the documents before and after each, fails them alone with their reasons, and counts what happened', async () => {
    const job = await exportNames(['a.txt', 'too-large-for-the-destination.bin', 'back\\slash.txt', 'b.txt']);
    expect(job).toMatchObject({
      status: 'succeeded',
      counts: { requested: 4, exported: 2, unchanged: 0, skipped: 0, failed: 2 },
      failures: [
        {
          document_id: documentOf.get('too-large-for-the-destination.bin'),
          reason: 'provider_refused',
          message: expect.stringContaining('413'),
        },
        {
          document_id: documentOf.get('back\\slash.txt'),
          reason: 'invalid_name',
          message: expect.stringContaining('\\'),
        },
      ],
    });
    const files = await destinationFiles();
    expect(files.find((f) => f.name === 'a.txt')!.sha256).toBe(sha('document a'));
    expect(files.find((f) => f.name === 'b.txt')!.sha256).toBe(sha('document b'));
    expect(files.some((f) => f.name.includes('slash') || f.name.startsWith('too-large'))).toBe(false);
    const { counts } = job;
    expect(counts.exported! + counts.unchanged! + counts.skipped! + counts.failed!).toBe(counts.requested);
  });
});

describe('an export of documents whose names would change the URL', () => {
  it('refuses `..`, `.`, `a/b` and CR/LF names per document; no request reaches another URL', async () => {
    // Google Drive holds such names (its files are addressed by id): they come in through an import.
    const gdrive = await connectThroughSandbox(call, {
      provider: 'google_drive',
      account: 'acct-export-names',
      scopeTier: 'import_export',
    });
    const { accessTokens } = await sandbox<{ accessTokens: string[] }>('/__sandbox/issued');
    const token = accessTokens.at(-1)!; // this connection's, issued last
    const myDrive = (
      await json<{ data: { id: string; name: string; kind: string }[] }>(
        `/connectors/v1/connections/${gdrive.connectionId}/sources`,
      )
    ).data.find((s) => s.kind === 'container')!;
    const children = await json<{ data: { id: string; name: string; kind: string }[] }>(
      `/connectors/v1/connections/${gdrive.connectionId}/sources?parent=${encodeURIComponent(myDrive.id)}`,
    );
    const gFolder = children.data.find((s) => s.kind === 'container')!;
    const names = ['..', '.', 'a/b.txt', 'cr\r\nlf.txt', 'fine.txt'];
    for (const name of names) {
      const boundary = 'ces-e2e';
      const body = Buffer.from(
        `--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${JSON.stringify({ name, parents: [gFolder.id], mimeType: 'text/plain' })}\r\n` +
          `--${boundary}\r\nContent-Type: text/plain\r\n\r\ncontent of ${JSON.stringify(name)}\r\n--${boundary}--\r\n`,
      );
      const made = await fetch(`${sandboxUrl}/google/upload/drive/v3/files?uploadType=multipart`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': `multipart/related; boundary=${boundary}`,
        },
        body,
      });
      expect(made.status).toBe(200);
    }
    const link = await json<{ id: string }>(`/connectors/v1/connections/${gdrive.connectionId}/links`, {
      method: 'POST',
      body: JSON.stringify({ vault_id: VAULT, source: { id: gFolder.id } }),
      expect: 201,
    });
    const started = await json<{ id: string }>(`/connectors/v1/links/${link.id}/runs`, {
      method: 'POST',
      expect: 202,
    });
    expect((await settled(started.id)).status).toBe('succeeded');
    const documents = (
      await json<{ data: { document_id: string; source: { name: string } }[] }>(
        `/connectors/v1/links/${link.id}/documents?limit=200`,
      )
    ).data;
    const idOf = (name: string) => documents.find((d) => d.source.name === name)!.document_id;

    const before = await destinationFiles();
    const exported = await json<{ id: string }>(`/connectors/v1/connections/${destination}/exports`, {
      method: 'POST',
      body: JSON.stringify({ vault_id: VAULT, document_ids: names.map(idOf), destination: { id: folder } }),
      expect: 202,
    });
    const job = await settled(exported.id);
    expect(job).toMatchObject({
      status: 'succeeded',
      counts: { requested: 5, exported: 1, failed: 4 },
      failures: names.slice(0, 4).map((name) => ({ document_id: idOf(name), reason: 'invalid_name' })),
    });
    const after = await destinationFiles();
    // The folder's own files are as they were; only fine.txt is new.
    expect(after.filter((f) => f.name !== 'fine.txt')).toEqual(before);
    expect(after.find((f) => f.name === 'fine.txt')!.sha256).toBe(sha('content of "fine.txt"'));
  });
});
