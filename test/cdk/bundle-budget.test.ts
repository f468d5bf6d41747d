// The bundle budget: every Lambda the stack deploys, bundled by esbuild exactly as
// lib/service-function.ts bundles it at synth, loads at most BUNDLE_BUDGET_BYTES at init (index.mjs and
// the chunks it imports statically). A dependency or an import that drags a library into a handler's
// init fails here, in `npm test`, before a deploy. The AWS SDK clients are chunks loaded on first use.
import { build } from 'esbuild';
import type { Metafile } from 'esbuild';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import {
  BUNDLE_BUDGET_BYTES,
  CHUNKS_DIR,
  ServiceFunction,
  lambdaBuildOptions,
} from '../../lib/service-function';
import { synthStack } from '../support/synth';

interface BundleSizes {
  /** index.mjs and the chunks it imports statically: what module init loads. */
  initBytes: number;
  /** The chunks imported on first use (the SDK clients'), by name without their hash. */
  lazyChunks: string[];
}

/** The output files the entry imports statically, itself included, as paths relative to the outdir. */
function initClosure(meta: Metafile, outdir: string): string[] {
  const rel = (path: string) => relative(outdir, join(process.cwd(), path));
  const outputs = new Map(Object.entries(meta.outputs).map(([path, out]) => [rel(path), out]));
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const i of outputs.get(file)!.imports)
      if (i.kind === 'import-statement' && !i.external) visit(rel(i.path));
  };
  visit('index.mjs');
  return [...seen];
}

/**
 * The bundle as `cdk synth` writes it (source maps aside, their `//# sourceMappingURL=` lines in),
 * checking that every file's map is beside it and linked (functions/platform/stack-trace.ts finds it
 * so) and that nothing is left for the runtime to resolve but Node's built-ins.
 */
async function bundleSizes(handlerModule: string): Promise<BundleSizes> {
  const outdir = join(tmpdir(), 'bundle-budget', handlerModule.split('/').join('--'));
  const result = await build({ ...lambdaBuildOptions(handlerModule, outdir), write: false, metafile: true });
  const files = new Map(result.outputFiles!.map((f) => [relative(outdir, f.path), f]));
  for (const [name, file] of files) {
    if (!name.endsWith('.mjs')) continue;
    expect(files.has(`${name}.map`)).toBe(true);
    const base = name.split('/').pop();
    expect(file.text.trimEnd().endsWith(`//# sourceMappingURL=${base}.map`)).toBe(true);
    // The SDK is bundled (LAMBDA_BUNDLING): no import of a package, only of node built-ins.
    expect(file.text.match(/(?:from|import\()\s*"(?!node:|\.\/|\.\.\/)[^"]+"/g) ?? []).toEqual(
      expect.not.arrayContaining([expect.stringMatching(/@aws-sdk|@smithy/)]),
    );
  }
  const init = initClosure(result.metafile!, outdir);
  return {
    initBytes: init.reduce((sum, name) => sum + files.get(name)!.contents.byteLength, 0),
    lazyChunks: [...files.keys()]
      .filter((name) => name.startsWith(`${CHUNKS_DIR}/`) && name.endsWith('.mjs') && !init.includes(name))
      .map((name) => name.slice(CHUNKS_DIR.length + 1).replace(/-\w+\.mjs$/, '')),
  };
}

describe('Lambda bundle budget', () => {
  const { stack } = synthStack({ stage: 'prod' });
  const modules = [
    ...new Set(
      stack.node
        .findAll()
        .filter((c): c is ServiceFunction => c instanceof ServiceFunction)
        .map((f) => f.handlerModule),
    ),
  ].sort();

  it('knows every function the stack deploys', () => {
    expect(modules.length).toBeGreaterThan(40);
    expect(modules).toEqual(
      expect.arrayContaining(['webhooks/api/handlers/deliver', 'docs/api/handlers/get-openapi']),
    );
  });

  it(`keeps what every bundle loads at init within ${BUNDLE_BUDGET_BYTES / 1024} KB, maps beside it`, async () => {
    const sizes: [string, BundleSizes][] = [];
    for (const module of modules) sizes.push([module, await bundleSizes(module)]);
    const over = sizes.filter(([, { initBytes }]) => initBytes > BUNDLE_BUDGET_BYTES);
    expect(over.map(([module, { initBytes }]) => `${module}: ${(initBytes / 1024).toFixed(1)} KB`)).toEqual(
      [],
    );
    // Not vacuous: the bundles hold the code (a handler with its platform stack is tens of KB).
    expect(Math.min(...sizes.map(([, { initBytes }]) => initBytes))).toBeGreaterThan(20 * 1024);
    // The SDK clients are chunks of their own, loaded on first use, never at init.
    for (const [, { lazyChunks }] of sizes)
      expect(lazyChunks).toEqual(expect.arrayContaining(['dynamodb', 'kms', 'sqs', 'sfn', 's3']));
  }, 240_000);
});
