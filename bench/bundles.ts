// Lambda bundle budgets: the stack is synthesized with bundling on, so every bundle is exactly the one
// CDK deploys (esbuild as lib/service-function.ts configures it). Per bundle: its size (index.mjs,
// minified, source map excluded) and its module init time, an `await import()` timed inside a fresh
// Node process, with the function's own environment and the AWS SDK resolved from node_modules (it
// is external, as on the nodejs22.x runtime). Baseline, in the same run: an empty ES module.
import { App } from 'aws-cdk-lib';
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ServiceStack } from '../lib/service-stack';
import { stageConfig } from '../lib/stage-config';

// Powertools (Logger, Metrics, and the Tracer with the X-Ray SDK, loaded lazily) adds ~110 KB to every bundle.
const BUDGET_BYTES = 350 * 1024;
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

/** Milliseconds `await import(...)` of the specifiers takes in a fresh process, median of RUNS. */
function initTime(file: string | string[], env: Record<string, string>, sourceMaps: boolean): number {
  const specifiers = Array.isArray(file) ? file : [pathToFileURL(file).href];
  const script = `const t = performance.now(); for (const s of ${JSON.stringify(specifiers)}) await import(s); process.stdout.write(String(performance.now() - t));`;
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
  const measured: Measured[] = bundles.map((b) => {
    const map = `${b.file}.map`;
    return {
      name: b.name,
      functions: b.functions,
      bytes: statSync(b.file).size,
      mapBytes: existsSync(map) ? statSync(map).size : 0,
      initMs: initTime(b.file, b.env, false),
      initMsWithSourceMaps: initTime(b.file, b.env, true),
    };
  });
  // The adapters import each SDK client on its port's first use: what that first use costs, per client.
  const clientImports: [string, string[]][] = [
    [
      'DynamoDB (every API-key route: its rate-limit bucket)',
      ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'],
    ],
    ['KMS', ['@aws-sdk/client-kms']],
    ['SQS', ['@aws-sdk/client-sqs']],
    ['Step Functions', ['@aws-sdk/client-sfn']],
  ];
  const firstUse = clientImports.map(([name, packages]) => ({ name, ms: initTime(packages, {}, true) }));
  const overSize = measured.filter((m) => m.bytes > BUDGET_BYTES);
  const overInit = measured.filter((m) => m.initMsWithSourceMaps > BUDGET_INIT_MS);
  const over = [...new Set([...overSize, ...overInit])];
  const largest = [...measured].sort((a, b) => b.bytes - a.bytes)[0]!;
  const slowest = [...measured].sort((a, b) => b.initMsWithSourceMaps - a.initMsWithSourceMaps)[0]!;
  const result = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
    runsPerMeasure: RUNS,
    budgets: { bytes: BUDGET_BYTES, initMs: BUDGET_INIT_MS },
    sdkFirstUseMs: firstUse,
    baseline: {
      emptyModuleInitMs: baseline,
      emptyModuleInitMsWithSourceMaps: baselineWithMaps,
    },
    bundles: measured,
    withinBudget: over.length === 0,
    over: over.map((m) => m.name),
    overSize: overSize.map((m) => m.name),
    overInit: overInit.map((m) => m.name),
  };
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, 'bundles.json'), JSON.stringify(result, null, 2) + '\n');
  const rows = measured.map(
    (m) =>
      `| ${m.name}${m.functions > 1 ? ` (×${m.functions})` : ''} | ${kb(m.bytes)} | ${kb(m.mapBytes)} | ${m.initMs.toFixed(1)} | ${m.initMsWithSourceMaps.toFixed(1)} | ${(m.initMsWithSourceMaps / baselineWithMaps).toFixed(0)}× |`,
  );
  const md = `# Lambda bundle budgets

${result.date}, ${result.cpus}, Node ${result.node}. Budgets: under ${kb(BUDGET_BYTES)} KB and under ${BUDGET_INIT_MS} ms of module init per bundle.

| Budget | Bundles over it (of ${measured.length}) |
|---|---|
| size under ${kb(BUDGET_BYTES)} KB | ${overSize.length} ${overSize.length ? `(${overSize.map((m) => m.name).join(', ')})` : ''} |
| init under ${BUDGET_INIT_MS} ms (module import, source maps on) | ${overInit.length} ${overInit.length ? `(${overInit.map((m) => m.name).join(', ')})` : ''} |

Each bundle is the one \`cdk synth\` makes (prod stage, esbuild through \`NodejsFunction\` as
\`lib/service-function.ts\` configures it: ESM, minified, external \`@aws-sdk/*\`, source map beside it).
Init is \`await import()\` of the bundle timed inside a fresh Node process (median of ${RUNS}), with the
function's environment (deploy-time values as placeholders) and the AWS SDK resolved from
node_modules. "With source maps" runs under \`NODE_OPTIONS=--enable-source-maps\`, as the functions are
deployed. Baseline in the same run: an empty ES module imports in ${baseline.toFixed(2)} ms
(${baselineWithMaps.toFixed(2)} ms with source maps on); "vs empty module" is the ratio to it.

| Bundle | KB | map KB | init ms | init ms, source maps | vs empty module |
|---|---|---|---|---|---|
${rows.join('\n')}

The AWS SDK is not part of module init: each adapter imports its client's package on the first call
of its port, so a cold start pays only for the clients the route touches, on its first request.
Those imports, each timed alone in a fresh process (source maps on):

| Client | first-use import ms | vs empty module |
|---|---|---|
${firstUse.map((c) => `| ${c.name} | ${c.ms.toFixed(1)} | ${(c.ms / baselineWithMaps).toFixed(0)}× |`).join('\n')}

A route's cold start is thus its module init plus the clients it uses (the route table's \`uses\`):
DynamoDB for nearly every route, KMS for the routes that seal or open secrets, SQS for publishers,
Step Functions for the purge routes.

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
