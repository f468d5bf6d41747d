// The bundle budget (issue 27): every Lambda the stack deploys, bundled by esbuild exactly as
// lib/service-function.ts configures NodejsFunction, stays within BUNDLE_BUDGET_BYTES. A dependency
// or an import that drags a library into a handler fails here, in `npm test`, before a deploy.
import { build } from 'esbuild';
import {
  BUNDLE_BUDGET_BYTES,
  LAMBDA_BUNDLING,
  ServiceFunction,
  lambdaBuildOptions,
} from '../../lib/service-function';
import { synthStack } from '../support/synth';

/**
 * The bytes of index.mjs as `cdk synth` writes it (source map aside, its `//# sourceMappingURL=` line
 * in), and whether its map is beside it and linked: functions/platform/stack-trace.ts finds it so.
 */
async function bundleBytes(handlerModule: string): Promise<number> {
  const result = await build({
    ...lambdaBuildOptions(handlerModule),
    sourcemap: LAMBDA_BUNDLING.sourceMap,
    sourcesContent: LAMBDA_BUNDLING.sourcesContent,
    outfile: 'index.mjs',
    write: false,
    logLevel: 'silent',
  });
  const files = result.outputFiles!;
  const bundle = files.find((f) => f.path.endsWith('index.mjs'))!;
  expect(files.map((f) => f.path.split('/').pop()).sort()).toEqual(['index.mjs', 'index.mjs.map']);
  expect(bundle.text.trimEnd().endsWith('//# sourceMappingURL=index.mjs.map')).toBe(true);
  return bundle.contents.byteLength;
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

  it(`keeps every bundle within ${BUNDLE_BUDGET_BYTES / 1024} KB, its source map beside it`, async () => {
    const sizes: [string, number][] = [];
    for (const module of modules) sizes.push([module, await bundleBytes(module)]);
    const over = sizes.filter(([, bytes]) => bytes > BUNDLE_BUDGET_BYTES);
    expect(over.map(([module, bytes]) => `${module}: ${(bytes / 1024).toFixed(1)} KB`)).toEqual([]);
    // Not vacuous: the bundles hold the code (a handler with its platform stack is tens of KB).
    expect(Math.min(...sizes.map(([, bytes]) => bytes))).toBeGreaterThan(20 * 1024);
  }, 180_000);
});
