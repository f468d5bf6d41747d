// Stack traces mapped when logged (functions/platform/stack-trace.ts): the deployed bundles run without
// --enable-source-maps, so a logged 5xx names its original source lines only through this module.
import { jest } from '@jest/globals';
import type { SQSEvent } from 'aws-lambda';
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LAMBDA_BUNDLING } from '../../lib/service-function';
import * as z from 'zod/mini';
import { createLocalDeps } from '../../functions/compose/local';
import { GoneError } from '../../functions/platform/errors';
import { sqsHandler } from '../../functions/platform/sqs';
import { create as createPurgeTask } from '../../functions/connectors/api/handlers/purge-tasks';
import { loggedFailure, mappedStack } from '../../functions/platform/stack-trace';

const dir = mkdtempSync(join(tmpdir(), 'ces-stack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Two source files and an entry that logs as a Lambda would, bundled to one minified ESM file with its
// map beside it as the stack bundles a Lambda (LAMBDA_BUNDLING: linked map, no sourcesContent). The
// bundle runs in a plain node process: jest maps every stack itself (source-map-support), Lambda does not.
const SOURCES = {
  'src/main.ts': [
    `import { mappedStack } from ${JSON.stringify(resolve('functions/platform/stack-trace.ts'))};`,
    "import { handler } from './handler';",
    '',
    'await handler(1);',
    'const error = await handler(11).catch((e: Error) => e);',
    'process.stdout.write(JSON.stringify({ raw: error!.stack, mapped: mappedStack(error!), again: mappedStack(error!) }));',
    '',
  ].join('\n'),
  'src/handler.ts': [
    "import { checkAmount } from './rules';",
    '',
    'export async function handler(amount: number): Promise<number> {',
    '  return checkAmount(amount);',
    '}',
    '',
  ].join('\n'),
  'src/rules.ts': [
    'export function checkAmount(amount: number): number {',
    '  if (amount > 10) {',
    "    throw new Error('amount over the limit: ' + amount);",
    '  }',
    '  return amount * 2;',
    '}',
    '',
  ].join('\n'),
};
mkdirSync(join(dir, 'src'), { recursive: true });
for (const [file, text] of Object.entries(SOURCES)) writeFileSync(join(dir, file), text);

const outfile = join(dir, 'out', 'index.mjs');
beforeAll(async () => {
  await build({
    entryPoints: [join(dir, 'src/main.ts')],
    bundle: true,
    platform: 'node',
    format: LAMBDA_BUNDLING.format,
    target: LAMBDA_BUNDLING.target,
    minify: LAMBDA_BUNDLING.minify,
    sourcemap: LAMBDA_BUNDLING.sourcemap,
    sourcesContent: LAMBDA_BUNDLING.sourcesContent,
    banner: { ...LAMBDA_BUNDLING.banner },
    outfile,
    logLevel: 'silent',
  });
});

/** Runs the bundle as Lambda runs it (no --enable-source-maps): the error's raw and mapped stacks. */
function run(): { raw: string; mapped: string; again: string } {
  const env = { ...process.env, NODE_OPTIONS: '' };
  return JSON.parse(execFileSync(process.execPath, [outfile], { env, encoding: 'utf8' })) as never;
}

describe('mappedStack', () => {
  it("names the original file, line and function of a minified bundle's frames", () => {
    const { raw, mapped, again } = run();
    // The raw stack points into the one minified line of the bundle.
    expect(raw.split('\n')[1]).toMatch(/^ {4}at \S+ \(file:\/\/.*\/out\/index\.mjs:\d+:\d+\)$/);
    const lines = mapped.split('\n');
    expect(lines[0]).toBe('Error: amount over the limit: 11');
    // The throw: rules.ts line 3, column 11 (`new Error`), in checkAmount (named at its call site).
    expect(lines[1]).toBe('    at checkAmount (src/rules.ts:3:11)');
    // Its caller, where checkAmount is called, and the entry where the handler was awaited.
    expect(lines[2]).toMatch(/^ {4}at \S+ \(src\/handler\.ts:4:10\)$/);
    expect(lines[3]).toMatch(/^ {4}at (async )?(\S+ \()?src\/main\.ts:5:\d+\)?$/);
    expect(mapped).not.toMatch(/index\.mjs/);
    expect(lines).toHaveLength(raw.split('\n').length);
    // A second error of the same bundle reads the cached map and maps the same way.
    expect(again).toBe(mapped);
  });

  it('returns the stack unchanged when the map is missing or broken', () => {
    for (const map of [
      '{"version":3,"mappings":',
      JSON.stringify({ version: 3, sources: 7, mappings: '!!!' }),
      JSON.stringify({ version: 3, sources: [], names: [], mappings: '' }),
    ]) {
      writeFileSync(`${outfile}.map`, map);
      const { raw, mapped } = run();
      expect(mapped).toBe(raw);
    }
    rmSync(`${outfile}.map`);
    const { raw, mapped } = run();
    expect(mapped).toBe(raw);
  });

  it('returns the stack unchanged where a file has no source map (tests, tsx, the local runtime)', () => {
    const error = new Error('plain');
    expect(mappedStack(error)).toBe(error.stack);
  });

  it('returns what there is when an error has no stack or its stack cannot be read', () => {
    const bare = new Error('bare');
    bare.stack = undefined;
    expect(mappedStack(bare)).toBeUndefined();
    const hostile = new Error('hostile');
    Object.defineProperty(hostile, 'stack', {
      get() {
        throw new Error('no');
      },
    });
    expect(mappedStack(hostile)).toBeUndefined();
  });
});

describe('mappedStack in a chunk', () => {
  // As a Lambda's SDK client is: a module imported on first use, which the stack's code splitting
  // (LAMBDA_BUNDLING) makes a chunk of its own under chunks/, with its own map beside it.
  const split = join(dir, 'split');
  beforeAll(async () => {
    writeFileSync(
      join(dir, 'src/lazy-main.ts'),
      [
        `import { mappedStack } from ${JSON.stringify(resolve('functions/platform/stack-trace.ts'))};`,
        "const { checkAmount } = await import('./rules');",
        'const error = (() => { try { checkAmount(11); } catch (e) { return e as Error; } })()!;',
        'process.stdout.write(JSON.stringify({ raw: error.stack, mapped: mappedStack(error) }));',
        '',
      ].join('\n'),
    );
    await build({ ...LAMBDA_BUNDLING, entryPoints: [join(dir, 'src/lazy-main.ts')], outdir: split });
  });

  it("maps the frames of a chunk through the chunk's own map", () => {
    const env = { ...process.env, NODE_OPTIONS: '' };
    const { raw, mapped } = JSON.parse(
      execFileSync(process.execPath, [join(split, 'index.mjs')], { env, encoding: 'utf8' }),
    ) as { raw: string; mapped: string };
    expect(raw.split('\n')[1]).toMatch(/\/split\/chunks\/rules-\w+\.mjs:\d+:\d+\)$/);
    expect(mapped.split('\n')[1]).toBe('    at checkAmount (src/rules.ts:3:11)');
    expect(mapped).not.toMatch(/\.mjs/);
  });
});

describe('where stacks are logged', () => {
  /** The JSON log lines written to stderr until the mocks are restored. */
  const captureLogLines = (): Record<string, unknown>[] => {
    const lines: Record<string, unknown>[] = [];
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      return true;
    });
    return lines;
  };

  it("logs an SQS worker's unexpected error with its stack, redacted as text; a named error without", async () => {
    const lines = captureLogLines();
    try {
      const handler = sqsHandler('test-worker', z.object({ fail: z.string() }), async ({ message }) => {
        if (message.fail === 'bug') throw new Error('failed calling with Bearer abc123');
        throw new GoneError('Thing gone');
      })(createLocalDeps());
      const record = (messageId: string, fail: string) =>
        ({ messageId, body: JSON.stringify({ fail }), attributes: {} }) as SQSEvent['Records'][number];
      const result = await handler({ Records: [record('m1', 'bug'), record('m2', 'gone')] });
      expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }, { itemIdentifier: 'm2' }]);
      const failed = lines.filter((l) => l.message === 'message failed');
      const bug = failed.find((l) => l.messageId === 'm1')!;
      expect(bug.error).toEqual({ name: 'Error', message: 'failed calling with Bearer [REDACTED]' });
      expect(bug.stack).toMatch(/^Error: failed calling with Bearer \[REDACTED\]\n {4}at /);
      expect(bug.stack).toContain('stack-trace.test.ts');
      expect(JSON.stringify(lines)).not.toContain('abc123');
      const gone = failed.find((l) => l.messageId === 'm2')!;
      expect(gone.error).toEqual({ name: 'GoneError', message: 'Thing gone' });
      expect(gone).not.toHaveProperty('stack');
    } finally {
      jest.restoreAllMocks();
    }
  });

  it("logs a purge task's failure with its stack and throws it on, for Step Functions to retry or catch", async () => {
    const lines = captureLogLines();
    try {
      const task = createPurgeTask(createLocalDeps());
      await expect(task({ task: 'purgePage', input: { jobId: '' } })).rejects.toThrow('Malformed task input');
      const failed = lines.find((l) => l.message === 'purge task failed')!;
      expect(failed.task).toBe('purgePage');
      expect(failed.error).toMatchObject({ message: expect.stringContaining('Malformed task input') });
      expect(String(failed.stack)).toMatch(
        /^PurgeRefused: Malformed task input[^\n]*\n {4}at .*purge-tasks\.ts/,
      );
    } finally {
      jest.restoreAllMocks();
    }
  });

  it("logs a schedule's failure with its stack before the Lambda runtime prints it, and throws it on", async () => {
    const logged: { message: string; fields: Record<string, unknown> }[] = [];
    const log = {
      error: (message: string, fields: Record<string, unknown>) => logged.push({ message, fields }),
    };
    const failure = new Error('sweep broke');
    await expect(
      loggedFailure(log, 'sweep failed', async () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(logged).toHaveLength(1);
    expect(logged[0]!.message).toBe('sweep failed');
    expect(logged[0]!.fields.error).toBe(failure);
    expect(String(logged[0]!.fields.stack)).toMatch(/^Error: sweep broke\n {4}at /);
    await expect(loggedFailure(log, 'sweep failed', async () => 42)).resolves.toBe(42);
    expect(logged).toHaveLength(1);
  });
});
