// What a reconcile costs: a link of BENCH_RECONCILE_FILES (10,000) unchanged small files at the
// sandbox's practice API, imported once, then run full (the pass over every file, then the reconcile of
// the link's ledger) with nothing changed at the provider. Counted: the provider requests the run made
// (by kind: listing, download, other; seen on undici's request channel, which the global fetch reports),
// its seconds, and the ledger entries it wrote (each file's seen mark). Local runtime (createLocalDeps on
// a data directory, the syncs queue and its worker as `npm start` runs them), the sandbox in its own process.
// `npm run bench -- reconcile`; BENCH_RESULTS_DIR writes the results elsewhere (a smoke run).
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalDeps } from '../functions/compose/local';
import { getConnectorJob } from '../functions/connectors/app/job-status';
import { startRun } from '../functions/connectors/app/sync-runs';
import { SYNC_PAGE_SIZE } from '../functions/connectors/domain/sync-policy';
import { Ledger } from '../functions/connectors/infra/repositories/ledger';
import { attachLocalWorkers, stopLocalWorkers } from '../functions/dev-runtime/server/workers';
import { handlerLoader } from '../functions/dev-runtime/server/lambda-runtime';
import { Logger } from '../functions/platform/logger';
import { SandboxProcess, seededLink } from './import';
import { watchMachine } from './machine';

const FILES = Number(process.env.BENCH_RECONCILE_FILES ?? 10_000);
const ORG = 'org_benchreconcileaaaaa';
const BASE_URL = 'http://localhost:3998';
const RESULTS = process.env.BENCH_RESULTS_DIR ?? join(import.meta.dirname ?? 'bench', 'results');
const quiet = new Logger({}, 'error');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Provider requests by kind while `work` runs, from undici's request channel. */
async function countRequests<T>(apiOrigin: string, work: () => Promise<T>) {
  const requests = { listing: 0, download: 0, other: 0 };
  const otherPaths = new Set<string>();
  const onCreate = (message: unknown) => {
    const { origin, path } = (message as { request: { origin: string; path: string } }).request;
    if (!String(origin).startsWith(apiOrigin)) return;
    const route = path.split('?')[0]!;
    if (/\/content$|\/download$/.test(route)) requests.download++;
    else if (/\/(changes|children|documents|delta)$/.test(route)) requests.listing++;
    else {
      requests.other++;
      otherPaths.add(route.replace(/[^/]+$/, '{id}'));
    }
  };
  subscribe('undici:request:create', onCreate);
  try {
    return { result: await work(), requests: { ...requests, otherPaths: [...otherPaths] } };
  } finally {
    unsubscribe('undici:request:create', onCreate);
  }
}

async function runToEnd(deps: ReturnType<typeof createLocalDeps>, linkId: string, mode: 'changes' | 'full') {
  const run = await startRun(deps, ORG, linkId, 'api', quiet, mode);
  let job: { status: string; mode: string; counts: Record<string, number> };
  do {
    await sleep(20);
    job = (await getConnectorJob(deps, ORG, run.id)) as unknown as typeof job;
  } while (job.status === 'processing');
  if (job.status !== 'succeeded') throw new Error(`the run ended ${job.status}`);
  return { id: run.id, ...job };
}

export async function runReconcileBench(): Promise<void> {
  const machine = watchMachine();
  const sandbox = SandboxProcess.start();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-reconcile-'));
  const deps = createLocalDeps({ dataDir });
  attachLocalWorkers(deps, handlerLoader(deps));
  try {
    const { url, env } = await sandbox.startRegistered(BASE_URL);
    const apiOrigin = new URL(env.PROVIDER_PRACTICE_API_URL!).origin;
    const { connectionId, linkId } = await seededLink(deps, url, BASE_URL, ORG, FILES, 'vlt_bench_reconcile');
    const first = await runToEnd(deps, linkId, 'changes');
    const started = performance.now();
    const cpu = process.cpuUsage();
    const { result: full, requests } = await countRequests(apiOrigin, () => runToEnd(deps, linkId, 'full'));
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    let marked = 0;
    let entries = 0;
    for await (const entry of Ledger.of(deps).linkEntries(connectionId, linkId)) {
      entries++;
      if (entry.seenByJobId === full.id) marked++;
    }
    const result = {
      date: new Date().toISOString(),
      machine: `${process.platform} ${process.arch}, node ${process.version}`,
      load: machine.end(),
      files: FILES,
      pageSize: SYNC_PAGE_SIZE,
      firstRun: first.counts,
      fullRun: {
        mode: full.mode,
        counts: full.counts,
        seconds: Number(seconds.toFixed(2)),
        cpuSeconds: Number(((used.user + used.system) / 1e6).toFixed(2)),
        requests,
        ledgerEntries: entries,
        ledgerEntriesWritten: marked,
      },
    };
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(join(RESULTS, 'reconcile.json'), `${JSON.stringify(result, null, 2)}\n`);
    writeFileSync(
      join(RESULTS, 'reconcile.md'),
      [
        `# Reconcile of ${FILES} unchanged files (practice sandbox, local runtime)`,
        '',
        `${result.date}; ${result.machine}; load ${JSON.stringify(result.load)}`,
        '',
        '| full run, nothing changed | value |',
        '|---|---|',
        `| seconds | ${result.fullRun.seconds} |`,
        `| CPU seconds (this process) | ${result.fullRun.cpuSeconds} |`,
        `| listing requests (the container check, then ${SYNC_PAGE_SIZE} files a page) | ${requests.listing} |`,
        `| downloads | ${requests.download} |`,
        `| other requests | ${requests.other} |`,
        `| ledger entries written (seen marks) | ${marked} of ${entries} |`,
        `| counts | ${JSON.stringify(full.counts)} |`,
        '',
      ].join('\n'),
    );
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await stopLocalWorkers(deps, 5_000);
    sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
