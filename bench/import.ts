// Import benchmark on the local runtime (createLocalDeps on a data directory: journaled tables, files
// for vault content, the syncs queue and its worker as `npm start` runs them), against the sandbox
// provider in its own process. An import run of FILES small files from one matter, against its baseline
// measured in the same run: a raw loop doing the same transfer plainly (the same changes feed, page size
// and download concurrency, each file written to disk), with an access token of the same account. Then
// an incremental run of the same link after 1% of the files changed, and large files (BENCH_LARGE_FILES
// files of BENCH_LARGE_BYTES, 20 of 100 MiB by default: enough bytes that a run's fixed costs are not
// what is measured) imported in BENCH_LARGE_ROUNDS rounds interleaved with the raw download of the same
// files in the same run, with CPU per MiB and the peak RSS of each (sampled). Then each provider's fake
// against its own raw loop (./import-providers.ts,
// BENCH_PROVIDER_FILES and BENCH_PROVIDER_FILE_BYTES; BENCH_PROVIDERS=imanage,box for some). BENCH_RESULTS_DIR writes the results elsewhere (a
// smoke run): figures taken on a loaded machine are not worth committing (the load average is recorded).
import { connectorContext } from '../functions/connectors/app/context';
import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createLocalDeps } from '../functions/compose/local';
import { envConfig, STATE_KEY_ENV } from '../functions/connectors';
import { createLink } from '../functions/connectors/app/links';
import { browseSources } from '../functions/connectors/app/sources';
import { SYNC_CONCURRENCY, SYNC_PAGE_SIZE } from '../functions/connectors/domain/sync-policy';
import { attachLocalWorkers, stopLocalWorkers } from '../functions/dev-runtime/server/workers';
import { handlerLoader } from '../functions/dev-runtime/server/lambda-runtime';
import { Logger } from '../functions/platform/logger';
import type { Deps } from '../functions/platform/ports';
import { connectInProcess } from '../test/support/connect';
import { benchProviders, providersMarkdown, runLinkToEnd } from './import-providers';
import type { MachineReport } from './machine';
import { watchMachine } from './machine';
import { baseline, interleavedRounds } from './rounds';

const FILES = Number(process.env.BENCH_IMPORT_FILES ?? 10_000);
const FILE_BYTES = 2_048;
const ACCOUNT = 'acct-bench';
const ORG = 'org_benchimportaaaaaaaaa';
const BASE_URL = 'http://localhost:3999';
const LARGE_BYTES = Number(process.env.BENCH_LARGE_BYTES ?? 100 * 1024 ** 2);
const LARGE_FILES = Number(process.env.BENCH_LARGE_FILES ?? 20);
const LARGE_ROUNDS = Number(process.env.BENCH_LARGE_ROUNDS ?? 3);
const SMALL_ROUNDS = Number(process.env.BENCH_IMPORT_ROUNDS ?? 3);
/** Large files: the pipeline's bytes/s against the raw loop's, and how far its peak RSS may pass the loop's. */
const LARGE_GOAL = { ratio: 0.8, rssMiB: 64 };
const RESULTS = process.env.BENCH_RESULTS_DIR ?? join(import.meta.dirname ?? 'bench', 'results');
const quiet = new Logger({}, 'error');
const round = (n: number, digits = 1) => Number(n.toFixed(digits));
const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

/** The sandbox provider in its own process (bench/calls.ts starts one too). */
export class SandboxProcess {
  private constructor(private readonly child: ChildProcess) {}

  static start(): SandboxProcess {
    return new SandboxProcess(
      fork(join(import.meta.dirname ?? 'bench', 'sandbox-process.ts'), { execArgv: process.execArgv }),
    );
  }

  ask<T>(message: Record<string, unknown>): Promise<T> {
    return new Promise((resolve) => {
      this.child.once('message', (reply) => resolve(reply as T));
      this.child.send(message);
    });
  }

  /**
   * Starts the sandbox and registers its clients for a service at `baseUrl`, their settings (and a
   * state key) in this process's environment, as the runtimes set them: its URL and those settings.
   */
  async startRegistered(
    baseUrl: string,
    latencyMs = 0,
  ): Promise<{ url: string; env: Record<string, string> }> {
    const { url } = await this.ask<{ url: string }>({ cmd: 'start', latencyMs });
    const { env } = await this.ask<{ env: Record<string, string> }>({ cmd: 'register', baseUrl });
    Object.assign(process.env, env, {
      [STATE_KEY_ENV]: randomBytes(32).toString('base64url'),
      PUBLIC_BASE_URL: baseUrl,
    });
    return { url, env };
  }

  close = () => this.child.disconnect();
}

export async function seed(sandboxUrl: string, matterId: string, count = FILES): Promise<void> {
  const response = await fetch(`${sandboxUrl}/__sandbox/seed`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      provider: 'practice',
      account_id: ACCOUNT,
      container_id: matterId,
      count,
      size: FILE_BYTES,
    }),
  });
  if (!response.ok) throw new Error(`seeding answered ${response.status}`);
}

/**
 * Connects `organizationId` to the practice sandbox in-process, seeds `count` files in its first matter
 * and links that matter into `vaultId`: what the benches that import one matter start from.
 */
export async function seededLink(
  deps: Deps,
  sandboxUrl: string,
  baseUrl: string,
  organizationId: string,
  count: number,
  vaultId: string,
): Promise<{ connectionId: string; linkId: string }> {
  const connectionId = await connectInProcess(deps, envConfig, { organizationId, account: ACCOUNT, baseUrl });
  const matter = (
    await browseSources(connectorContext(deps, envConfig, { log: quiet }), organizationId, connectionId, {
      limit: 1,
    })
  ).data[0]!;
  await seed(sandboxUrl, matter.id, count);
  const link = await createLink(
    connectorContext(deps, envConfig, { log: quiet }),
    organizationId,
    connectionId,
    { vault_id: vaultId, source: { id: matter.id } },
  );
  return { connectionId, linkId: link.id };
}

/** The peak resident set size while `work` runs (sampled every 20 ms), in MiB, and its result. */
async function peakRss<T>(
  work: () => Promise<T>,
): Promise<{ result: T; peakRssMiB: number; startRssMiB: number }> {
  const mib = () => process.memoryUsage().rss / 1024 ** 2;
  const startRssMiB = mib();
  let peak = startRssMiB;
  const timer = setInterval(() => (peak = Math.max(peak, mib())), 20);
  try {
    const result = await work();
    return { result, peakRssMiB: round(Math.max(peak, mib())), startRssMiB: round(startRssMiB) };
  } finally {
    clearInterval(timer);
  }
}

async function putFile(sandboxUrl: string, matterId: string, file: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${sandboxUrl}/__sandbox/files`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ provider: 'practice', account_id: ACCOUNT, container_id: matterId, ...file }),
  });
  if (!response.ok) throw new Error(`the sandbox answered ${response.status} to a file`);
}

interface Measured {
  files: number;
  seconds: number;
  perSecond: number;
  cpuMsPerFile: number;
}

const measured = (files: number, seconds: number, cpuUsedMs: number): Measured => ({
  files,
  seconds: round(seconds, 2),
  perSecond: round(files / seconds),
  cpuMsPerFile: round(cpuUsedMs / files, 3),
});

/** Rounds of small files (by the pipeline or the raw loop at one width): their medians and spread. */
interface SmallSummary {
  rounds: Measured[];
  files: number;
  medianPerSecond: number;
  minPerSecond: number;
  maxPerSecond: number;
  medianCpuMsPerFile: number;
}

/** The small files' rounds: the pipeline's, and the raw loop's at the faster width (baseline) and the other. */
type SmallRuns = SmallSummary & {
  counts: Record<string, number>;
  raw: SmallSummary & { concurrency: number };
  other: SmallSummary & { concurrency: number };
};

interface Runs {
  full: SmallRuns;
  incremental: { changed: number; seconds: number; counts: Record<string, number> };
}

/** One round of the large files, by the pipeline or the raw loop. */
interface LargeRound {
  seconds: number;
  bytesPerSecond: number;
  /** CPU of this process (every thread: the pipeline's worker and thread pool too) per MiB. */
  cpuMsPerMiB: number;
  peakRssMiB: number;
}

/** Median, fastest and slowest of the rounds (bytes per second), the CPU per MiB's median, the peak RSS. */
interface LargeSummary {
  rounds: LargeRound[];
  medianBytesPerSecond: number;
  minBytesPerSecond: number;
  maxBytesPerSecond: number;
  medianCpuMsPerMiB: number;
  peakRssMiB: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

function smallSummary(rounds: Measured[]): SmallSummary {
  const rates = rounds.map((r) => r.perSecond);
  return {
    rounds,
    files: rounds[0]!.files,
    medianPerSecond: round(median(rates)),
    minPerSecond: Math.min(...rates),
    maxPerSecond: Math.max(...rates),
    medianCpuMsPerFile: round(median(rounds.map((r) => r.cpuMsPerFile)), 3),
  };
}

function summary(rounds: LargeRound[]): LargeSummary {
  const rates = rounds.map((r) => r.bytesPerSecond);
  return {
    rounds,
    medianBytesPerSecond: Math.round(median(rates)),
    minBytesPerSecond: Math.min(...rates),
    maxBytesPerSecond: Math.max(...rates),
    medianCpuMsPerMiB: round(median(rounds.map((r) => r.cpuMsPerMiB)), 2),
    peakRssMiB: Math.max(...rounds.map((r) => r.peakRssMiB)),
  };
}

/** `work` moving `bytes`, timed: wall seconds, CPU of this process, peak RSS. */
async function largeRound(bytes: number, work: () => Promise<void>): Promise<LargeRound> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const measured = await peakRss(work);
  const seconds = (performance.now() - started) / 1000;
  return {
    seconds: round(seconds, 2),
    bytesPerSecond: Math.round(bytes / seconds),
    cpuMsPerMiB: round(cpuMs(process.cpuUsage(cpu)) / (bytes / 1024 ** 2), 3),
    peakRssMiB: measured.peakRssMiB,
  };
}

/** The large files in the same run: the pipeline's rounds interleaved with the raw loop's at two widths. */
interface LargeRuns {
  files: number;
  bytes: number;
  pipeline: LargeSummary;
  raw: LargeSummary & { concurrency: number };
  other: LargeSummary & { concurrency: number };
}

/**
 * The pipeline: rounds of an import run of the matter's small files, each by a link into a vault of its
 * own, from POST runs to the job succeeded, interleaved with `rawSmall` at the pipeline's concurrency and
 * four times it; then the first link again after 1% of its files changed at the provider (the
 * incremental run); then the large files' rounds:
 * each a link of the large matter into a vault of its own (so everything is imported again), against
 * `rawRound` at the pipeline's concurrency and four times it, in turn (the order rotating by round).
 */
async function pipelineRuns(
  sandboxUrl: string,
  rawSmall: (concurrency: number) => Promise<Measured>,
  large: { matterId: string; bytes: number; rawRound: (concurrency: number) => Promise<LargeRound> },
): Promise<Runs & { large: LargeRuns }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-import-'));
  const deps = createLocalDeps({ dataDir });
  attachLocalWorkers(deps, handlerLoader(deps));
  try {
    const connectionId = await connectInProcess(deps, envConfig, {
      organizationId: ORG,
      account: ACCOUNT,
      baseUrl: BASE_URL,
    });
    const matter = (
      await browseSources(connectorContext(deps, envConfig, { log: quiet }), ORG, connectionId, { limit: 1 })
    ).data[0]!;
    const linkOf = (sourceId: string, vaultId = 'vlt_bench') =>
      createLink(connectorContext(deps, envConfig, { log: quiet }), ORG, connectionId, {
        vault_id: vaultId,
        source: { id: sourceId },
      });
    const runToEnd = (linkId: string) => runLinkToEnd(deps, ORG, linkId, quiet);
    // Small files: each pipeline round a link of the matter into a vault of its own (so every file is
    // imported again), in rounds with the raw loop's (./rounds.ts).
    const smallLinks: { id: string }[] = [];
    let counts: Record<string, number> = {};
    const smallRound = async (): Promise<Measured> => {
      const link = await linkOf(matter.id, `vlt_small_${smallLinks.length}`);
      smallLinks.push(link);
      const cpu = process.cpuUsage();
      const started = performance.now();
      counts = await runToEnd(link.id);
      const seconds = (performance.now() - started) / 1000;
      return measured(counts.imported!, seconds, cpuMs(process.cpuUsage(cpu)));
    };
    const small = await interleavedRounds(SMALL_ROUNDS, smallRound, rawSmall);
    const { raw, other } = baseline(
      small.raw.map(smallSummary) as [SmallSummary, SmallSummary],
      (r) => r.medianPerSecond,
    );
    const full = { ...smallSummary(small.pipeline), counts, raw, other };
    const link = smallLinks[0]!;

    // 1% of the files get a new version at the provider (seed-000001.txt, ... as the seed named them).
    const changed = Math.max(1, Math.floor(FILES / 100));
    for (let i = 0; i < changed; i++) {
      const name = `seed-${String(1 + Math.floor((i * FILES) / changed)).padStart(6, '0')}.txt`;
      await putFile(sandboxUrl, matter.id, { name, content: `changed ${i}\n` });
    }
    const incrementalStarted = performance.now();
    const incrementalCounts = await runToEnd(link.id);
    const incremental = {
      changed,
      seconds: round((performance.now() - incrementalStarted) / 1000, 2),
      counts: incrementalCounts,
    };

    let vaults = 0;
    let imported = 0;
    const importRound = async () => {
      const vaultId = `vlt_large_${vaults++}`;
      const largeLink = await linkOf(large.matterId, vaultId);
      const measured = await largeRound(large.bytes, async () => {
        imported = (await runToEnd(largeLink.id)).imported!;
      });
      // Not kept: a round's GiBs on disk would only fill it.
      rmSync(join(dataDir, 'vault', ORG, vaultId), { recursive: true, force: true });
      return measured;
    };
    const rounds = await interleavedRounds(LARGE_ROUNDS, importRound, large.rawRound);
    const largeBaseline = baseline(
      rounds.raw.map(summary) as [LargeSummary, LargeSummary],
      (r) => r.medianBytesPerSecond,
    );
    return {
      full,
      incremental,
      large: {
        files: imported,
        bytes: large.bytes,
        pipeline: summary(rounds.pipeline),
        raw: largeBaseline.raw,
        other: largeBaseline.other,
      },
    };
  } finally {
    // The workers first: events of the run may still be fanning out, into journals under the directory.
    await stopLocalWorkers(deps, 5_000);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The bytes of every file the matter's changes feed lists (what an import of it moves). */
async function listedBytes(apiUrl: string, token: string, matterId: string): Promise<number> {
  let bytes = 0;
  let pageToken: string | undefined;
  do {
    const url = new URL(`${apiUrl}/matters/${encodeURIComponent(matterId)}/documents/delta`);
    url.searchParams.set('limit', String(SYNC_PAGE_SIZE));
    if (pageToken) url.searchParams.set('page_token', pageToken);
    const page = (await (await fetch(url, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
      data: { size?: number }[];
      next_page_token: string | null;
    };
    for (const file of page.data) bytes += file.size ?? 0;
    pageToken = page.next_page_token ?? undefined;
  } while (pageToken);
  return bytes;
}

/**
 * The baseline: the same changes feed, page size and concurrency, each file streamed to a file. `into`:
 * a directory to write to, left to the caller to remove (out of a timed round); else its own, removed.
 */
async function rawLoop(
  apiUrl: string,
  token: string,
  matterId: string,
  concurrency: number,
  into?: string,
): Promise<Measured> {
  const dir = into ?? mkdtempSync(join(tmpdir(), 'bench-import-raw-'));
  const headers = { Authorization: `Bearer ${token}` };
  const cpu = process.cpuUsage();
  const started = performance.now();
  let files = 0;
  let pageToken: string | undefined;
  try {
    do {
      const url = new URL(`${apiUrl}/matters/${encodeURIComponent(matterId)}/documents/delta`);
      url.searchParams.set('limit', String(SYNC_PAGE_SIZE));
      if (pageToken) url.searchParams.set('page_token', pageToken);
      const page = (await (await fetch(url, { headers })).json()) as {
        data: { id: string }[];
        next_page_token: string | null;
      };
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < page.data.length) {
            const { id } = page.data[next++]!;
            const response = await fetch(`${apiUrl}/documents/${encodeURIComponent(id)}/content`, {
              headers,
            });
            await pipeline(
              Readable.fromWeb(response.body as WebReadableStream),
              createWriteStream(join(dir, id)),
            );
            files++;
          }
        }),
      );
      pageToken = page.next_page_token ?? undefined;
    } while (pageToken);
    return measured(files, (performance.now() - started) / 1000, cpuMs(process.cpuUsage(cpu)));
  } finally {
    if (!into) rmSync(dir, { recursive: true, force: true });
  }
}

/** One round of the raw loop over the large matter, timed; its files removed after the round. */
async function rawLargeRound(apiUrl: string, token: string, matterId: string, bytes: number, width: number) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-import-large-'));
  try {
    return await largeRound(bytes, async () => void (await rawLoop(apiUrl, token, matterId, width, dir)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runImportBench(): Promise<void> {
  const machine = watchMachine();
  const sandbox = SandboxProcess.start();
  try {
    const { url, env } = await sandbox.startRegistered(BASE_URL);
    const apiUrl = env.PROVIDER_PRACTICE_API_URL!;
    const { accessToken } = await sandbox.ask<{ accessToken: string }>({
      cmd: 'tokens',
      provider: 'practice',
      account: ACCOUNT,
      scopes: ['matters.read', 'documents.read'],
    });
    const matters = (await (
      await fetch(`${apiUrl}/matters?limit=2`, { headers: { Authorization: `Bearer ${accessToken}` } })
    ).json()) as {
      data: { id: string }[];
    };
    const matterId = matters.data[0]!.id;
    const largeMatterId = matters.data[1]!.id;
    await seed(url, matterId);
    // The large matter holds LARGE_FILES files of LARGE_BYTES (generated as they are read) and its
    // seeded ones: an import of it and the raw loop move them all.
    for (let i = 0; i < LARGE_FILES; i++)
      await putFile(url, largeMatterId, {
        name: `large-${String(i).padStart(2, '0')}.bin`,
        size: LARGE_BYTES,
      });
    const largeBytes = await listedBytes(apiUrl, accessToken, largeMatterId);
    // The raw loop at the pipeline's concurrency and at four times it, in rounds with the pipeline's: the
    // faster of the two (by median) is the baseline (the fastest plain way), the other is shown.
    const runs = await pipelineRuns(url, (width) => rawLoop(apiUrl, accessToken, matterId, width), {
      matterId: largeMatterId,
      bytes: largeBytes,
      rawRound: (width) => rawLargeRound(apiUrl, accessToken, largeMatterId, largeBytes, width),
    });
    const { raw, other, ...pipeline } = runs.full;
    const roundRatios = pipeline.rounds.map((p, i) => p.perSecond / raw.rounds[i]!.perSecond);
    const providers = await benchProviders({
      sandboxUrl: url,
      env,
      organizationId: ORG,
      account: ACCOUNT,
      baseUrl: BASE_URL,
      log: quiet,
      token: async (provider, account, scopes) =>
        (await sandbox.ask<{ accessToken: string }>({ cmd: 'tokens', provider, account, scopes }))
          .accessToken,
    });
    const result = {
      date: new Date().toISOString(),
      machine: `${process.platform} ${process.arch}, node ${process.version}`,
      files: FILES,
      fileBytes: FILE_BYTES,
      pageSize: SYNC_PAGE_SIZE,
      concurrency: SYNC_CONCURRENCY,
      pipeline,
      raw,
      other,
      ratio: round(pipeline.medianPerSecond / raw.medianPerSecond, 2),
      roundRatios: { min: round(Math.min(...roundRatios), 2), max: round(Math.max(...roundRatios), 2) },
      cpuRatio: round(pipeline.medianCpuMsPerFile / raw.medianCpuMsPerFile, 2),
      incremental: runs.incremental,
      large: {
        ...runs.large,
        ratio: round(runs.large.pipeline.medianBytesPerSecond / runs.large.raw.medianBytesPerSecond, 2),
        cpuRatio: round(runs.large.pipeline.medianCpuMsPerMiB / runs.large.raw.medianCpuMsPerMiB, 2),
      },
      load: machine.end(),
      providers,
    };
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(join(RESULTS, 'import.json'), JSON.stringify(result, null, 2) + '\n');
    const text = `${markdown(result)}\n${providersMarkdown(providers)}`;
    writeFileSync(join(RESULTS, 'import.md'), text);
    console.log(text);
  } finally {
    sandbox.close();
  }
}

/**
 * `npm run bench -- import-latency`: the per-provider import with every answer of the fakes after
 * BENCH_LATENCY_MS (30 ms), against the raw loop at the pipeline's own concurrency: how the importer
 * overlaps its waits, where the plain bench measures two shared cores' CPU.
 */
export async function runImportLatencyBench(): Promise<void> {
  const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 30);
  const machine = watchMachine();
  const sandbox = SandboxProcess.start();
  try {
    const { url, env } = await sandbox.startRegistered(BASE_URL, latencyMs);
    const providers = await benchProviders({
      sandboxUrl: url,
      env,
      organizationId: ORG,
      account: ACCOUNT,
      baseUrl: BASE_URL,
      log: quiet,
      latencyMs,
      token: async (provider, account, scopes) =>
        (await sandbox.ask<{ accessToken: string }>({ cmd: 'tokens', provider, account, scopes }))
          .accessToken,
    });
    const result = {
      date: new Date().toISOString(),
      machine: `${process.platform} ${process.arch}, node ${process.version}`,
      load: machine.end(),
      providers,
    };
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(join(RESULTS, 'import-latency.json'), JSON.stringify(result, null, 2) + '\n');
    const text = `# Import under latency\n\n${result.date}, ${result.machine}. \`npm run bench -- import-latency\` (bench/import.ts). Machine: ${result.load.summary}\n\n${providersMarkdown(providers)}`;
    writeFileSync(join(RESULTS, 'import-latency.md'), text);
    console.log(text);
  } finally {
    sandbox.close();
  }
}

function markdown(r: {
  date: string;
  machine: string;
  load: MachineReport;
  files: number;
  fileBytes: number;
  pageSize: number;
  concurrency: number;
  pipeline: SmallSummary & { counts: Record<string, number> };
  raw: SmallSummary & { concurrency: number };
  other: SmallSummary & { concurrency: number };
  ratio: number;
  roundRatios: { min: number; max: number };
  cpuRatio: number;
  incremental: Runs['incremental'];
  large: LargeRuns & { ratio: number; cpuRatio: number };
}): string {
  const mib = (bytes: number) => round(bytes / 1024 ** 2);
  return `# Import benchmark

${r.date}, ${r.machine}. \`npm run bench -- import\` (bench/import.ts). Machine: ${r.load.summary}

${r.pipeline.rounds.length} import runs of ${r.files.toLocaleString('en')} files of ${r.fileBytes} bytes from one matter of the sandbox
provider (its own process), each by a link into a vault of its own (so every file is imported again), on
the local runtime (journaled tables, vault content as files, the syncs queue and its worker as \`npm start\`
runs them), from \`POST runs\` to the job \`succeeded\`. The pipeline downloads ${r.concurrency} files at a time,
${r.pageSize} files a page. Baseline, in rounds interleaved with the pipeline's in the same run (the order
rotating by round) after a warm-up pass: a raw loop doing the same transfer plainly, with an access
token of the same account: the same changes feed and page size, each file streamed to a file on disk,
nothing else; run at the pipeline's concurrency and at four times it, the faster by its median being the
baseline. CPU is this process's, every thread.

| | downloads at a time | files | median files/s (slowest-fastest) | median CPU ms per file |
| --- | ---: | ---: | ---: | ---: |
${[
  { name: 'import pipeline', at: r.concurrency, s: r.pipeline },
  { name: 'raw download loop (baseline)', at: r.raw.concurrency, s: r.raw },
  { name: 'raw download loop', at: r.other.concurrency, s: r.other },
]
  .map(
    ({ name, at, s }) =>
      `| ${name} | ${at} | ${s.files} | ${s.medianPerSecond} (${s.minPerSecond}-${s.maxPerSecond}) | ${s.medianCpuMsPerFile} |`,
  )
  .join('\n')}

**Pipeline / raw: ${r.ratio} of the raw loop's throughput (medians; ${r.roundRatios.min}-${r.roundRatios.max} round by round),
${r.cpuRatio}x its CPU per file.** The pipeline's
extra work per file: the ledger entry written twice (intent, then version), the vault document's metadata
and content (temporary file and rename), the vault.ingest.completed event on the events queue (and its
fan-out), and the token and connection reads of each provider call. Counts of the last run:
${Object.entries(r.pipeline.counts)
  .map(([k, v]) => `${k} ${v}`)
  .join(', ')}.

## Incremental run

The same link run again after ${r.incremental.changed.toLocaleString('en')} of its ${r.files.toLocaleString('en')} files (1%) got a new
version at the provider: **${r.incremental.seconds} s**, counts ${Object.entries(r.incremental.counts)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')} (only what the changes feed named is listed; the rest is not read again).

## Large files

${r.large.files} files (${LARGE_FILES} of ${mib(LARGE_BYTES)} MiB, generated by the sandbox as they are read, and the few small
files seeded in their matter), ${mib(r.large.bytes)} MiB in all, imported by a link of their matter into a vault of its
own in each of ${r.large.pipeline.rounds.length} rounds, interleaved in the same run with the raw loop over the same matter (its changes
feed, then every file streamed to a file on disk, with the same account's token) at ${SYNC_CONCURRENCY} and ${SYNC_CONCURRENCY * 4} downloads at a
time, the faster by its median being the baseline, after a warm-up pass; the order rotates by round.
CPU is this process's, every thread (the import's blob writes and hashing run on a worker thread and
the thread pool); RSS is sampled every 20 ms (the import runs in-process, as \`npm start\` does).

| | at a time | median MiB/s (slowest-fastest) | median CPU ms per MiB | peak RSS (MiB) |
| --- | ---: | ---: | ---: | ---: |
${[
  { name: 'import pipeline', at: r.concurrency, s: r.large.pipeline },
  { name: 'raw download loop (baseline)', at: r.large.raw.concurrency, s: r.large.raw },
  { name: 'raw download loop', at: r.large.other.concurrency, s: r.large.other },
]
  .map(
    ({ name, at, s }) =>
      `| ${name} | ${at} | ${mib(s.medianBytesPerSecond)} (${mib(s.minBytesPerSecond)}-${mib(s.maxBytesPerSecond)}) | ${s.medianCpuMsPerMiB} | ${s.peakRssMiB} |`,
  )
  .join('\n')}

**Pipeline / raw: ${r.large.ratio} of the raw loop's bytes per second (medians), ${r.large.cpuRatio}x its CPU per MiB.**
Goal: at least ${LARGE_GOAL.ratio} of its bytes per second, RSS flat (the pipeline's peak within ${LARGE_GOAL.rssMiB} MiB of the raw loop's):
${r.large.ratio >= LARGE_GOAL.ratio && r.large.pipeline.peakRssMiB <= r.large.raw.peakRssMiB + LARGE_GOAL.rssMiB ? 'met' : 'not met'}${
    r.large.pipeline.peakRssMiB <= r.large.raw.peakRssMiB + LARGE_GOAL.rssMiB
      ? ' (RSS flat)'
      : ' (RSS not flat)'
  }.
`;
}
