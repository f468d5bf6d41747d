// The import benchmark per provider of the module list (functions/connectors/providers/index.ts): the
// sandbox's own two and each real provider's fake, all served by the sandbox process. For each,
// one folder (a matter at a practice-management provider) gets FILES files of FILE_BYTES, then, in the
// same run: the raw loop (the fastest plain way to download those files from that fake to disk: its own
// listing call with its largest page, then each file's bytes streamed to a file over keep-alive
// connections, at the pipeline's concurrency and at four times it, the faster by its median taken) and
// import runs of a link of that folder on the local runtime, from POST runs to the job succeeded, in
// ROUNDS interleaved rounds (BENCH_PROVIDER_ROUNDS). Files/s, bytes/s and CPU per file of each.
import { connectorContext } from '../functions/connectors/app/context';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createLocalDeps } from '../functions/compose/local';
import { sandboxSetting } from '../functions/dev-runtime/hooks/sandbox-setup';
import { envConfig } from '../functions/connectors';
import type { ProviderId } from '../functions/connectors';
import { PROVIDER_IDS } from '../functions/connectors';
import { completeParams, fillTemplate, paramVars } from '../functions/connectors/domain/connection-params';
import { PROVIDERS } from '../functions/connectors/domain/providers';
import { accessTokenHeaders } from '../functions/connectors/infra/access-token';
import { getConnectorJob } from '../functions/connectors/app/job-status';
import { createLink } from '../functions/connectors/app/links';
import { browseSources } from '../functions/connectors/app/sources';
import { startRun } from '../functions/connectors/app/sync-runs';
import { SYNC_CONCURRENCY } from '../functions/connectors/domain/sync-policy';
import { attachLocalWorkers, stopLocalWorkers } from '../functions/dev-runtime/server/workers';
import { handlerLoader } from '../functions/dev-runtime/server/lambda-runtime';
import type { Logger } from '../functions/platform/logger';
import { connectInProcess } from '../test/support/connect';
import { RAW_WIDTHS, baseline, interleavedRounds } from './rounds';

const FILES = Number(process.env.BENCH_PROVIDER_FILES ?? 1_000);
const FILE_BYTES = Number(process.env.BENCH_PROVIDER_FILE_BYTES ?? 16_384);
const ROUNDS = Number(process.env.BENCH_PROVIDER_ROUNDS ?? 3);
/** Every provider of the module list; each needs its raw loop (rawClient) and RAW_SCOPES entry below. */
export const BENCH_PROVIDERS = PROVIDER_IDS;
/** BENCH_PROVIDERS=a,b runs those only (a figure for one provider without the others' minutes). */
const asked = process.env.BENCH_PROVIDERS?.split(',').map((p) => p.trim());
const benched = asked ? BENCH_PROVIDERS.filter((p) => asked.includes(p)) : BENCH_PROVIDERS;
type BenchProvider = ProviderId;

/** The scopes the raw loop's token holds: reading, at that provider. */
export const RAW_SCOPES: Record<BenchProvider, string[]> = {
  practice: ['matters.read', 'documents.read'],
  drive: ['files.read'],
  clio: ['clio'],
  google_drive: ['https://www.googleapis.com/auth/drive.readonly'],
  onedrive: ['Files.Read'],
  dropbox: ['files.metadata.read', 'files.content.read'],
  box: ['root_readonly'],
  netdocuments: ['read'],
  imanage: ['user'],
};

export interface Throughput {
  files: number;
  bytes: number;
  seconds: number;
  filesPerSecond: number;
  bytesPerSecond: number;
  /** CPU of this process (every thread) per file. */
  cpuMsPerFile: number;
}

export interface ProviderRow {
  provider: BenchProvider;
  /** The pipeline's median round (by files per second), and the slowest and fastest rounds' rates. */
  pipeline: Throughput & { slowest: number; fastest: number };
  /** The raw loop's median round at the faster width (by its median). */
  raw: Throughput & { concurrency: number };
  /** Pipeline / raw, in files per second: of the medians, and round by round (against the same width). */
  ratio: number;
  roundRatios: { min: number; max: number };
}

/**
 * An import run of the link on the local runtime, from POST runs to its job's end (polled every 20 ms):
 * the job's counts; throws unless it succeeded.
 */
export async function runLinkToEnd(
  deps: ReturnType<typeof createLocalDeps>,
  organizationId: string,
  linkId: string,
  log: Logger,
): Promise<Record<string, number>> {
  const run = await startRun(deps, organizationId, linkId, 'api', log);
  let job: { status: string; counts: Record<string, number> };
  do {
    await sleep(20);
    job = (await getConnectorJob(deps, organizationId, run.id)) as typeof job;
  } while (job.status === 'processing');
  if (job.status !== 'succeeded') throw new Error(`the run of ${linkId} ended ${job.status}`);
  return job.counts;
}

/** The round with the median files per second (the upper middle of an even count). */
const medianRound = (rounds: Throughput[]): Throughput =>
  [...rounds].sort((a, b) => a.filesPerSecond - b.filesPerSecond)[Math.floor(rounds.length / 2)]!;

/** What the benchmark is given by the sandbox process. */
export interface ProviderBenchContext {
  sandboxUrl: string;
  env: Record<string, string>;
  organizationId: string;
  account: string;
  baseUrl: string;
  log: Logger;
  /** A plain client's access token of `account` at `provider` with `scopes`. */
  token(provider: BenchProvider, account: string, scopes: string[]): Promise<string>;
  /**
   * The fakes answer after this many ms (the latency mode): the baseline is then the raw loop at the
   * pipeline's own concurrency, so the ratio says how well the importer overlaps its waits.
   */
  latencyMs?: number;
}

const round = (n: number, digits = 1) => Number(n.toFixed(digits));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

function throughput(files: number, bytes: number, seconds: number, cpu: NodeJS.CpuUsage): Throughput {
  return {
    files,
    bytes,
    seconds: round(seconds, 2),
    filesPerSecond: round(files / seconds),
    bytesPerSecond: Math.round(bytes / seconds),
    cpuMsPerFile: round(cpuMs(cpu) / files, 3),
  };
}

/** A file as the raw loop knows it: how to ask for its bytes. */
type RawFile = { id: string };
interface RawApi {
  list(): Promise<RawFile[]>;
  /** The file's bytes, streamed to `path`; the count. */
  download(file: RawFile, path: string): Promise<number>;
}

/**
 * Streams a response's body to a file (what the import does with it too: the baseline does the same
 * work, plainly) and counts its bytes.
 */
async function drain(response: Response, what: string, path: string): Promise<number> {
  if (!response.ok || !response.body) throw new Error(`${what} answered ${response.status}`);
  const file = createWriteStream(path);
  await pipeline(Readable.fromWeb(response.body as WebReadableStream), file);
  return file.bytesWritten;
}

async function getJson<T>(url: string | URL, init: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** A pre-signed or pre-authenticated URL (Clio's storage, Graph's download URL): no bearer token. */
async function followRedirect(
  url: string,
  headers: Record<string, string>,
  what: string,
  path: string,
): Promise<number> {
  const answer = await fetch(url, { headers, redirect: 'manual' });
  if (answer.status < 300 || answer.status > 399) return drain(answer, what, path);
  await answer.body?.cancel();
  return drain(await fetch(answer.headers.get('location')!), what, path);
}

/**
 * Every page of a GET listing: `next` names the following page (or nothing on the last), `files` the
 * page's files.
 */
async function listPages<P>(
  first: string,
  headers: Record<string, string>,
  next: (page: P, url: URL) => string | undefined,
  files: (page: P) => RawFile[],
): Promise<RawFile[]> {
  const found: RawFile[] = [];
  for (let url: string | undefined = first; url;) {
    const page: P = await getJson<P>(url, { headers });
    found.push(...files(page));
    url = next(page, new URL(url));
  }
  return found;
}

/** `url` with one query parameter set (a page token or cursor), or nothing without one. */
function withParam(url: URL, name: string, value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  url.searchParams.set(name, value);
  return url.toString();
}

/** The plain way to list and download a folder's files at each provider, from its API reference. */
function rawApi(
  provider: BenchProvider,
  env: Record<string, string>,
  token: string,
  folderId: string,
): RawApi {
  // A provider hosted per region or server: its API as a connection with the default params has it.
  const definition = PROVIDERS[provider];
  // The token in the header the provider's API takes it in (iManage's X-Auth-Token, else a Bearer).
  const headers = accessTokenHeaders(definition.accessTokenHeader, token);
  const api = fillTemplate(
    sandboxSetting(env, provider as ProviderId, 'API_URL')!,
    paramVars(definition, completeParams(definition)),
  );
  const id = encodeURIComponent(folderId);
  const get = async (url: string, path: string) => drain(await fetch(url, { headers }), provider, path);
  switch (provider) {
    case 'practice':
      return {
        list: () =>
          listPages<{ data: RawFile[]; next_page_token: string | null }>(
            `${api}/matters/${id}/documents?limit=1000`,
            headers,
            (page, url) => withParam(url, 'page_token', page.next_page_token),
            (page) => page.data,
          ),
        download: (f, path) => get(`${api}/documents/${encodeURIComponent(f.id)}/content`, path),
      };
    case 'drive':
      return {
        list: () =>
          listPages<{ entries: (RawFile & { type: string })[]; cursor: string | null; has_more: boolean }>(
            `${api}/folders/${id}/children?limit=1000`,
            headers,
            (page, url) => withParam(url, 'cursor', page.has_more ? page.cursor : null),
            (page) => page.entries.filter((e) => e.type === 'file'),
          ),
        download: (f, path) => get(`${api}/files/${encodeURIComponent(f.id)}/content`, path),
      };
    case 'clio':
      return {
        list: () =>
          listPages<{ data: { id: number }[]; meta: { paging: { next?: string } } }>(
            `${api}/api/v4/documents.json?matter_id=${id}&fields=id&limit=200`,
            headers,
            (page) => page.meta.paging.next,
            (page) => page.data.map((d) => ({ id: String(d.id) })),
          ),
        // 303 to a pre-signed storage URL, which refuses a second credential.
        download: (f, path) =>
          followRedirect(`${api}/api/v4/documents/${f.id}/download`, headers, provider, path),
      };
    case 'google_drive': {
      const query = new URLSearchParams({
        q: `'${folderId}' in parents and trashed = false`,
        pageSize: '1000',
        fields: 'nextPageToken,files(id,mimeType)',
      });
      return {
        list: () =>
          listPages<{ files: (RawFile & { mimeType: string })[]; nextPageToken?: string }>(
            `${api}/drive/v3/files?${query}`,
            headers,
            (page, url) => withParam(url, 'pageToken', page.nextPageToken),
            (page) => page.files.filter((f) => f.mimeType !== 'application/vnd.google-apps.folder'),
          ),
        download: (f, path) => get(`${api}/drive/v3/files/${encodeURIComponent(f.id)}?alt=media`, path),
      };
    }
    case 'onedrive': {
      // The service names a drive's folder `<driveId>:<itemId>`.
      const [drive, item] = folderId.split(':') as [string, string];
      return {
        list: () =>
          listPages<{ value: (RawFile & { file?: unknown })[]; '@odata.nextLink'?: string }>(
            `${api}/v1.0/drives/${drive}/items/${encodeURIComponent(item)}/children?$top=1000&$select=id,file`,
            headers,
            (page) => page['@odata.nextLink'],
            (page) => page.value.filter((v) => v.file),
          ),
        // 302 to a pre-authenticated URL: followed without our Authorization header.
        download: (f, path) =>
          followRedirect(
            `${api}/v1.0/drives/${drive}/items/${encodeURIComponent(f.id)}/content`,
            headers,
            provider,
            path,
          ),
      };
    }
    case 'box':
      return {
        list: () =>
          listPages<{ entries: (RawFile & { type: string })[]; next_marker?: string | null }>(
            `${api}/folders/${id}/items?usemarker=true&limit=1000&fields=id,type`,
            headers,
            (page, url) => withParam(url, 'marker', page.next_marker),
            (page) => page.entries.filter((e) => e.type === 'file'),
          ),
        // 302 to the download host, which takes no bearer token.
        download: (f, path) =>
          followRedirect(`${api}/files/${encodeURIComponent(f.id)}/content`, headers, provider, path),
      };
    case 'netdocuments': {
      const regional = api;
      return {
        list: () =>
          listPages<{ Results: (RawFile & { extension: string })[]; SkipToken?: string }>(
            `${regional}/v2/container/${id}?select=standardAttributes&top=500`,
            headers,
            (page, url) => withParam(url, 'skiptoken', page.SkipToken),
            (page) => page.Results.filter((item) => item.extension !== 'ndfld' && item.extension !== 'ndws'),
          ),
        download: (f, path) => get(`${regional}/v1/Document/${encodeURIComponent(f.id)}`, path),
      };
    }
    case 'imanage': {
      // The customer id comes from discovery.
      const library = folderId.slice(0, folderId.indexOf('!'));
      const documents = async () => {
        const { data } = await getJson<{ data: { user: { customer_id: number } } }>(`${api}/api`, {
          headers,
        });
        return `${api}/work/api/v2/customers/${data.user.customer_id}/libraries/${library}`;
      };
      let work: Promise<string> | undefined;
      const base = () => (work ??= documents());
      return {
        list: async () =>
          listPages<{ data: { id: string }[]; total_count: number }>(
            `${await base()}/folders/${id}/documents?limit=500&offset=0`,
            headers,
            (page, url) => {
              const next = Number(url.searchParams.get('offset')) + page.data.length;
              return page.data.length && next < page.total_count
                ? withParam(url, 'offset', String(next))
                : undefined;
            },
            (page) => page.data.map((d) => ({ id: d.id.replace(/\.\d+$/, '') })),
          ),
        download: async (f, path) =>
          get(`${await base()}/documents/${encodeURIComponent(f.id)}/download`, path),
      };
    }
    case 'dropbox': {
      const content = sandboxSetting(env, 'dropbox', 'CONTENT_URL')!;
      const post = (path: string, body: unknown) =>
        getJson<{ entries: (RawFile & { '.tag': string })[]; cursor: string; has_more: boolean }>(
          `${api}${path}`,
          {
            method: 'POST',
            headers: { ...headers, 'Content-Type': 'application/json' },
            body: JSON.stringify(body),
          },
        );
      return {
        async list() {
          const files: RawFile[] = [];
          let page = await post('/2/files/list_folder', { path: folderId, limit: 2000 });
          for (;;) {
            files.push(...page.entries.filter((e) => e['.tag'] === 'file'));
            if (!page.has_more) return files;
            page = await post('/2/files/list_folder/continue', { cursor: page.cursor });
          }
        },
        download: async (f, path) =>
          drain(
            await fetch(`${content}/2/files/download`, {
              method: 'POST',
              headers: { ...headers, 'Dropbox-API-Arg': JSON.stringify({ path: f.id }) },
            }),
            provider,
            path,
          ),
      };
    }
  }
}

/**
 * The raw loop once: list, then download every file to a file of its own with `concurrency` requests in
 * flight. The files are removed after the measurement.
 */
async function rawLoop(raw: RawApi, concurrency: number): Promise<Throughput> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-import-raw-'));
  try {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const files = await raw.list();
    let next = 0;
    let bytes = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < files.length) {
          const index = next++;
          // Not `bytes += await ...`: that reads `bytes` before the await and loses the others' counts.
          const read = await raw.download(files[index]!, join(dir, String(index)));
          bytes += read;
        }
      }),
    );
    return throughput(files.length, bytes, (performance.now() - started) / 1000, process.cpuUsage(cpu));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The folder the benchmark fills: the first matter, or a drive's seeded Templates folder (no subfolders). */
async function benchFolder(
  deps: ReturnType<typeof createLocalDeps>,
  context: ProviderBenchContext,
  connectionId: string,
): Promise<{ id: string; name: string }> {
  const browse = async (parent?: string) =>
    (
      await browseSources(
        connectorContext(deps, envConfig, { log: context.log }),
        context.organizationId,
        connectionId,
        { limit: 200, ...(parent ? { parent } : {}) },
      )
    ).data.filter((s) => s.kind === 'container');
  const top = await browse();
  const templates = (level: typeof top) => level.find((s) => s.name === 'Templates');
  return templates(top) ?? templates(await browse(top[0]!.id)) ?? top[0]!;
}

async function hook(sandboxUrl: string, path: string, body: unknown): Promise<void> {
  const response = await fetch(`${sandboxUrl}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`the sandbox answered ${response.status} to ${path}`);
}

/** One provider: seed its folder, the raw loop (warm-up, then two widths), then the import run. */
async function benchProvider(provider: BenchProvider, context: ProviderBenchContext): Promise<ProviderRow> {
  const dataDir = mkdtempSync(join(tmpdir(), `bench-import-${provider}-`));
  const deps = createLocalDeps({ dataDir });
  attachLocalWorkers(deps, handlerLoader(deps));
  try {
    const account = `${context.account}-${provider.replace('_', '-')}`;
    const connectionId = await connectInProcess(deps, envConfig, {
      organizationId: context.organizationId,
      account,
      provider: provider as ProviderId,
      baseUrl: context.baseUrl,
    });
    const folder = await benchFolder(deps, context, connectionId);
    await hook(context.sandboxUrl, '/__sandbox/seed', {
      provider,
      account_id: account,
      container_id: folder.id,
      count: FILES,
      size: FILE_BYTES,
    });
    const raw = rawApi(
      provider,
      context.env,
      await context.token(provider, account, RAW_SCOPES[provider]),
      folder.id,
    );
    // Rounds (./rounds.ts): a pipeline run, each into a vault of its own (so every file is imported
    // again), and the raw loop at both widths; the warm-up pass counts the files and their bytes.
    let vaults = 0;
    const importRound = async (warm: Throughput): Promise<Throughput> => {
      const link = await createLink(
        connectorContext(deps, envConfig, { log: context.log }),
        context.organizationId,
        connectionId,
        { vault_id: `vlt_bench_${provider}_${vaults++}`, source: { id: folder.id } },
      );
      const cpu = process.cpuUsage();
      const started = performance.now();
      const counts = await runLinkToEnd(deps, context.organizationId, link.id, context.log);
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      const imported = counts.imported ?? 0;
      if (imported !== warm.files)
        throw new Error(`${provider}: the run imported ${imported} files, the raw loop read ${warm.files}`);
      // The same files: the raw loop's byte count is theirs.
      return throughput(imported, warm.bytes, seconds, used);
    };
    const rounds = await interleavedRounds(ROUNDS, importRound, (width) => rawLoop(raw, width));
    const medians = rounds.raw.map(medianRound) as [Throughput, Throughput];
    const fastest = context.latencyMs
      ? { raw: { ...medians[0], concurrency: RAW_WIDTHS[0] }, index: 0 as const }
      : baseline(medians, (r) => r.filesPerSecond);
    const pipelineRates = rounds.pipeline.map((p) => p.filesPerSecond);
    const ratios = rounds.pipeline.map(
      (p, i) => p.filesPerSecond / rounds.raw[fastest.index][i]!.filesPerSecond,
    );
    const pipeline = medianRound(rounds.pipeline);
    return {
      provider,
      pipeline: { ...pipeline, slowest: Math.min(...pipelineRates), fastest: Math.max(...pipelineRates) },
      raw: fastest.raw,
      ratio: round(pipeline.filesPerSecond / fastest.raw.filesPerSecond, 2),
      roundRatios: { min: round(Math.min(...ratios), 2), max: round(Math.max(...ratios), 2) },
    };
  } finally {
    // The workers first: events of the run may still be fanning out, into journals under the directory.
    await stopLocalWorkers(deps, 5_000);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchProviders(context: ProviderBenchContext): Promise<{
  files: number;
  fileBytes: number;
  rounds: number;
  latencyMs: number;
  rows: ProviderRow[];
}> {
  const rows: ProviderRow[] = [];
  for (const provider of benched) rows.push(await benchProvider(provider, context));
  return { files: FILES, fileBytes: FILE_BYTES, rounds: ROUNDS, latencyMs: context.latencyMs ?? 0, rows };
}

export function providersMarkdown(r: Awaited<ReturnType<typeof benchProviders>>): string {
  const mib = (bytes: number) => round(bytes / 1024 ** 2, 2);
  const latency = r.latencyMs
    ? `Every request to the sandbox process (API, downloads, tokens) is served after ${r.latencyMs} ms, as from a
provider across a network; the baseline is the raw loop at the pipeline's own concurrency (${SYNC_CONCURRENCY}), so the ratio
says how well the importer overlaps its waits (the raw loop at ${SYNC_CONCURRENCY * 4} is run and not compared).

`
    : '';
  return `## Per provider${r.latencyMs ? `, each answer after ${r.latencyMs} ms` : ''}

${latency}Each provider's fake in the sandbox process (the sandbox's \`practice\` and \`drive\`, and the fakes of
the real providers of the module list): one folder (a matter at a practice-management provider; a
drive's seeded Templates folder) holding ${r.files.toLocaleString('en')} files of ${r.fileBytes.toLocaleString('en')} bytes besides its few seeded
ones, imported by a link of it on the local runtime (from \`POST runs\` to \`succeeded\`) into a vault of its
own in each of ${r.rounds} rounds, interleaved (the order rotating by round, after a warm-up pass) with the raw
loop on the same fake: the provider's own listing call with its largest page, then every file's bytes
streamed to a file on disk over keep-alive connections (Node's fetch), following Clio's and Graph's
redirects to their pre-signed URLs without the token, at ${SYNC_CONCURRENCY} and ${SYNC_CONCURRENCY * 4} downloads at a time, the faster
by its median being the baseline${r.latencyMs ? ' (here: the one at the same concurrency)' : ''}. Each figure is of the median round (pipeline files/s with the slowest
and fastest rounds'); the ratio is of the medians, and round by round against the baseline's same round.
CPU is this process's (every thread) per file.

| provider | files | pipeline files/s (slowest-fastest) | pipeline MiB/s | pipeline CPU ms/file | raw files/s | raw MiB/s | raw CPU ms/file | raw at a time | pipeline / raw (by round) |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${r.rows
  .map(
    (row) =>
      `| ${row.provider} | ${row.pipeline.files} | ${row.pipeline.filesPerSecond} (${row.pipeline.slowest}-${row.pipeline.fastest}) | ${mib(row.pipeline.bytesPerSecond)} | ${row.pipeline.cpuMsPerFile} | ${row.raw.filesPerSecond} | ${mib(row.raw.bytesPerSecond)} | ${row.raw.cpuMsPerFile} | ${row.raw.concurrency} | ${row.ratio} (${row.roundRatios.min}-${row.roundRatios.max}) |`,
  )
  .join('\n')}
${r.latencyMs ? latencyGoal(r.rows) : ''}`;
}

/** The goal under latency: each provider at least LATENCY_GOAL of its raw loop at the same concurrency. */
const LATENCY_GOAL = 0.8;
function latencyGoal(rows: { provider: string; ratio: number }[]): string {
  const below = rows.filter((row) => row.ratio < LATENCY_GOAL);
  return `
Goal: every provider at least ${LATENCY_GOAL} of its raw loop: ${
    below.length ? `not met (${below.map((row) => `${row.provider} ${row.ratio}`).join(', ')})` : 'met'
  }.
`;
}
