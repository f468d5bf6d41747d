// The emulated AWS runtime's execution environments: a function runs from its bundle
// in workers of its own, with exactly its environment, its memory in the context, warm reuse, a module
// scope per function, and a timed-out invocation abandoned with its worker replaced. The bundles here
// are small ES modules written for the test (the real bundles: test/integration/function-pool.test.ts).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PooledFunction } from '../../functions/dev-runtime/emulated-aws/function-pool';
import {
  EnvironmentTooLargeError,
  FunctionInvocationError,
  FunctionPool,
  UnresolvedVariableError,
  functionEnvironment,
} from '../../functions/dev-runtime/emulated-aws/function-pool';

const dir = mkdtempSync(join(tmpdir(), 'ces-pool-'));
const bundle = (name: string, source: string) => {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, source);
  return file;
};

// Module state counts the invocations of one environment; `sleep` makes one outlive the timeout.
const counter = bundle(
  'counter',
  `let count = 0;
   export const handler = async (event, context) => {
     count += 1;
     if (event.sleep) await new Promise((r) => setTimeout(r, event.sleep));
     return { count, env: { ...process.env }, memory: context.memoryLimitInMB,
              remaining: context.getRemainingTimeInMillis(), name: context.functionName };
   };`,
);
const failing = bundle(
  'failing',
  `const table = process.env.TABLE_PLATFORM;
   export const handler = async () => {
     if (!table) { const e = new Error('TABLE_PLATFORM is not set'); e.name = 'ConfigurationError'; throw e; }
     return table;
   };`,
);

const fn = (id: string, file: string, extra: Partial<PooledFunction> = {}): PooledFunction => ({
  id,
  bundle: file,
  memorySize: 256,
  timeoutSeconds: 2,
  environment: { STAGE: 'dev', ONLY_MINE: id },
  ...extra,
});

type CounterResult = {
  count: number;
  env: Record<string, string>;
  memory: string;
  remaining: number;
  name: string;
};

describe('the function pool of the emulated AWS runtime', () => {
  const pool = new FunctionPool([
    fn('first', counter),
    fn('second', counter, { memorySize: 1024 }),
    fn('slow', counter, { timeoutSeconds: 1 }),
    fn('needsTable', failing),
  ]);
  afterAll(() => pool.close());

  it('gives a function exactly its environment, none of the runtime process', async () => {
    process.env.RUNTIME_ONLY_SETTING = 'leaked';
    const result = (await pool.invoke('first', {})) as CounterResult;
    expect(result.env).toEqual({ STAGE: 'dev', ONLY_MINE: 'first' });
    expect(result.name).toBe('first');
    delete process.env.RUNTIME_ONLY_SETTING;
  });

  it('reports the memory setting and the time left before the timeout', async () => {
    const result = (await pool.invoke('second', {})) as CounterResult;
    expect(result.memory).toBe('1024');
    expect(result.remaining).toBeGreaterThan(0);
    expect(result.remaining).toBeLessThanOrEqual(2000);
  });

  it('reuses a warm environment, and keeps module state per function', async () => {
    const before = ((await pool.invoke('first', {})) as CounterResult).count;
    expect(((await pool.invoke('first', {})) as CounterResult).count).toBe(before + 1);
    // The same bundle as another function: a module scope of its own.
    const other = new FunctionPool([fn('third', counter)]);
    expect(((await other.invoke('third', {})) as CounterResult).count).toBe(1);
    await other.close();
  });

  it('runs concurrent invocations in environments of their own', async () => {
    const fresh = new FunctionPool([fn('busy', counter)]);
    const results = (await Promise.all([
      fresh.invoke('busy', { sleep: 200 }),
      fresh.invoke('busy', { sleep: 200 }),
    ])) as CounterResult[];
    expect(results.map((r) => r.count)).toEqual([1, 1]);
    await fresh.close();
  });

  it('abandons an invocation past the timeout and replaces its environment', async () => {
    expect(((await pool.invoke('slow', {})) as CounterResult).count).toBe(1);
    await expect(pool.invoke('slow', { sleep: 5_000 })).rejects.toThrow('slow timed out after 1 seconds');
    // A fresh environment: its module state starts again.
    expect(((await pool.invoke('slow', {})) as CounterResult).count).toBe(1);
  });

  it('names the function when it fails for lack of a variable the template did not give it', async () => {
    const error = await pool.invoke('needsTable', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FunctionInvocationError);
    expect((error as Error).message).toBe('needsTable failed: ConfigurationError: TABLE_PLATFORM is not set');
  });
});

describe("a function's environment from its template", () => {
  const resources: Record<string, string> = { 'table:platform': 'ces-local-platform' };
  const runtime = { AWS_ENDPOINT_URL: 'http://127.0.0.1:5000', AWS_REGION: 'eu-west-1' };

  it("resolves the template's references to the runtime's resources and adds Lambda's own variables", () => {
    const environment = functionEnvironment(
      {
        id: 'apiKeyAuthorizer',
        memorySize: 512,
        environment: { STAGE: 'dev', TABLE_PLATFORM: { resource: 'table:platform' } },
      },
      (name) => resources[name],
      runtime,
    );
    expect(environment).toEqual({
      STAGE: 'dev',
      TABLE_PLATFORM: 'ces-local-platform',
      ...runtime,
      AWS_LAMBDA_FUNCTION_NAME: 'apiKeyAuthorizer',
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '512',
      AWS_LAMBDA_LOG_GROUP_NAME: '/aws/lambda/apiKeyAuthorizer',
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
      TZ: ':UTC',
    });
  });

  it('refuses, by function and variable, a value it cannot resolve', () => {
    expect(() =>
      functionEnvironment(
        { id: 'fanOut', memorySize: 512, environment: { QUEUE_EVENTS_URL: { resource: 'queue:nowhere' } } },
        (name) => resources[name],
        runtime,
      ),
    ).toThrow(
      new UnresolvedVariableError(
        'fanOut',
        'QUEUE_EVENTS_URL',
        'queue:nowhere, which the emulated runtime did not provision',
      ),
    );
  });
});

// Tries each way a function could write outside /tmp (the named ESM import too), then in /tmp.
const writer = bundle(
  'writer',
  `import fs, { writeFileSync } from 'node:fs';
   import { writeFile } from 'node:fs/promises';
   import { dirname, join } from 'node:path';
   import { fileURLToPath } from 'node:url';
   const code = dirname(fileURLToPath(import.meta.url));
   const attempt = async (f) => { try { await f(); return 'written'; } catch (e) { return e.code; } };
   export const handler = async ({ tmp }) => ({
     codeDir: await attempt(() => writeFileSync(join(code, 'planted.mjs'), 'x')),
     cwd: await attempt(() => writeFile(join(process.cwd(), 'planted.txt'), 'x')),
     open: await attempt(() => fs.closeSync(fs.openSync('/var/planted', 'w'))),
     mkdir: await attempt(() => fs.promises.mkdir('/opt/planted')),
     callback: await attempt(() => new Promise((ok, no) => fs.appendFile('/etc/planted', 'x', (e) => (e ? no(e) : ok())))),
     stream: await attempt(() => fs.createWriteStream('/planted')),
     readOwnCode: await attempt(() => fs.readFileSync(fileURLToPath(import.meta.url))),
     tmp: await attempt(() => writeFileSync(join(tmp, 'allowed.txt'), 'x')),
   });`,
);
const echo = bundle(
  'echo',
  `export const handler = async (event) => ({
     size: event.size ?? 0,
     body: event.reply ? 'x'.repeat(event.reply) : '',
     sourceMaps: process.sourceMapsEnabled, execArgv: process.execArgv,
   });`,
);

describe("Lambda's limits in the function pool", () => {
  const pool = new FunctionPool([
    fn('writer', writer),
    fn('echo', echo),
    fn('withSourceMaps', echo, { environment: { NODE_OPTIONS: '--enable-source-maps' } }),
  ]);
  afterAll(() => pool.close());

  it('refuses writes outside /tmp and into the code directory with EROFS; /tmp and reads work', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'ces-pool-tmp-'));
    expect(await pool.invoke('writer', { tmp })).toEqual({
      codeDir: 'EROFS',
      cwd: 'EROFS',
      open: 'EROFS',
      mkdir: 'EROFS',
      callback: 'EROFS',
      stream: 'EROFS',
      readOwnCode: 'written',
      tmp: 'written',
    });
  });

  it('refuses a synchronous request over 6 MB and an asynchronous one over 1 MB before the function runs', async () => {
    const mb = 1024 * 1024;
    const payload = (bytes: number) => ({ pad: 'x'.repeat(bytes - 12) }); // {"pad":"..."} is 10 bytes more
    await expect(pool.invoke('echo', payload(6 * mb - 100))).resolves.toMatchObject({ size: 0 });
    await expect(pool.invoke('echo', payload(6 * mb + 100))).rejects.toMatchObject({
      name: 'RequestEntityTooLargeException',
      message: expect.stringMatching(
        /^echo: the synchronous invocation's payload is \d+ bytes, over Lambda's 6291456$/,
      ) as string,
    });
    await expect(pool.invoke('echo', payload(mb - 100), 'Event')).resolves.toBeDefined();
    await expect(pool.invoke('echo', payload(mb + 100), 'Event')).rejects.toMatchObject({
      name: 'RequestEntityTooLargeException',
    });
    // The schedules' invoker is the asynchronous one.
    await expect(
      pool.asyncInvoker({ id: 'echo', handler: 'echo', timeoutSeconds: 2 }, payload(mb + 100)),
    ).rejects.toThrow("over Lambda's 1048576");
  });

  it('fails an invocation whose response is over 6 MB, as Function.ResponseSizeTooLarge', async () => {
    await expect(pool.invoke('echo', { reply: 6 * 1024 * 1024 })).rejects.toMatchObject({
      errorType: 'Function.ResponseSizeTooLarge',
      errorMessage: 'Response payload size exceeded maximum allowed payload size (6291456 bytes).',
    });
    await expect(pool.invoke('echo', { reply: 1024 })).resolves.toMatchObject({ size: 0 });
  });

  it("applies the template's NODE_OPTIONS to the function's workers, and refuses one a worker cannot take", async () => {
    expect(await pool.invoke('withSourceMaps', {})).toMatchObject({
      sourceMaps: true,
      execArgv: ['--enable-source-maps'],
    });
    expect(await pool.invoke('echo', {})).toMatchObject({ sourceMaps: false, execArgv: [] });
    expect(
      () =>
        new FunctionPool([fn('heap', echo, { environment: { NODE_OPTIONS: '--max-old-space-size=100' } })]),
    ).toThrow(
      new RegExp("^heap: the template's NODE_OPTIONS \\(--max-old-space-size=100\\) cannot be applied here"),
    );
  });

  it('refuses a function whose own variables take more than 4 KB', () => {
    const big = { id: 'big', memorySize: 128, environment: { A: 'x'.repeat(4000), B: 'y'.repeat(100) } };
    expect(() => functionEnvironment(big, () => undefined, {})).toThrow(
      new EnvironmentTooLargeError('big', Buffer.byteLength(JSON.stringify(big.environment))),
    );
    // Lambda's and the emulator's own variables do not count.
    const fits = { ...big, environment: { A: 'x'.repeat(4000) } };
    expect(functionEnvironment(fits, () => undefined, { AWS_ENDPOINT_URL: 'y'.repeat(500) }).A).toHaveLength(
      4000,
    );
  });
});

describe("the key policy in a function's worker", () => {
  // A bundle that makes an SDK-like call through the observer the worker installs, as the aws
  // adapters' clients do before sending.
  const kmsCaller = bundle(
    'kms-caller',
    `export const handler = async ({ command, KeyId }) => {
       const observe = globalThis[Symbol.for('connector-event-service.aws-call-observer')];
       try { observe({ service: 'KMS', command, input: { KeyId } }); return 'sent'; }
       catch (error) { return error.name + ': ' + error.message; }
     };`,
  );
  const keyAccess = {
    keys: ['arn:aws:kms:us-east-1:123456789012:key/k1', 'k1', 'alias/ces-local-envelope'],
    keyArn: 'arn:aws:kms:us-east-1:123456789012:key/k1',
    roleArn: 'arn:aws:iam::123456789012:role/Deliver',
    allowed: { 'kms:Decrypt': true, 'kms:GenerateDataKey': false },
  };

  it('refuses, as KMS does, a call on the key the key policy does not allow the role; lets the others through', async () => {
    const pool = new FunctionPool([fn('deliver', kmsCaller, { keyAccess })]);
    try {
      const ask = (command: string, KeyId?: string) => pool.invoke('deliver', { command, KeyId });
      expect(await ask('Decrypt', 'k1')).toBe('sent');
      expect(await ask('GenerateDataKey', keyAccess.keyArn)).toBe(
        'AccessDeniedException: User: arn:aws:iam::123456789012:role/Deliver is not authorized to perform: ' +
          'kms:GenerateDataKey on resource: arn:aws:kms:us-east-1:123456789012:key/k1 because no ' +
          'resource-based policy allows the kms:GenerateDataKey action',
      );
      // A ciphertext names its key: a call without KeyId is on the one key.
      expect(await ask('GenerateDataKey')).toMatch(/^AccessDeniedException/);
      // Another key's policy is not this one's.
      expect(await ask('GenerateDataKey', 'other-key')).toBe('sent');
    } finally {
      await pool.close();
    }
  });
});
