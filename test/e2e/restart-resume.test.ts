// Work in flight when `npm start` stops resumes within seconds of the next start, not
// after the deliveries queue's visibility timeout (270 s) or the sync sweep's stale-job threshold
// (20 minutes). The real server runs as a child process on a data directory; the sandbox provider runs
// here, in the test, so its files and grants outlive the server (the server's own sandbox is in its
// process). A delivery burst to a receiver that answers slowly and an import run whose downloads stall
// are both in the server's hands when it is killed (SIGKILL: a crash; SIGTERM: a stop, which drains for
// its grace and hands back the rest). Restarted on the same data directory, with every schedule turned
// off (so no sweep can be what moved them), every delivery arrives and the run completes within
// RESUME_BOUND_MS of the restart, each file one document.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { registerSandboxClients } from '../../functions/dev-runtime/hooks/sandbox-setup';
import type { SandboxProvider } from '../../sandbox';
import { startSandboxProvider } from '../../sandbox';
import { connectThroughSandbox } from '../support/connect';
import type { RunningServer } from '../support/local-server';
import { api, describeLocalOnly, startLocalServer } from '../support/local-server';
import type { Receiver } from '../support/receiver';
import { startReceiver } from '../support/receiver';
import { until } from '../support/until';

const FILES = 40;
const EVENTS = 20;
/** Each download pauses this long mid-way: with four at a time, the run takes ~30 s before the kill. */
const STALL_MS = 3_000;
const GRACE_MS = 2_000;
/** Far below 270 s and 20 minutes, with room for a loaded 2-core machine. */
const RESUME_BOUND_MS = 20_000;

let sandbox: SandboxProvider;
let receiver: Receiver;
const servers: RunningServer[] = [];

beforeAll(async () => {
  // One after the other: had one failed while the other started, afterAll could not close the other.
  receiver = await startReceiver();
  sandbox = await startSandboxProvider({ exposeIssued: true });
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await Promise.all([sandbox?.close(), receiver?.close()]);
});

/** A port free now: the server keeps it across its restart, so the sandbox's redirect URI stays right. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function json<T>(
  call: ReturnType<typeof api>,
  path: string,
  init?: RequestInit & { expect?: number },
): Promise<T> {
  const response = await call(path, init);
  const body = await response.json();
  expect({ path, status: response.status, body }).toMatchObject({ path, status: init?.expect ?? 200 });
  return body as T;
}

async function sandboxHook(path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBeLessThan(300);
  return response.json();
}

interface Job {
  status: string;
  counts: Record<string, number>;
}
interface LinkDocuments {
  data: { document_id: string; source: { id: string } }[];
}

async function scenario(signal: 'SIGKILL' | 'SIGTERM') {
  const account = `acct-restart-${signal.toLowerCase()}`;
  const path = `/slow-${signal.toLowerCase()}`;
  const port = await freePort();
  const env = {
    ...registerSandboxClients(sandbox, `http://localhost:${port}`, ['practice']),
    PORT: String(port),
    SANDBOX_PORT: '0',
    LOCAL_SCHEDULE_INTERVAL_MS: '0',
    LOCAL_SHUTDOWN_GRACE_MS: String(GRACE_MS),
  };
  const first = await startLocalServer(env);
  servers.push(first);
  const call = api(first);

  // The import run: FILES files whose downloads stall mid-way, so the run's step is in hand at the kill.
  const { connectionId } = await connectThroughSandbox(call, { provider: 'practice', account });
  const matter = (
    await json<{ data: { id: string }[] }>(call, `/connectors/v1/connections/${connectionId}/sources`)
  ).data[0]!;
  await sandboxHook('/__sandbox/seed', {
    provider: 'practice',
    account_id: account,
    container_id: matter.id,
    count: FILES,
    size: 64 * 1024,
  });
  // The matter's files: those seeded and the ones the sandbox gives a new account.
  const listing = await fetch(
    `${sandbox.url}/__sandbox/files?provider=practice&account_id=${account}&container_id=${encodeURIComponent(matter.id)}`,
  );
  const files = ((await listing.json()) as { files: { id: string }[] }).files.map((f) => f.id);
  expect(files.length).toBeGreaterThanOrEqual(FILES);
  await sandboxHook('/__sandbox/stall-downloads', { provider: 'practice', ms: STALL_MS });
  const link = await json<{ id: string }>(call, `/connectors/v1/connections/${connectionId}/links`, {
    method: 'POST',
    body: JSON.stringify({ vault_id: `vlt_restart_${signal.toLowerCase()}`, source: { id: matter.id } }),
    expect: 201,
  });
  const run = await json<{ id: string }>(call, `/connectors/v1/links/${link.id}/runs`, {
    method: 'POST',
    expect: 202,
  });
  const documents = async () =>
    (await json<LinkDocuments>(call, `/connectors/v1/links/${link.id}/documents?limit=100`)).data;
  await until(
    'the first documents of the run',
    async () => ((await documents()).length ? true : undefined),
    60_000,
  );

  // The delivery burst: the receiver takes each request and answers only after a minute (the attempt's
  // own timeout is 15 s; the kill comes first), so the deliveries are in the server's hands.
  let restarted = false;
  receiver.on(path, () => (restarted ? { status: 204 } : { status: 204, delayMs: 60_000 }));
  await json(call, '/webhooks/v1/endpoints', {
    method: 'POST',
    body: JSON.stringify({ url: receiver.url(path), eventTypeFilters: ['matter.*'] }),
    expect: 201,
  });
  const system = api(first, first.credentials.systemKey);
  const accepted = await Promise.all(
    Array.from({ length: EVENTS }, async (_, i) => {
      const event = await json<{ id: string }>(system, '/webhooks/v1/events', {
        method: 'POST',
        body: JSON.stringify({
          organizationId: first.credentials.organizationId,
          type: 'matter.created',
          data: { matterId: `mat_${i}`, name: `Matter ${i}` },
        }),
        expect: 202,
      });
      return event.id;
    }),
  );
  await until(
    'the first delivery at the receiver',
    async () => (receiver.received.some((r) => r.path === path) ? true : undefined),
    60_000,
  );
  // Both kinds of work are in flight: otherwise this test would prove nothing.
  expect((await json<Job>(call, `/connectors/jobs/${run.id}`)).status).toBe('processing');

  const stopping = Date.now();
  await first.kill(signal);
  const stopMs = Date.now() - stopping;
  if (signal === 'SIGTERM') {
    // Drained for its grace, then handed back what it still held, and gone promptly.
    expect(stopMs).toBeLessThan(GRACE_MS + 5_000);
    expect(first.logs()).toMatch(/Stopping: \d+ message\(s\) finished, [1-9]\d* handed back/);
  }
  // The provider is quick again: what follows measures the resumption, not the stall.
  await sandboxHook('/__sandbox/stall-downloads', { provider: 'practice', ms: 0 });
  restarted = true;
  // Any request from now on is the second server's (it may deliver before its start is seen here).
  const killed = Date.now();

  const second = await startLocalServer(env, first.dataDir);
  servers.push(second);
  const started = Date.now();
  const again = api(second);
  expect(second.logs()).toMatch(/Resumed 1 import run\(s\) or export\(s\) the last process left in flight/);

  const delivered = () =>
    new Set(
      receiver.received
        .filter((r) => r.path === path && r.at >= killed)
        .map((r) => String(r.headers['webhook-id'])),
    );
  await until(
    'every accepted event delivered after the restart',
    async () => (accepted.every((id) => delivered().has(id)) ? true : undefined),
    RESUME_BOUND_MS,
  );
  const job = await until(
    'the interrupted run to finish after the restart',
    async () => {
      const current = await json<Job>(again, `/connectors/jobs/${run.id}`);
      return current.status === 'processing' ? undefined : current;
    },
    Math.max(1, RESUME_BOUND_MS - (Date.now() - started)),
  );
  expect(Date.now() - started).toBeLessThan(RESUME_BOUND_MS);
  expect(job.status).toBe('succeeded');
  expect(job.counts).toMatchObject({ listed: files.length, imported: files.length, failed: 0 });

  // Each file is one document, however many times its step ran.
  const after = (await json<LinkDocuments>(again, `/connectors/v1/links/${link.id}/documents?limit=100`))
    .data;
  expect(after.map((d) => d.source.id).sort()).toEqual([...files].sort());
  expect(new Set(after.map((d) => d.document_id)).size).toBe(files.length);
  await second.stop();
}

describeLocalOnly(
  "it restarts `npm start`'s process on its data directory; on AWS a step whose Lambda died resumes within its queue's visibility timeout (docs/runbook.md)",
  'a restart of the local runtime',
  () => {
    it('resumes the deliveries and the import run a SIGKILL interrupted within seconds of the start', async () => {
      await scenario('SIGKILL');
    }, 180_000);

    it('drains or hands back on SIGTERM, exits promptly, and resumes within seconds of the start', async () => {
      await scenario('SIGTERM');
    }, 180_000);
  },
);
