// Import runs, exports and the sync sweep on the local adapters against the sandbox provider (real HTTP,
// real OAuth), each queue message handed to the worker by the test so it can crash a step, run it twice,
// or let time pass: counts stay exact, nothing is imported twice, waits follow the provider.
import { connectorContext } from '../../functions/connectors/app/context';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { SQSEvent } from 'aws-lambda';
import { createLocalDeps } from '../../functions/compose/local';
import type { LocalDeps } from '../../functions/compose/local';
import { create as createSyncWorker } from '../../functions/connectors/api/handlers/sync-worker';
import { startExport } from '../../functions/connectors/app/exports';
import { getConnectorJob } from '../../functions/connectors/app/job-status';
import { createLink, listLinkDocuments } from '../../functions/connectors/app/links';
import { Links } from '../../functions/connectors/infra/repositories/import-links';
import { setProviderEnabled } from '../../functions/connectors/app/provider-settings';
import { browseSources } from '../../functions/connectors/app/sources';
import { stepMessageSchema } from '../../functions/connectors/app/job-steps';
import { runSyncStep, startRun } from '../../functions/connectors/app/sync-runs';
import { redriveAbandonedJobs, runSyncSweep } from '../../functions/connectors/app/sync-sweep';
import {
  STALE_JOB_MS,
  TRANSIENT_ATTEMPTS,
  backoffSeconds,
  classifyApiStatus,
  importedObjectId,
} from '../../functions/connectors/domain/sync-policy';
import { hopDelaySeconds } from '../../functions/platform/durable-timer';
import { numberedName } from '../../functions/connectors/domain/export-conflict';
import { TOKEN_REUSE_MS } from '../../functions/connectors/domain/token-policy';
import type { ConnectorConfig } from '../../functions/connectors/infra/config';
import { STATE_KEY_ENV, envConfig } from '../../functions/connectors/infra/config';
import { registerSandboxClients } from '../../functions/dev-runtime/hooks/sandbox-setup';
import type { SandboxProvider } from '../../sandbox';
import { startSandboxProvider } from '../../sandbox';
import { ManualClock } from '../../functions/platform/clock';
import { ConflictError } from '../../functions/platform/errors';
import { Logger } from '../../functions/platform/logger';
import type { VaultWrite } from '../../functions/platform/ports';
import { connectInProcess } from '../support/connect';
import { recordMetrics } from '../support/metrics';

const ORG = 'org_unitsyncaaaaaaaaaaaa';
const BASE_URL = 'http://localhost:3998';
const VAULT = 'vlt_unit';
const log = new Logger({}, 'error');

let sandbox: SandboxProvider;
let config: ConnectorConfig;
let clock: ManualClock;
let deps: LocalDeps;
let worker: ReturnType<typeof createSyncWorker>;

beforeAll(async () => {
  clock = new ManualClock(Date.now());
  sandbox = await startSandboxProvider({ clock, exposeIssued: true });
  // The worker reads its configuration from the environment, as a Lambda does.
  Object.assign(process.env, registerSandboxClients(sandbox, BASE_URL), {
    [STATE_KEY_ENV]: randomBytes(32).toString('base64url'),
  });
  config = envConfig;
});

afterAll(async () => {
  await sandbox.close();
});

beforeEach(() => {
  deps = createLocalDeps({ clock });
  worker = createSyncWorker(deps);
});

const record = (body: string, receiveCount = 1) =>
  ({
    messageId: `m-${Math.random()}`,
    body,
    attributes: { ApproximateReceiveCount: String(receiveCount) },
  }) as unknown as SQSEvent['Records'][number];

/**
 * Hands each due message of the syncs queue to the worker as its event source would; a message the
 * worker reports failed is sent again (as SQS makes it visible again). Moves the clock to the next
 * delayed message when nothing is due. Stops when the queue is empty.
 */
async function drive(options: { maxMessages?: number; onMessage?: (body: string) => void } = {}) {
  let handled = 0;
  for (let idle = 0; idle < 200 && handled < (options.maxMessages ?? 1_000);) {
    const bodies = deps.queues.syncs.drain();
    if (!bodies.length) {
      if (deps.queues.syncs.size === 0) return handled;
      clock.advance(15_000);
      idle++;
      continue;
    }
    for (const body of bodies) {
      options.onMessage?.(body);
      const { batchItemFailures } = await worker({ Records: [record(body)] });
      if (batchItemFailures.length) await deps.queues.syncs.send({ body });
      handled++;
    }
  }
  return handled;
}

async function sandboxPost(path: string, body: unknown) {
  const response = await fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return response.json() as Promise<Record<string, unknown>>;
}

async function linked(account: string, options: { schedule?: number; onSourceDelete?: 'remove' } = {}) {
  const connectionId = await connectInProcess(deps, config, {
    organizationId: ORG,
    account,
    baseUrl: BASE_URL,
  });
  const matter = (
    await browseSources(connectorContext(deps, config, { log: log }), ORG, connectionId, { limit: 1 })
  ).data[0]!;
  const link = await createLink(connectorContext(deps, config, { log: log }), ORG, connectionId, {
    vault_id: VAULT,
    source: { id: matter.id },
    ...(options.schedule ? { schedule: { every_minutes: options.schedule } } : {}),
    ...(options.onSourceDelete ? { on_source_delete: options.onSourceDelete } : {}),
  });
  return { connectionId, matterId: matter.id, linkId: link.id };
}

const job = async (id: string) =>
  (await getConnectorJob(deps, ORG, id)) as unknown as {
    status: string;
    reason?: string;
    counts: { [name: string]: number; listed: number };
    waiting?: { reason: string };
    failures: { document_id?: string; reason: string }[];
  };

/**
 * The first vault.ingest.completed event the events queue is given (alone or in a batch) fails to
 * send, as when a worker dies after storing documents and before announcing them.
 */
function failFirstAnnouncement() {
  const events = deps.queues.events;
  let failed = false;
  const failing = (bodies: string[]) => {
    if (failed || !bodies.some((b) => (JSON.parse(b) as { type: string }).type === 'vault.ingest.completed'))
      return;
    failed = true;
    throw new Error('worker killed before its events left');
  };
  const send = events.send.bind(events);
  events.send = async (message) => {
    failing([message.body]);
    return send(message);
  };
  const sendBatch = events.sendBatch.bind(events);
  events.sendBatch = async (messages) => {
    failing(messages.map((m) => m.body));
    return sendBatch(messages);
  };
}

/** The documents whose vault.ingest.completed event is on the events queue. */
function announced(): Set<string> {
  return new Set(
    deps.queues.events
      .drain()
      .map((b) => JSON.parse(b) as { type: string; data: { objectId: string } })
      .filter((e) => e.type === 'vault.ingest.completed')
      .map((e) => e.data.objectId),
  );
}

async function documents(linkId: string) {
  const all = [];
  for (let offset = 0; ; offset += 200) {
    const page = await listLinkDocuments(deps, ORG, linkId, { limit: 200, offset });
    all.push(...page.data);
    if (!page.has_more) return all;
  }
}

describe('an import run', () => {
  it('walks the changes feed a page per message and counts every file once', async () => {
    const { matterId, linkId } = await linked('acct-unit-pages');
    await sandboxPost('/__sandbox/seed', {
      provider: 'practice',
      account_id: 'acct-unit-pages',
      container_id: matterId,
      count: 230,
    });
    const run = await startRun(deps, ORG, linkId, 'api', log);
    const messages = await drive();
    const done = await job(run.id);
    expect(done).toMatchObject({
      status: 'succeeded',
      counts: { imported: done.counts.listed, updated: 0, unchanged: 0, failed: 0 },
    });
    expect(done.counts.listed).toBeGreaterThan(230);
    expect(messages).toBe(Math.ceil(done.counts.listed / 100));
    expect(await documents(linkId)).toHaveLength(done.counts.listed);
    const link = (await Links.of(deps).get(linkId))!;
    expect(link).toMatchObject({
      cursor: expect.any(String),
      lastRun: { jobId: run.id, status: 'succeeded' },
    });
    expect(link.activeRunId).toBeUndefined();
  });

  it('counts a file over the size limit failed (too_large) and stores nothing of it', async () => {
    const { matterId, linkId } = await linked('acct-unit-too-large');
    await sandboxPost('/__sandbox/files', {
      provider: 'practice',
      account_id: 'acct-unit-too-large',
      container_id: matterId,
      name: 'Exhibit scan.pdf',
      size: 4096,
    });
    // The worker as deployed, with a 2 KiB limit instead of 1 GiB.
    worker = (async (event: SQSEvent) => {
      for (const { body } of event.Records)
        await runSyncStep(
          connectorContext(deps, config, { log }),
          stepMessageSchema().parse(JSON.parse(body)),
          {
            maxFileBytes: 2048,
          },
        );
      return { batchItemFailures: [] };
    }) as unknown as typeof worker;
    const run = await startRun(deps, ORG, linkId, 'api', log);
    await drive();
    const done = await job(run.id);
    expect(done).toMatchObject({
      status: 'succeeded',
      counts: { imported: done.counts.listed - 1, failed: 1 },
      failures: [{ item_id: expect.any(String), name: 'Exhibit scan.pdf', reason: 'too_large' }],
    });
    const stored = await documents(linkId);
    expect(stored).toHaveLength(done.counts.listed - 1);
    expect(stored.every((d) => d.status === 'imported')).toBe(true);
    expect(stored.map((d) => d.source.name)).not.toContain('Exhibit scan.pdf');
  });

  it('cuts off a file that declares no size at the limit as it streams: too_large, no entry left', async () => {
    const { matterId, linkId } = await linked('acct-unit-undeclared');
    const exhibit = await sandboxPost('/__sandbox/files', {
      provider: 'practice',
      account_id: 'acct-unit-undeclared',
      container_id: matterId,
      name: 'Undeclared scan.pdf',
      size: 3 * 1024 * 1024,
    });
    // A provider that lists the file without a size and sends it without Content-Length.
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const response = await realFetch(input, init);
      const url = String(input instanceof Request ? input.url : input);
      if (url.includes(`/documents/${String(exhibit.id)}/content`)) {
        const headers = new Headers(response.headers);
        headers.delete('content-length');
        return new Response(response.body, { status: response.status, headers });
      }
      if (!response.headers.get('content-type')?.includes('json')) return response;
      const body = (await response.json()) as { data?: { id: string; size?: number }[] };
      for (const doc of body.data ?? []) if (doc.id === exhibit.id) delete doc.size;
      return Response.json(body, { status: response.status, headers: response.headers });
    }) as typeof fetch;
    worker = (async (event: SQSEvent) => {
      for (const { body } of event.Records)
        await runSyncStep(
          connectorContext(deps, config, { log }),
          stepMessageSchema().parse(JSON.parse(body)),
          {
            maxFileBytes: 1024 * 1024,
          },
        );
      return { batchItemFailures: [] };
    }) as unknown as typeof worker;
    const run = await startRun(deps, ORG, linkId, 'api', log);
    try {
      await drive();
    } finally {
      globalThis.fetch = realFetch;
    }
    const done = await job(run.id);
    expect(done).toMatchObject({
      status: 'succeeded',
      counts: { imported: done.counts.listed - 1, failed: 1 },
      failures: [{ item_id: exhibit.id, name: 'Undeclared scan.pdf', reason: 'too_large' }],
    });
    const stored = await documents(linkId);
    expect(stored).toHaveLength(done.counts.listed - 1);
    expect(stored.every((d) => d.status === 'imported')).toBe(true);
    expect(stored.map((d) => d.source.id)).not.toContain(exhibit.id);
    const ref = {
      organizationId: ORG,
      vaultId: VAULT,
      objectId: importedObjectId(linkId, String(exhibit.id)),
    };
    expect(await deps.vault.get(ref)).toBeUndefined();
  });

  it('resumes after a worker crash before its commit without importing or counting anything twice', async () => {
    const { matterId, linkId } = await linked('acct-unit-crash');
    await sandboxPost('/__sandbox/seed', {
      provider: 'practice',
      account_id: 'acct-unit-crash',
      container_id: matterId,
      count: 40,
    });
    const puts: string[] = [];
    const put = deps.vault.put.bind(deps.vault);
    deps.vault.put = async (write: VaultWrite) => {
      puts.push(write.objectId);
      return put(write);
    };
    // The first commit dies with the process (the message is redelivered with the same ticket).
    const update = deps.tables.connectors.update.bind(deps.tables.connectors);
    let crashed = false;
    deps.tables.connectors.update = (async (key, change, condition) => {
      if (!crashed && key.pk.startsWith('JOB#') && change.add?.listed) {
        crashed = true;
        throw new Error('worker killed before its commit');
      }
      return update(key, change, condition);
    }) as typeof deps.tables.connectors.update;
    const run = await startRun(deps, ORG, linkId, 'api', log);
    await drive();
    expect(crashed).toBe(true);
    const done = await job(run.id);
    expect(done).toMatchObject({
      status: 'succeeded',
      counts: { imported: done.counts.listed, unchanged: 0 },
    });
    expect(new Set(puts).size).toBe(done.counts.listed); // each document written once
    expect(puts).toHaveLength(done.counts.listed);
    const ingest = deps.queues.events
      .drain()
      .map((b) => JSON.parse(b) as { id: string; type: string })
      .filter((e) => e.type === 'vault.ingest.completed');
    expect(new Set(ingest.map((e) => e.id)).size).toBe(done.counts.listed);
  });

  it("announces a page's documents in one batch, before the step commits", async () => {
    const { matterId, linkId } = await linked('acct-unit-batch');
    await sandboxPost('/__sandbox/seed', {
      provider: 'practice',
      account_id: 'acct-unit-batch',
      container_id: matterId,
      count: 40,
    });
    const events = deps.queues.events;
    const sent: { batch: number; ingest: number; committed: boolean }[] = [];
    let committed = false;
    const update = deps.tables.connectors.update.bind(deps.tables.connectors);
    deps.tables.connectors.update = (async (key, change, condition) => {
      if (key.pk.startsWith('JOB#') && change.add?.listed) committed = true;
      return update(key, change, condition);
    }) as typeof deps.tables.connectors.update;
    const ingestIn = (bodies: string[]) =>
      bodies.filter((b) => (JSON.parse(b) as { type: string }).type === 'vault.ingest.completed').length;
    let inBatch = false; // the local queue's sendBatch sends each message with send
    const send = events.send.bind(events);
    events.send = async (message) => {
      if (!inBatch) sent.push({ batch: 1, ingest: ingestIn([message.body]), committed });
      return send(message);
    };
    const sendBatch = events.sendBatch.bind(events);
    events.sendBatch = async (messages) => {
      sent.push({ batch: messages.length, ingest: ingestIn(messages.map((m) => m.body)), committed });
      inBatch = true;
      try {
        return await sendBatch(messages);
      } finally {
        inBatch = false;
      }
    };
    const run = await startRun(deps, ORG, linkId, 'api', log);
    expect(await drive()).toBe(1);
    const done = await job(run.id);
    expect(done).toMatchObject({ status: 'succeeded', counts: { imported: done.counts.listed } });
    const announcing = sent.filter((s) => s.ingest > 0);
    // Batch sends of ten (it was one send per document), every one before the step's commit.
    expect(announcing.map((s) => s.batch)).toEqual(
      Array.from({ length: Math.ceil(done.counts.listed / 10) }, (_, i) =>
        Math.min(10, done.counts.listed - 10 * i),
      ),
    );
    expect(announcing.every((s) => s.ingest === s.batch && !s.committed)).toBe(true);
  });

  it('announces again what an attempt stored when it stopped before its events left', async () => {
    const { matterId, linkId } = await linked('acct-unit-announce');
    await sandboxPost('/__sandbox/seed', {
      provider: 'practice',
      account_id: 'acct-unit-announce',
      container_id: matterId,
      count: 40,
    });
    failFirstAnnouncement();
    const run = await startRun(deps, ORG, linkId, 'api', log);
    await drive();
    const done = await job(run.id);
    expect(done).toMatchObject({ status: 'succeeded', counts: { imported: done.counts.listed } });
    const events = announced();
    expect(events).toEqual(new Set((await documents(linkId)).map((d) => d.document_id)));
    expect(events.size).toBe(done.counts.listed);
  });

  it('announces what the step stored when the run ends at it before its events left (the link deleted)', async () => {
    const { matterId, linkId } = await linked('acct-unit-announce-end');
    await sandboxPost('/__sandbox/seed', {
      provider: 'practice',
      account_id: 'acct-unit-announce-end',
      container_id: matterId,
      count: 40,
    });
    failFirstAnnouncement();
    const run = await startRun(deps, ORG, linkId, 'api', log);
    await drive({ maxMessages: 1 }); // stored documents, and the announcement failed
    const stored = new Set((await documents(linkId)).map((d) => d.document_id));
    expect(stored.size).toBeGreaterThan(0);
    await Links.of(deps).delete(linkId);
    await drive();
    const done = await job(run.id);
    expect(done).toMatchObject({ status: 'failed', reason: 'link_deleted' });
    expect(done.counts.imported).toBe(stored.size);
    expect(announced()).toEqual(stored);
  });

  it('imports again a file deleted at the provider and restored at the very version it had, not taking it for unchanged', async () => {
    const account = 'acct-unit-restored';
    const { linkId } = await linked(account, { onSourceDelete: 'remove' });
    await startRun(deps, ORG, linkId, 'api', log);
    await drive();
    const [file] = await documents(linkId);
    const ref = { organizationId: ORG, vaultId: VAULT, objectId: file!.document_id };
    const deleted = await fetch(
      `${sandbox.url}/__sandbox/files/practice/${account}/${encodeURIComponent(file!.source.id)}`,
      { method: 'DELETE' },
    );
    expect(deleted.status).toBe(204);
    const removal = await startRun(deps, ORG, linkId, 'api', log);
    await drive();
    expect((await job(removal.id)).counts.deleted).toBe(1);
    expect(await deps.vault.get(ref)).toBeUndefined();

    // Back under its id at the version the ledger holds (a restore answering the old version).
    const restored = await sandboxPost('/__sandbox/restore', {
      provider: 'practice',
      account_id: account,
      file_id: file!.source.id,
    });
    expect(String(restored.version)).toBe(String(file!.source.version));
    const full = await startRun(deps, ORG, linkId, 'api', log, 'full');
    await drive();
    expect((await job(full.id)).counts).toMatchObject({ imported: 1, updated: 0, deleted: 0, failed: 0 });
    const back = (await documents(linkId)).find((d) => d.source.id === file!.source.id);
    expect(back).toMatchObject({ document_id: file!.document_id, status: 'imported' });
    expect(await deps.vault.get(ref)).toBeDefined();
  });

  it.each([
    ['the changes feed reports it', 'changes'],
    ['a full run reconciles it (moved out of the source)', 'full'],
  ] as const)(
    'counts and announces a file gone from the source once when %s and the commit dies',
    async (_name, mode) => {
      const account = `acct-unit-gone-${mode}`;
      const { connectionId, matterId, linkId } = await linked(account);
      await startRun(deps, ORG, linkId, 'api', log);
      await drive();
      const [gone] = await documents(linkId);
      if (mode === 'changes') {
        const response = await fetch(
          `${sandbox.url}/__sandbox/files/practice/${account}/${encodeURIComponent(gone!.source.id)}`,
          { method: 'DELETE' },
        );
        expect(response.status).toBe(204);
      } else {
        const other = (
          await browseSources(connectorContext(deps, config, { log: log }), ORG, connectionId, { limit: 2 })
        ).data[1]!;
        expect(other.id).not.toBe(matterId);
        await sandboxPost('/__sandbox/move', {
          provider: 'practice',
          account_id: account,
          file_id: gone!.source.id,
          container_id: other.id,
          name: 'Moved away.txt',
        });
      }
      deps.queues.events.drain();
      // The commit of the step that counted the deletion dies with the process (redelivered as it was).
      const update = deps.tables.connectors.update.bind(deps.tables.connectors);
      let crashed = false;
      deps.tables.connectors.update = (async (key, change, condition) => {
        if (!crashed && key.pk.startsWith('JOB#') && change.add?.deleted) {
          crashed = true;
          throw new Error('worker killed before its commit');
        }
        return update(key, change, condition);
      }) as typeof deps.tables.connectors.update;
      const run = await startRun(deps, ORG, linkId, 'api', log, mode);
      await drive();
      expect(crashed).toBe(true);
      const done = await job(run.id);
      expect(done).toMatchObject({ status: 'succeeded', counts: { deleted: 1, imported: 0, updated: 0 } });
      expect((await documents(linkId)).find((d) => d.document_id === gone!.document_id)!.status).toBe(
        'deleted_at_source',
      );
      const announced = deps.queues.events
        .drain()
        .map((b) => JSON.parse(b) as { id: string; type: string; data: { objectId: string } })
        .filter((e) => e.type === 'connector.document.deleted');
      expect(announced.length).toBeGreaterThan(0);
      expect(new Set(announced.map((e) => e.id)).size).toBe(1);
      expect(announced[0]!.data.objectId).toBe(gone!.document_id);
    },
  );

  it('counts and stores every file once when two copies of one step run at once (SQS at-least-once)', async () => {
    const { matterId, linkId } = await linked('acct-unit-twice');
    await sandboxPost('/__sandbox/seed', {
      provider: 'practice',
      account_id: 'acct-unit-twice',
      container_id: matterId,
      count: 150,
    });
    const puts: string[] = [];
    const put = deps.vault.put.bind(deps.vault);
    deps.vault.put = async (write: VaultWrite) => {
      puts.push(write.objectId);
      return put(write);
    };
    // The two copies reach their commit together: the first waits (up to 200 ms) for the second.
    const update = deps.tables.connectors.update.bind(deps.tables.connectors);
    let waiting: (() => void) | undefined;
    deps.tables.connectors.update = (async (key, change, condition) => {
      if (key.pk.startsWith('JOB#') && change.add?.listed) {
        if (waiting) waiting();
        else
          await new Promise<void>((resolve) => {
            waiting = resolve;
            setTimeout(resolve, 200);
          });
        waiting = undefined;
      }
      return update(key, change, condition);
    }) as typeof deps.tables.connectors.update;
    const run = await startRun(deps, ORG, linkId, 'api', log);
    // Every step's message is delivered twice at once, as SQS may (two Lambdas take one message).
    for (let round = 0; round < 20; round++) {
      const bodies = deps.queues.syncs.drain();
      if (!bodies.length) {
        if (deps.queues.syncs.size === 0) break;
        clock.advance(15_000);
        continue;
      }
      for (const body of bodies) {
        const answers = await Promise.all([
          worker({ Records: [record(body)] }),
          worker({ Records: [record(body)] }),
        ]);
        if (answers.some((a) => a.batchItemFailures.length)) await deps.queues.syncs.send({ body });
      }
    }
    await drive();
    const done = await job(run.id);
    expect(done).toMatchObject({
      status: 'succeeded',
      counts: { imported: done.counts.listed, updated: 0, unchanged: 0, failed: 0 },
    });
    expect(done.counts.listed).toBeGreaterThan(150);
    const stored = await documents(linkId);
    expect(stored).toHaveLength(done.counts.listed);
    expect(new Set(puts).size).toBe(done.counts.listed);
    const ingest = deps.queues.events
      .drain()
      .map((b) => JSON.parse(b) as { type: string; data: { objectId: string } })
      .filter((e) => e.type === 'vault.ingest.completed');
    expect(new Set(ingest.map((e) => e.data.objectId)).size).toBe(done.counts.listed);
  });

  it('counts in a failed run exactly the documents it stored and announced before failing', async () => {
    const { matterId, linkId } = await linked('acct-unit-undercount');
    await sandboxPost('/__sandbox/seed', {
      provider: 'practice',
      account_id: 'acct-unit-undercount',
      container_id: matterId,
      count: 60,
    });
    const put = deps.vault.put.bind(deps.vault);
    let writes = 0;
    deps.vault.put = async (write: VaultWrite) => {
      // Mid-page the user removes the app at the provider: the next downloads answer 401.
      if (++writes === 7)
        await sandboxPost('/__sandbox/revoke-grants', {
          provider: 'practice',
          account_id: 'acct-unit-undercount',
        });
      return put(write);
    };
    const metrics = recordMetrics();
    const run = await startRun(deps, ORG, linkId, 'api', log);
    await drive().finally(metrics.stop);
    const done = await job(run.id);
    expect(done).toMatchObject({ status: 'failed', reason: 'reauth_required' });
    // The failure is a metric of its own, which the SyncRunsFailed alarm reads by name.
    expect(metrics.records).toContainEqual(expect.objectContaining({ SyncRuns: 1, SyncRunsFailed: 1 }));
    const stored = (await documents(linkId)).filter((d) => d.status === 'imported');
    expect(stored.length).toBeGreaterThanOrEqual(7);
    const ingest = deps.queues.events
      .drain()
      .map((b) => JSON.parse(b) as { type: string; data: { objectId: string } })
      .filter((e) => e.type === 'vault.ingest.completed');
    expect(new Set(ingest.map((e) => e.data.objectId)).size).toBe(stored.length);
    expect(done.counts.imported).toBe(stored.length);
  });

  it('opens the access token once for a step of many files, and again once it was held TOKEN_REUSE_MS', async () => {
    const { matterId, linkId } = await linked('acct-unit-token-reuse');
    await sandboxPost('/__sandbox/seed', {
      provider: 'practice',
      account_id: 'acct-unit-token-reuse',
      container_id: matterId,
      count: 60,
    });
    const decrypt = deps.keys.decryptDataKey.bind(deps.keys);
    let opened = 0;
    deps.keys.decryptDataKey = (...args) => {
      opened++;
      return decrypt(...args);
    };
    const put = deps.vault.put.bind(deps.vault);
    let writes = 0;
    deps.vault.put = async (write: VaultWrite) => {
      if (++writes === 20) clock.advance(TOKEN_REUSE_MS); // the held token is read again after this
      return put(write);
    };
    const run = await startRun(deps, ORG, linkId, 'api', log);
    expect(await drive()).toBe(1); // one step: the feed page and every download
    const done = await job(run.id);
    expect(done).toMatchObject({ status: 'succeeded', counts: { failed: 0 } });
    expect(done.counts.imported).toBeGreaterThanOrEqual(60);
    // Per file this was one open (and two table reads) each: 60 and more.
    expect(opened).toBe(2);
  });

  it('runs a step again when it runs out of time mid-page, keeping the counts exact', async () => {
    const { matterId, linkId } = await linked('acct-unit-deadline');
    await sandboxPost('/__sandbox/seed', {
      provider: 'practice',
      account_id: 'acct-unit-deadline',
      container_id: matterId,
      count: 20,
    });
    const get = deps.vault.put.bind(deps.vault);
    let writes = 0;
    deps.vault.put = async (write: VaultWrite) => {
      if (++writes === 6) clock.advance(10 * 60_000); // a slow file: the step's budget is spent
      return get(write);
    };
    const run = await startRun(deps, ORG, linkId, 'api', log);
    const messages = await drive();
    const done = await job(run.id);
    expect(messages).toBeGreaterThan(1);
    expect(done).toMatchObject({
      status: 'succeeded',
      counts: { imported: done.counts.listed, unchanged: 0 },
    });
    expect(writes).toBe(done.counts.listed);
  });

  it('waits out 5xx answers with backoff, and fails as provider_unavailable when they go on', async () => {
    const { linkId } = await linked('acct-unit-5xx');
    await sandboxPost('/__sandbox/next-api-error', { provider: 'practice', status: 503, count: 2 });
    const first = await startRun(deps, ORG, linkId, 'api', log);
    await drive({ maxMessages: 1 });
    expect(await job(first.id)).toMatchObject({ status: 'processing', waiting: { reason: 'retrying' } });
    await drive();
    expect(await job(first.id)).toMatchObject({ status: 'succeeded' });

    // One answer per attempt: every attempt a run makes fails.
    await sandboxPost('/__sandbox/next-api-error', {
      provider: 'practice',
      status: 500,
      count: TRANSIENT_ATTEMPTS,
    });
    const second = await startRun(deps, ORG, linkId, 'api', log);
    await drive();
    expect(await job(second.id)).toMatchObject({ status: 'failed', reason: 'provider_unavailable' });
    await sandboxPost('/__sandbox/next-api-error', { provider: 'practice', status: 500, count: 0 }).catch(
      () => undefined,
    );
  });

  it("drops a message whose ticket is not the job's current one", async () => {
    const { linkId } = await linked('acct-unit-ticket');
    const run = await startRun(deps, ORG, linkId, 'api', log);
    const [body] = deps.queues.syncs.drain();
    const stale = JSON.stringify({ ...JSON.parse(body!), ticket: 0 });
    await worker({ Records: [record(stale)] });
    expect(await job(run.id)).toMatchObject({ status: 'processing', counts: { listed: 0 } });
    await deps.queues.syncs.send({ body: body! });
    await drive();
    expect((await job(run.id)).status).toBe('succeeded');
  });

  it('returns the run in flight to a second start, and refuses a start while the provider is off', async () => {
    const { linkId } = await linked('acct-unit-one');
    const first = await startRun(deps, ORG, linkId, 'api', log);
    expect(await startRun(deps, ORG, linkId, 'api', log)).toMatchObject({ id: first.id, started: false });
    await setProviderEnabled({ tables: deps.tables, clock }, ORG, 'practice', false);
    await drive(); // in flight: finishes
    expect((await job(first.id)).status).toBe('succeeded');
    await expect(startRun(deps, ORG, linkId, 'api', log)).rejects.toBeInstanceOf(ConflictError);
  });
});

describe('the sync sweep', () => {
  it('starts a scheduled link when due, skips it (recorded) while the provider is off, and resumes', async () => {
    const { linkId } = await linked('acct-unit-schedule', { schedule: 15 });
    expect((await runSyncSweep(deps, { log })).started).toBe(1);
    await drive();
    let link = (await Links.of(deps).get(linkId))!;
    expect(link.lastRun).toMatchObject({ status: 'succeeded' });
    expect(link.nextRunAt).toBeGreaterThan(clock.now());

    expect((await runSyncSweep(deps, { log })).started ?? 0).toBe(0); // not due yet
    await setProviderEnabled({ tables: deps.tables, clock }, ORG, 'practice', false);
    clock.advance(16 * 60_000);
    expect((await runSyncSweep(deps, { log })).skipped).toBe(1);
    link = (await Links.of(deps).get(linkId))!;
    expect(link.lastSkip).toMatchObject({ reason: 'provider_disabled' });
    expect(link.nextRunAt).toBeGreaterThan(clock.now());

    await setProviderEnabled({ tables: deps.tables, clock }, ORG, 'practice', true);
    clock.advance(16 * 60_000);
    expect((await runSyncSweep(deps, { log })).started).toBe(1);
    await drive();
  });

  it('re-drives a job whose message was lost, once nothing advanced it for a while', async () => {
    const { linkId } = await linked('acct-unit-lost');
    const run = await startRun(deps, ORG, linkId, 'api', log);
    deps.queues.syncs.drain(); // the message is lost
    expect((await runSyncSweep(deps, { log })).redriven ?? 0).toBe(0);
    clock.advance(STALE_JOB_MS + 1_000);
    expect((await runSyncSweep(deps, { log })).redriven).toBe(1);
    await drive();
    expect((await job(run.id)).status).toBe('succeeded');
  });

  it('re-drives at a restart of the single process every job it left in flight, without waiting', async () => {
    const lost = await startRun(deps, ORG, (await linked('acct-unit-restart-lost')).linkId, 'api', log);
    deps.queues.syncs.drain(); // killed between the job's write and its message
    const heldLink = (await linked('acct-unit-restart-held')).linkId;
    const held = await startRun(deps, ORG, heldLink, 'api', log);
    const [heldMessage] = deps.queues.syncs.drain(); // in the dead worker's hands, handed back at start
    // A job that waits out a rate limit goes back to its wait; one that is done is left alone.
    const waiting = await startRun(deps, ORG, (await linked('acct-unit-restart-wait')).linkId, 'api', log);
    await sandboxPost('/__sandbox/next-api-error', { provider: 'practice', status: 429, retry_after: 600 });
    await worker({ Records: [record(deps.queues.syncs.drain()[0]!)] });
    expect((await job(waiting.id)).waiting?.reason).toBe('throttled');

    expect(await redriveAbandonedJobs(deps, log)).toBe(3);
    // The message the dead process held is stale now: the step runs once, under the new ticket.
    const { batchItemFailures } = await worker({ Records: [record(heldMessage!)] });
    expect(batchItemFailures).toEqual([]);
    const due = deps.queues.syncs.drain();
    expect(due).toHaveLength(3);
    for (const body of due) await worker({ Records: [record(body)] });
    expect((await job(lost.id)).status).toBe('succeeded');
    // Counted once: the stale copy did nothing.
    expect((await job(held.id)).counts.imported).toBe((await documents(heldLink)).length);
    expect((await job(held.id)).status).toBe('succeeded');
    expect((await job(waiting.id)).status).toBe('processing'); // back to its wait, a delayed message
    expect(deps.queues.syncs.drain()).toEqual([]);
    await drive();
    expect((await job(waiting.id)).status).toBe('succeeded');
  });
});

describe('an export', () => {
  it('uploads each document once, gives a second document of the same name its own file, and reports missing ones', async () => {
    const { linkId } = await linked('acct-unit-export-src');
    const run = await startRun(deps, ORG, linkId, 'api', log);
    await drive();
    expect((await job(run.id)).status).toBe('succeeded');
    const imported = await documents(linkId);
    const ids = imported.map((d) => d.document_id);
    // Another document of the vault with the same name as the first: it must not overwrite that file.
    await deps.vault.put({
      organizationId: ORG,
      vaultId: VAULT,
      objectId: 'doc_namesake',
      name: imported[0]!.source.name,
      contentType: 'text/plain',
      content: Readable.from(['another document, same name\n']),
    });
    ids.push('doc_namesake');

    const drive_ = await connectInProcess(deps, config, {
      organizationId: ORG,
      account: 'acct-unit-export-dst',
      provider: 'drive',
      baseUrl: BASE_URL,
    });
    const folder = (
      await browseSources(connectorContext(deps, config, { log: log }), ORG, drive_, { limit: 50 })
    ).data.find((s) => s.kind === 'container')!;
    const exported = await startExport(connectorContext(deps, config, { log: log }), ORG, drive_, {
      vault_id: VAULT,
      document_ids: [...ids, 'doc_gone'],
      destination: { id: folder.id },
    });
    await drive();
    expect(await job(exported.id)).toMatchObject({
      status: 'succeeded',
      counts: { requested: ids.length + 1, exported: ids.length, unchanged: 0, failed: 1 },
      failures: [{ document_id: 'doc_gone', reason: 'document_not_found' }],
    });
    const listing = (await (
      await fetch(
        `${sandbox.url}/__sandbox/files?provider=drive&account_id=acct-unit-export-dst&container_id=${folder.id}`,
      )
    ).json()) as { files: { name: string }[] };
    const names = listing.files.map((f) => f.name);
    expect(names).toEqual(
      expect.arrayContaining([imported[0]!.source.name, numberedName(imported[0]!.source.name, 2)]),
    );
    const again = await startExport(connectorContext(deps, config, { log: log }), ORG, drive_, {
      vault_id: VAULT,
      document_ids: ids,
      destination: { id: folder.id },
    });
    await drive();
    expect(await job(again.id)).toMatchObject({ counts: { exported: 0, unchanged: ids.length } });
  });

  it('keeps the counts of the documents done when the export stops after them (the grant revoked)', async () => {
    const { linkId } = await linked('acct-unit-export-stop');
    const run = await startRun(deps, ORG, linkId, 'api', log);
    await drive();
    expect((await job(run.id)).status).toBe('succeeded');
    const ids = (await documents(linkId)).map((d) => d.document_id).slice(0, 3);
    expect(ids).toHaveLength(3);
    const target = await connectInProcess(deps, config, {
      organizationId: ORG,
      account: 'acct-unit-export-stop-dst',
      provider: 'drive',
      baseUrl: BASE_URL,
    });
    const folder = (
      await browseSources(connectorContext(deps, config, { log: log }), ORG, target, { limit: 50 })
    ).data.find((s) => s.kind === 'container')!;
    const exported = await startExport(connectorContext(deps, config, { log: log }), ORG, target, {
      vault_id: VAULT,
      document_ids: ids,
      destination: { id: folder.id },
    });
    // The user removes the app at the provider right after the first upload lands.
    const realFetch = globalThis.fetch;
    let revoked = false;
    globalThis.fetch = async (input, init) => {
      const response = await realFetch(input, init);
      if (!revoked && init?.method === 'PUT' && String(input).includes('/files/') && response.ok) {
        revoked = true;
        await sandboxPost('/__sandbox/revoke-grants', {
          provider: 'drive',
          account_id: 'acct-unit-export-stop-dst',
        });
      }
      return response;
    };
    const metrics = recordMetrics();
    try {
      await drive();
    } finally {
      globalThis.fetch = realFetch;
      metrics.stop();
    }
    expect(revoked).toBe(true);
    expect(metrics.records).toContainEqual(expect.objectContaining({ ExportJobs: 1, ExportJobsFailed: 1 }));
    expect(await job(exported.id)).toMatchObject({
      status: 'failed',
      reason: 'reauth_required',
      counts: { requested: 3, exported: 1, unchanged: 0, skipped: 0, failed: 0 },
    });
  });

  it('refuses an export when the grant lacks the upload scope', async () => {
    // A deployment whose tier does not ask for files.write: the grant cannot upload.
    const readOnly = await connectInProcess(deps, config, {
      organizationId: ORG,
      account: 'acct-unit-ro',
      provider: 'drive',
      baseUrl: BASE_URL,
    });
    const tokens = (await deps.tables.connectors.get<{ pk: string; sk: string; scopes: string[] }>({
      pk: `CONN#${readOnly}`,
      sk: 'TOKENS',
    }))!;
    await deps.tables.connectors.update(
      { pk: tokens.pk, sk: tokens.sk },
      { set: { scopes: tokens.scopes.filter((s) => s !== 'files.write') } },
    );
    await expect(
      startExport(connectorContext(deps, config, { log: log }), ORG, readOnly, {
        vault_id: VAULT,
        document_ids: ['doc_x'],
        destination: { id: 'root' },
      }),
    ).rejects.toThrow(/files.write/);
  });
});

describe('sync policy', () => {
  it('backs off 15 s doubling to 15 minutes, and waits in hops of at most 15 minutes', () => {
    expect([1, 2, 3, 7, 20].map(backoffSeconds)).toEqual([15, 30, 60, 900, 900]);
    expect(hopDelaySeconds(10_000 + 3_600_000, 10_000)).toBe(900);
    expect(hopDelaySeconds(10_000 + 2_500, 10_000)).toBe(3);
    expect(hopDelaySeconds(5_000, 10_000)).toBe(0);
  });

  it('reads provider answers: 5xx and no answer pass, 401 needs the user, 403 and 404 end the run', () => {
    expect(classifyApiStatus(undefined)).toEqual({ kind: 'transient' });
    expect(classifyApiStatus(503)).toEqual({ kind: 'transient' });
    expect(classifyApiStatus(401)).toEqual({ kind: 'unusable', reason: 'reauth_required' });
    expect(classifyApiStatus(403, 'insufficient_scope')).toEqual({
      kind: 'fatal',
      reason: 'insufficient_scope',
    });
    expect(classifyApiStatus(404)).toEqual({ kind: 'fatal', reason: 'source_not_found' });
    expect(classifyApiStatus(422)).toEqual({ kind: 'fatal', reason: 'provider_refused' });
  });
});
