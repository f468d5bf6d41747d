// What the e2e files about providers share: one server per file (`npm start`'s entry, or the emulated
// AWS runtime under e2e-aws) with the background sweeps off, so every run is one a test started and
// counts are exact; the API as JSON with the status checked; runs and jobs awaited; the sandbox's test
// hooks (sandbox/content/hooks.ts) on the origin the connect flow went to; and a vault document's bytes.
import { createHash } from 'node:crypto';
import type { RunningServer } from './local-server';
import { api, startLocalServer } from './local-server';
import { connectThroughSandbox } from './connect';
import { until } from './until';

export interface Job {
  id: string;
  status: 'processing' | 'succeeded' | 'failed';
  reason?: string;
  counts: Record<string, number>;
}

export interface LinkDocument {
  document_id: string;
  status: string;
  source: { id: string; name: string; version?: string | null };
}

export interface SandboxFile {
  id: string;
  name: string;
  container_id: string;
  /** From the account's root: `/Clients/Acme/letter.txt`. */
  path: string;
  sha256: string;
}

export const sha256 = (bytes: ArrayBuffer | string) =>
  createHash('sha256')
    .update(typeof bytes === 'string' ? bytes : Buffer.from(bytes))
    .digest('hex');

/** The sandbox's test hooks for one provider's account. */
export class ProviderSandbox {
  constructor(
    readonly url: string,
    readonly provider: string,
    readonly account: string,
  ) {}

  /** A hook answering below 300 (the test fails otherwise); its JSON, undefined for a 204. */
  async hook<T>(path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST'): Promise<T> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (response.status >= 300)
      throw new Error(`sandbox hook ${method} ${path} answered ${response.status}: ${await response.text()}`);
    return (response.status === 204 ? undefined : await response.json()) as T;
  }

  /** The account's live files (a container's own, not its subfolders', or all of them). */
  async files(containerId?: string): Promise<SandboxFile[]> {
    const query = new URLSearchParams({ provider: this.provider, account_id: this.account });
    if (containerId) query.set('container_id', containerId);
    return (await this.hook<{ files: SandboxFile[] }>(`/__sandbox/files?${query}`)).files;
  }

  /** Writes a file as the user would at the provider (a new one, or the next version of that name). */
  write(containerId: string, name: string, content: string): Promise<{ id: string }> {
    return this.hook('/__sandbox/files', {
      provider: this.provider,
      account_id: this.account,
      container_id: containerId,
      name,
      content,
    });
  }

  remove(fileId: string): Promise<void> {
    const path = [this.provider, this.account, fileId].map(encodeURIComponent).join('/');
    return this.hook(`/__sandbox/files/${path}`, undefined, 'DELETE');
  }

  move(fileId: string, containerId: string): Promise<{ id: string }> {
    return this.hook('/__sandbox/move', {
      provider: this.provider,
      account_id: this.account,
      file_id: fileId,
      container_id: containerId,
    });
  }

  /** The next `count` API requests of the provider answer `status` (429 and 503 with Retry-After). */
  /** The provider's next API answer fails so; a 403 says why (Google's `userRateLimitExceeded`). */
  failNext(status: 401 | 403 | 429 | 503, retryAfter?: number, reason?: string): Promise<unknown> {
    return this.hook('/__sandbox/next-api-error', {
      provider: this.provider,
      status,
      ...(retryAfter === undefined ? {} : { retry_after: retryAfter }),
      ...(reason === undefined ? {} : { reason }),
    });
  }
}

export interface ProviderE2e {
  /** The file's server (started in beforeAll). */
  readonly server: RunningServer;
  call(path: string, init?: RequestInit): Promise<Response>;
  /** The API's JSON answer, the test failing unless its status is `expect` (200 by default). */
  json<T>(path: string, init?: RequestInit & { expect?: number }): Promise<T>;
  /** The job once it is no longer processing. */
  settled(jobId: string, ms?: number): Promise<Job>;
  /** Starts a run of the link (its own mode, or the one asked) and waits for its end. */
  run(linkId: string, mode?: 'changes' | 'full'): Promise<Job>;
  documents(linkId: string): Promise<LinkDocument[]>;
  /** The connect flow at the sandbox (HTTP, as a browser would), and the account's hooks there. */
  connect(
    provider: string,
    account: string,
    scopeTier?: string,
  ): Promise<{ connectionId: string; sandbox: ProviderSandbox }>;
  /** The SHA-256 of a vault document's bytes, or the status the vault answered instead of 200. */
  vaultSha256(vaultId: string, objectId: string): Promise<string | number>;
}

/** Registers the file's server in beforeAll/afterAll and returns what its tests call. */
export function providerE2e(env: Record<string, string> = {}): ProviderE2e {
  let server: RunningServer | undefined;
  let call: ReturnType<typeof api> | undefined;
  beforeAll(async () => {
    server = await startLocalServer({
      LOCAL_SCHEDULE_INTERVAL_MS: '0',
      ...env,
    });
    call = api(server);
  }, 120_000);
  afterAll(() => server?.stop());

  const running = () => {
    if (!server || !call) throw new Error('the e2e server has not started');
    return { server, call };
  };
  const json = async <T>(path: string, init?: RequestInit & { expect?: number }): Promise<T> => {
    const response = await running().call(path, init);
    const body = response.status === 204 ? undefined : await response.json();
    expect({ path, status: response.status, body }).toMatchObject({ path, status: init?.expect ?? 200 });
    return body as T;
  };
  const settled = (jobId: string, ms = 60_000) =>
    until(
      `job ${jobId} to finish`,
      async () => {
        const job = await json<Job>(`/connectors/jobs/${jobId}`);
        return job.status === 'processing' ? undefined : job;
      },
      ms,
    );

  return {
    get server() {
      return running().server;
    },
    call: (path, init) => running().call(path, init),
    json,
    settled,
    run: async (linkId, mode) =>
      settled(
        (
          await json<{ id: string }>(`/connectors/v1/links/${linkId}/runs`, {
            method: 'POST',
            ...(mode ? { body: JSON.stringify({ mode }) } : {}),
            expect: 202,
          })
        ).id,
      ),
    documents: async (linkId) =>
      (await json<{ data: LinkDocument[] }>(`/connectors/v1/links/${linkId}/documents?limit=200`)).data,
    connect: async (provider, account, scopeTier) => {
      const connected = await connectThroughSandbox(running().call, {
        provider,
        account,
        ...(scopeTier ? { scopeTier } : {}),
      });
      return {
        connectionId: connected.connectionId,
        sandbox: new ProviderSandbox(connected.sandboxUrl, provider, account),
      };
    },
    vaultSha256: async (vaultId, objectId) => {
      const { server } = running();
      const path = [server.credentials.organizationId, vaultId, objectId].map(encodeURIComponent).join('/');
      const response = await fetch(`${server.baseUrl}/__dev/vault/${path}/content`);
      return response.status === 200 ? sha256(await response.arrayBuffer()) : response.status;
    },
  };
}
