// The bundle budget: every Lambda the stack deploys, bundled by esbuild as lib/service-function.ts
// bundles it at synth, loads at most BUNDLE_BUDGET_BYTES at init (index.mjs and the chunks it imports
// statically). A dependency or an import that drags a library into a handler's init fails here, in
// `npm test`, before a deploy. The AWS SDK clients are chunks loaded on first use; a package holds only
// the chunks its function's code can import, and no source map (they are kept apart).
//
// Bundling every function takes minutes on a loaded machine, and `npm test` has already bundled them
// all for the emulated runtime (bin/emulated-app.ts, kept per source digest): the budget is measured on
// those bundles (built here only when these sources' are not kept). They are the same esbuild build with
// the maps linked instead of apart; one function is bundled as synth bundles it and compared file for
// file, so the measurement is the deployed package's.
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, posix } from 'node:path';
import {
  BUNDLE_BUDGET_BYTES,
  CHUNKS_DIR,
  REPO_ROOT,
  ServiceFunction,
  bundleInto,
  portsOf,
} from '../../lib/service-function';
import { sourceBundles } from '../../lib/emulated-app';
import { bundleFileOf } from '../../lib/emulated-functions';
import { synthStack } from '../support/synth';

interface BundleSizes {
  /** index.mjs and the chunks it imports statically: what module init loads. */
  initBytes: number;
  /** Every file of the package, and its bytes. */
  packageBytes: number;
  /** The chunks imported on first use (the SDK clients'), by name without their hash. */
  lazyChunks: string[];
}

/** A file's imports of other files of the package, static and dynamic, by path relative to the package. */
function importsOf(dir: string, file: string): { path: string; dynamic: boolean }[] {
  const text = readFileSync(join(dir, file), 'utf8');
  return [...text.matchAll(/(?:from\s*|import\s*|import\(\s*)"(\.\.?\/[^"]+)"/g)].map((m) => ({
    path: posix.normalize(posix.join(posix.dirname(file), m[1]!)),
    dynamic: m[0].startsWith('import('),
  }));
}

/** What index.mjs reaches through its files' own import statements, read from the files on disk. */
function closure(dir: string, staticOnly: boolean): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const i of importsOf(dir, file)) if (!(staticOnly && i.dynamic)) visit(i.path);
  };
  visit('index.mjs');
  return [...seen];
}

/** The link esbuild appends to a file whose map is beside it (`sourcemap: 'linked'`). */
const MAP_LINK = /\n\/\/# sourceMappingURL=(\S+)\n?$/;

/** esbuild's hash in a chunk's file name (base32, eight characters). */
const CHUNK_HASH = /-[A-Z2-7]{8}\.mjs/g;

/** Every file under `dir`, by path relative to it. */
const filesOf = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
    (name) => !statSync(join(dir, name)).isDirectory(),
  );

/** No import of a package, only of node built-ins and the package's own files: the SDK is bundled. */
function expectSdkBundled(text: string): void {
  expect(text.match(/(?:from|import\()\s*"(?!node:|\.\/|\.\.\/)[^"]+"/g) ?? []).toEqual(
    expect.not.arrayContaining([expect.stringMatching(/@aws-sdk|@smithy/)]),
  );
}

/**
 * A function's package as synth deploys it, measured on its bundle as the emulated runtime runs it
 * (`dir`, maps linked beside): the files index.mjs can load (synth prunes the rest), each without its map
 * link (synth ships none), so the bytes are the deployed files' bytes.
 */
function bundleSizes(dir: string): BundleSizes & { code: Map<string, string> } {
  const code = new Map<string, string>();
  for (const name of closure(dir, false)) {
    expect(name).toMatch(/\.mjs$/);
    const text = readFileSync(join(dir, name), 'utf8');
    const link = MAP_LINK.exec(text);
    expect([name, link?.[1]]).toEqual([name, `${basename(name)}.map`]);
    expect(existsSync(join(dir, `${name}.map`))).toBe(true);
    expectSdkBundled(text);
    code.set(name, text.slice(0, link!.index + 1));
  }
  const init = closure(dir, true);
  const bytes = (names: string[]) => names.reduce((sum, name) => sum + Buffer.byteLength(code.get(name)!), 0);
  return {
    code,
    initBytes: bytes(init),
    packageBytes: bytes([...code.keys()]),
    lazyChunks: [...code.keys()]
      .filter((name) => name.startsWith(`${CHUNKS_DIR}/`) && !init.includes(name))
      .map((name) => name.slice(CHUNKS_DIR.length + 1).replace(/-\w+\.mjs$/, '')),
  };
}

/**
 * The package as `cdk synth` builds it (bundleInto, debugging off), read back from disk: it holds no
 * source map and links none, every map is in the maps directory beside, every file is one its entry
 * can load, and nothing is left for the runtime to resolve but Node's built-ins. Its files' contents.
 */
function synthPackage(handlerModule: string): Map<string, string> {
  const dir = join(tmpdir(), `bundle-budget-${process.pid}`, handlerModule.split('/').join('--'));
  const [pkg, maps] = [join(dir, 'package'), join(dir, 'maps')];
  rmSync(dir, { recursive: true, force: true });
  bundleInto(handlerModule, pkg, 'apart', maps);
  const files = filesOf(pkg);
  const reachable = closure(pkg, false);
  expect(files.filter((name) => !reachable.includes(name))).toEqual([]);
  const contents = new Map<string, string>();
  for (const name of files) {
    expect(name).toMatch(/\.mjs$/);
    const text = readFileSync(join(pkg, name), 'utf8');
    expect(text.trimEnd()).not.toMatch(/\/\/# sourceMappingURL=\S+$/);
    expect(existsSync(join(maps, `${name}.map`))).toBe(true);
    expectSdkBundled(text);
    contents.set(name, text);
  }
  rmSync(dir, { recursive: true, force: true });
  return contents;
}

/** The SDK client chunk (functions/adapters/aws/sdk/<name>.ts) each port's adapter loads. */
const CLIENT_CHUNKS = {
  tables: ['dynamodb'],
  queues: ['sqs'],
  keys: ['kms'],
  workflows: ['sfn'],
  vault: ['s3', 's3-upload', 'dynamodb'],
  secrets: ['secrets-manager'],
} as const;
const ALL_CLIENTS = ['dynamodb', 'kms', 'sqs', 'sfn', 's3', 's3-upload', 'secrets-manager'];

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

  let bundleDir: string;
  beforeAll(async () => {
    bundleDir = await sourceBundles(REPO_ROOT, modules);
  }, 600_000);

  it('knows every function the stack deploys', () => {
    expect(modules.length).toBeGreaterThan(40);
    expect(modules).toEqual(
      expect.arrayContaining(['webhooks/api/handlers/deliver', 'docs/api/handlers/get-openapi']),
    );
  });

  it(`keeps what every bundle loads at init within ${BUNDLE_BUDGET_BYTES / 1024} KB, maps apart`, () => {
    const sizes: [string, BundleSizes][] = modules.map((module) => [
      module,
      bundleSizes(dirname(bundleFileOf(bundleDir, module))),
    ]);
    const over = sizes.filter(([, { initBytes }]) => initBytes > BUNDLE_BUDGET_BYTES);
    expect(over.map(([module, { initBytes }]) => `${module}: ${(initBytes / 1024).toFixed(1)} KB`)).toEqual(
      [],
    );
    // Not vacuous: the bundles hold the code (a handler with its platform stack is tens of KB).
    expect(Math.min(...sizes.map(([, { initBytes }]) => initBytes))).toBeGreaterThan(20 * 1024);
    // The SDK clients are chunks of their own, loaded on first use, never at init; a package holds
    // exactly the clients of the ports its function declares it uses.
    for (const [module, { lazyChunks }] of sizes) {
      const expected = new Set<string>(portsOf(module).flatMap((port) => CLIENT_CHUNKS[port]));
      const clients = ALL_CLIENTS.filter((client) => lazyChunks.includes(client));
      expect([module, clients]).toEqual([module, ALL_CLIENTS.filter((c) => expected.has(c))]);
    }
    // Some function needs no client at all, and the deliver worker no S3 or Step Functions.
    expect(sizes.some(([, { lazyChunks }]) => lazyChunks.length === 0)).toBe(true);
    const deliver = sizes.find(([module]) => module === 'webhooks/api/handlers/deliver')![1];
    expect(deliver.lazyChunks).not.toContain('s3');
    console.log(
      `packages: ${sizes.reduce((sum, [, s]) => sum + s.packageBytes, 0)} bytes over ${sizes.length} modules`,
    );
  }, 600_000);

  it('measures what synth deploys: its package is the measured bundle without the map links', () => {
    const module = 'webhooks/api/handlers/deliver';
    const deployed = synthPackage(module);
    const measured = bundleSizes(dirname(bundleFileOf(bundleDir, module))).code;
    // A chunk's name holds a hash of its content, map link included: the same length, another value.
    const files = (contents: Map<string, string>) =>
      [...contents].map(([name, text]) => [name, text].map((s) => s.replace(CHUNK_HASH, '-HASH.mjs'))).sort();
    expect(files(measured)).toEqual(files(deployed));
    expect(files(deployed).length).toBeGreaterThan(3);
  }, 120_000);
});
