// Lambda bundle budgets: the stack is synthesized with bundling on, so every bundle is exactly the one
// CDK deploys (esbuild as lib/service-function.ts configures it). Per bundle: its size (index.mjs,
// minified, source map excluded) and its module init time, an `await import()` timed inside a fresh
// Node process, with the function's own environment and the AWS SDK resolved from node_modules (it
// is external, as on the nodejs22.x runtime). Baseline, in the same run: an empty ES module.
import { App } from 'aws-cdk-lib';
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ServiceStack } from '../lib/service-stack';
import { stageConfig } from '../lib/stage-config';

const BUDGET_BYTES = 300 * 1024;
const BUDGET_INIT_MS = 100;
const RUNS = Number(process.env.BENCH_INIT_RUNS ?? 5);
const ROOT = resolve(import.meta.dirname ?? 'bench', '..');
// Inside the repository (and git-ignored), so the bundles resolve @aws-sdk/* from its node_modules.
const OUT = join(ROOT, 'cdk.out', 'bench-bundles');
const RESULTS = join(ROOT, 'bench', 'results');

interface Bundle {
  /** Construct path of the (first) function using the bundle, e.g. Api/ListProviders. */
  name: string;
  functions: number;
  file: string;
  env: Record<string, string>;
}

interface Measured {
  name: string;
  functions: number;
  bytes: number;
  mapBytes: number;
  initMs: number;
  initMsWithSourceMaps: number;
  /** The AWS SDK packages the bundle imports (external), and what importing only them takes. */
  sdk: string[];
  sdkInitMs: number;
  /** The bundle's init with those packages already loaded: our code's share. */
  ownInitMs: number;
}

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
  const stack = new ServiceStack(app, 'Bench', {
    stage: stageConfig(app.node),
    env: { account: '123456789012', region: 'eu-west-1' },
  });
  const assembly = app.synth();
  const template = assembly.getStackByName(stack.stackName).template as Template;
  const bundles = new Map<string, Bundle>();
  for (const resource of Object.values(template.Resources)) {
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
    bundles.set(asset, { name: path, functions: 1, file: join(OUT, asset, 'index.mjs'), env });
  }
  return [...bundles.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The external @aws-sdk packages a bundle imports. */
const sdkImports = (file: string) =>
  [
    ...new Set([...readFileSync(file, 'utf8').matchAll(/["'](@aws-sdk\/[a-z0-9-]+)["']/g)].map((m) => m[1]!)),
  ].sort();

/** Milliseconds `await import(...)` of the specifiers takes in a fresh process, median of RUNS. */
function initTime(
  file: string | string[],
  env: Record<string, string>,
  sourceMaps: boolean,
  preload: string[] = [],
): number {
  const specifiers = Array.isArray(file) ? file : [pathToFileURL(file).href];
  // `preload` is imported before the clock starts: with the SDK loaded, what remains is our code.
  const script = `for (const s of ${JSON.stringify(preload)}) await import(s); const t = performance.now(); for (const s of ${JSON.stringify(specifiers)}) await import(s); process.stdout.write(String(performance.now() - t));`;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        AWS_REGION: 'eu-west-1',
        ...env,
        NODE_OPTIONS: sourceMaps ? '--enable-source-maps' : '',
      },
      encoding: 'utf8',
    });
    times.push(Number(output));
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

export async function runBundleBench(): Promise<void> {
  const started = performance.now();
  const bundles = synthesize();
  const baselineFile = join(OUT, 'empty.mjs');
  writeFileSync(baselineFile, 'export {};\n');
  const baseline = initTime(baselineFile, {}, false);
  const baselineWithMaps = initTime(baselineFile, {}, true);
  const sdkTimes = new Map<string, number>();
  const measured: Measured[] = bundles.map((b) => {
    const map = `${b.file}.map`;
    const sdk = sdkImports(b.file);
    const key = sdk.join(',');
    if (!sdkTimes.has(key)) sdkTimes.set(key, initTime(sdk, {}, true));
    return {
      sdk,
      sdkInitMs: sdkTimes.get(key)!,
      ownInitMs: initTime(b.file, b.env, true, sdk),
      name: b.name,
      functions: b.functions,
      bytes: statSync(b.file).size,
      mapBytes: existsSync(map) ? statSync(map).size : 0,
      initMs: initTime(b.file, b.env, false),
      initMsWithSourceMaps: initTime(b.file, b.env, true),
    };
  });
  // What a bundle importing only the DynamoDB client would pay for the SDK (lazy clients per port).
  const dynamoOnly = initTime(['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'], {}, true);
  const overSize = measured.filter((m) => m.bytes > BUDGET_BYTES);
  const overInit = measured.filter((m) => m.initMsWithSourceMaps > BUDGET_INIT_MS);
  const overOwnInit = measured.filter((m) => m.ownInitMs > BUDGET_INIT_MS);
  const over = [...new Set([...overSize, ...overInit])];
  const largest = [...measured].sort((a, b) => b.bytes - a.bytes)[0]!;
  const slowest = [...measured].sort((a, b) => b.initMsWithSourceMaps - a.initMsWithSourceMaps)[0]!;
  const result = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
    runsPerMeasure: RUNS,
    budgets: { bytes: BUDGET_BYTES, initMs: BUDGET_INIT_MS },
    baseline: {
      emptyModuleInitMs: baseline,
      emptyModuleInitMsWithSourceMaps: baselineWithMaps,
      dynamoDbClientOnlyInitMs: dynamoOnly,
    },
    bundles: measured,
    withinBudget: over.length === 0,
    over: over.map((m) => m.name),
    overSize: overSize.map((m) => m.name),
    overInit: overInit.map((m) => m.name),
    overOwnInit: overOwnInit.map((m) => m.name),
  };
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, 'bundles.json'), JSON.stringify(result, null, 2) + '\n');
  const rows = measured.map(
    (m) =>
      `| ${m.name}${m.functions > 1 ? ` (×${m.functions})` : ''} | ${kb(m.bytes)} | ${kb(m.mapBytes)} | ${m.initMs.toFixed(1)} | ${m.initMsWithSourceMaps.toFixed(1)} | ${(m.initMsWithSourceMaps / baselineWithMaps).toFixed(0)}× | ${m.sdk.length} / ${m.sdkInitMs.toFixed(1)} | ${m.ownInitMs.toFixed(1)} |`,
  );
  const md = `# Lambda bundle budgets

${result.date}, ${result.cpus}, Node ${result.node}. Budgets: under ${kb(BUDGET_BYTES)} KB and under ${BUDGET_INIT_MS} ms of module init per bundle.

| Budget | Bundles over it (of ${measured.length}) |
|---|---|
| size under ${kb(BUDGET_BYTES)} KB | ${overSize.length} ${overSize.length ? `(${overSize.map((m) => m.name).join(', ')})` : ''} |
| init under ${BUDGET_INIT_MS} ms, whole module (SDK included) | ${overInit.length} |
| init under ${BUDGET_INIT_MS} ms, our code (SDK preloaded) | ${overOwnInit.length} ${overOwnInit.length ? `(${overOwnInit.map((m) => m.name).join(', ')})` : ''} |

Each bundle is the one \`cdk synth\` makes (prod stage, esbuild through \`NodejsFunction\` as
\`lib/service-function.ts\` configures it: ESM, minified, external \`@aws-sdk/*\`, source map beside it).
Init is \`await import()\` of the bundle timed inside a fresh Node process (median of ${RUNS}), with the
function's environment (deploy-time values as placeholders) and the AWS SDK resolved from
node_modules. "With source maps" runs under \`NODE_OPTIONS=--enable-source-maps\`, as the functions are
deployed. Baseline in the same run: an empty ES module imports in ${baseline.toFixed(2)} ms
(${baselineWithMaps.toFixed(2)} ms with source maps on); the last column is the ratio to it.

| Bundle | KB | map KB | init ms | init ms, source maps | vs empty module | SDK packages / their init ms | own code ms (SDK preloaded) |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}

The SDK column imports only the \`@aws-sdk/*\` packages the bundle imports (${[...new Set(measured.flatMap((m) => m.sdk))].join(', ')}), in a fresh process: what the
runtime's own copy costs before any of our code runs. The last column times the bundle's import in a
process that loaded those packages first (untimed): our code's own share of the init.

Every bundle imports all five SDK packages, because the AWS adapters module builds every client at
import. Importing only the DynamoDB packages takes ${dynamoOnly.toFixed(1)} ms here (against ${[...sdkTimes.values()][0]?.toFixed(1) ?? '?'} ms for
all five): loading each client on the first use of its port would save the difference on routes
that use only tables, but the DynamoDB client alone is already over the budget on this machine.

Largest: ${largest.name}, ${kb(largest.bytes)} KB. Slowest init: ${slowest.name}, ${slowest.initMsWithSourceMaps.toFixed(1)} ms.
A cold start on Lambda adds the runtime's own start and the SDK clients' first use (credentials, TLS)
to these figures; the machine is shared, so init times vary between runs.
`;
  writeFileSync(join(RESULTS, 'bundles.md'), md);
  console.log(md);
  console.log(
    `bundle bench: ${measured.length} bundles in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
}
