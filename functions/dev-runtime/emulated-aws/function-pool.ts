// Lambda's execution environments for the emulated AWS runtime: every function runs
// from its bundle (lib/emulated-functions.ts builds them as `cdk synth` does) in worker threads of its
// own, a pool per function. Like Lambda:
//   - a worker is an execution environment: it loads the bundle once (the init), in a module scope of
//     its own (no state shared with other functions, or with other workers of the same function), and
//     is reused warm by the next invocation once its current one is over; concurrent invocations each
//     get a worker;
//   - its environment is exactly the function's variables from the template (resolved to what the
//     runtime provisioned) plus what Lambda itself sets (AWS_REGION, AWS_LAMBDA_FUNCTION_NAME, ...) and
//     the emulator's endpoint; nothing of the runtime's own process.env;
//   - the context reports the function's memory (and the worker's heap is capped at it);
//   - an invocation past the function's timeout fails with Sandbox.Timedout and its worker is
//     terminated, not awaited: the next invocation starts a fresh one (a cold start);
//   - Lambda's limits: the payload of a request and of a response (6 MB synchronous, 1 MB
//     asynchronous), the 4 KB of the function's own variables, a file system writable under /tmp only,
//     and the template's NODE_OPTIONS given to the function's worker.
import { Worker } from 'node:worker_threads';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { AwsService } from '../../compose/aws';
import { HOST_OBSERVER } from '../../compose/aws';
import type { Invoker } from '../server/lambda-runtime';
import { FunctionTimeoutError } from '../server/lambda-runtime';
import { HOST_CLOCK, systemClock } from '../../platform/clock';

/** A function as the pool runs it: its bundle and the environment it runs with. */
export interface PooledFunction {
  id: string;
  /** The bundle's index.mjs, exporting `handler`. */
  bundle: string;
  memorySize: number;
  timeoutSeconds: number;
  /** Exactly the environment of its workers (see functionEnvironment). */
  environment: Record<string, string>;
  /** What the key policy lets the function's role do with the key (KMS refuses the rest). */
  keyAccess?: KeyAccess;
}

/**
 * A key's policy as it applies to one function's role: the ids the key goes by (ARN, id, alias), and
 * for each data-plane action whether the policy allows it (resource-policies.ts's keyPolicyAllows).
 */
export interface KeyAccess {
  keys: string[];
  keyArn: string;
  roleArn: string;
  allowed: Record<string, boolean>;
}

/**
 * A variable's value in the template (lib/emulated-functions.ts): a literal, a resource of the stack by
 * its name (table:platform), or something the runtime cannot resolve.
 */
export type TemplateValue = string | { resource: string } | { parameter: string } | { unresolved: string };

/** A variable of the template the runtime cannot give a value: the function would not start as deployed. */
export class UnresolvedVariableError extends Error {
  constructor(fn: string, variable: string, value: string) {
    super(`${fn}: the template sets ${variable} to ${value}`);
    this.name = 'UnresolvedVariable';
  }
}

/**
 * Lambda's invocation payload limits, in bytes of the JSON payload: a synchronous request and every
 * response 6 MB, an asynchronous request (EventBridge's schedules, InvocationType Event) 1 MB. The
 * asynchronous limit was 256 KB until October 2025; SQS's message limit rose to 1 MiB too (moto
 * enforces the queue's MaximumMessageSize itself, so the runtime does not check messages).
 */
export const PAYLOAD_LIMITS = {
  RequestResponse: 6 * 1024 * 1024,
  Event: 1024 * 1024,
} as const;
export type InvocationType = keyof typeof PAYLOAD_LIMITS;

/** Lambda's limit on a function's own variables: 4 KB, measured as the JSON of their map. */
export const ENVIRONMENT_LIMIT_BYTES = 4 * 1024;

/** An invocation Lambda refuses before the function runs: its payload is over the limit. */
export class RequestTooLargeError extends Error {
  constructor(fn: string, type: InvocationType, bytes: number) {
    super(
      `${fn}: the ${type === 'Event' ? 'asynchronous' : 'synchronous'} invocation's payload is ${bytes} bytes, ` +
        `over Lambda's ${PAYLOAD_LIMITS[type]}`,
    );
    this.name = 'RequestEntityTooLargeException';
  }
}

/** A function whose own variables Lambda would not take: a deployment of it fails. */
export class EnvironmentTooLargeError extends Error {
  constructor(fn: string, bytes: number) {
    super(`${fn}: its environment variables take ${bytes} bytes, over Lambda's ${ENVIRONMENT_LIMIT_BYTES}`);
    this.name = 'EnvironmentTooLarge';
  }
}

/** A NODE_OPTIONS of the template the runtime cannot give a worker thread (a process-wide option). */
export class NodeOptionsError extends Error {
  constructor(fn: string, options: string, reason: string) {
    super(`${fn}: the template's NODE_OPTIONS (${options}) cannot be applied here: ${reason}`);
    this.name = 'NodeOptionsUnsupported';
  }
}

/** An invocation that failed in the function (its init or its handler), named by function. */
export class FunctionInvocationError extends Error {
  constructor(
    readonly functionId: string,
    readonly errorType: string,
    /** The function's own error message, as Lambda reports it (errorMessage). */
    readonly errorMessage: string,
  ) {
    super(`${functionId} failed: ${errorType}: ${errorMessage}`);
    this.name = 'FunctionInvocationError';
  }
}

/**
 * A function's environment as Lambda gives it: the template's variables, each reference to a resource
 * resolved by `resolve` (the stack's name → what the runtime provisioned), and Lambda's reserved ones.
 * `runtime` carries what the emulator needs on top (its endpoint and credentials), nothing else.
 */
export function functionEnvironment(
  fn: { id: string; memorySize: number; environment: Record<string, TemplateValue> },
  resolve: (resource: string) => string | undefined,
  runtime: Record<string, string>,
  parameters: Record<string, string | undefined> = {},
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(fn.environment)) {
    if (typeof value === 'string') {
      environment[name] = value;
      continue;
    }
    const resolved =
      'resource' in value
        ? resolve(value.resource)
        : 'parameter' in value
          ? parameters[value.parameter]
          : undefined;
    if (resolved === undefined) {
      const named =
        'resource' in value
          ? `${value.resource}, which the emulated runtime did not provision`
          : 'parameter' in value
            ? `the parameter ${value.parameter}, which has no value`
            : `${value.unresolved}, which the emulated runtime cannot resolve`;
      throw new UnresolvedVariableError(fn.id, name, named);
    }
    environment[name] = resolved;
  }
  const bytes = Buffer.byteLength(JSON.stringify(environment));
  if (bytes > ENVIRONMENT_LIMIT_BYTES) throw new EnvironmentTooLargeError(fn.id, bytes);
  return {
    ...environment,
    ...runtime,
    AWS_LAMBDA_FUNCTION_NAME: fn.id,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memorySize),
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${fn.id}`,
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
    TZ: ':UTC',
  };
}

/**
 * What a function's environment needs on the emulated runtime on top of its own (which Lambda would
 * set too, or which point the SDK at the emulator): region, credentials and endpoints, from the
 * runtime's environment.
 */
export function emulatorEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const pattern =
    /^AWS_(REGION|DEFAULT_REGION|ACCESS_KEY_ID|SECRET_ACCESS_KEY|SESSION_TOKEN|ENDPOINT_URL(_[A-Z0-9_]+)?)$/;
  return Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => pattern.test(e[0]) && e[1] !== undefined),
  );
}

// The worker's own code. Before the bundle loads it installs what the emulated runtime adds around a
// function, as a Lambda extension would, never inside the function's code:
//   - the development clock (LOCAL_TEST_HOOKS): the deployed composition's clock port reads the offset
//     the runtime moves in shared memory (HOST_CLOCK in functions/platform/clock.ts), so a function sees
//     the time the tests set, as the local runtime's handlers do; Date itself is untouched;
//   - the SDK call observer (HOST_OBSERVER in functions/adapters/aws/call-counter.ts): each call's
//     service, operation and the names of the resources it touches go to the runtime (IAM, recorded),
//     a KMS call the key policy does not allow the function's role fails as KMS fails it
//     (AccessDeniedException), and with the development clock SQS delays are sent at most
//     maxDelaySeconds long.
// Then it loads the bundle at the first invocation (the init, as Lambda's first invocation of an
// environment runs it) and answers each invocation message with its result or error.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { clockOffset, maxDelaySeconds, recordCalls, recordCapacity, observerKey, clockKey, keyAccess } = workerData;
// Lambda runs nodejs22.x, where the SDK has no Node version to warn about; here it would, once per worker.
const emitWarning = process.emitWarning;
process.emitWarning = (warning, ...rest) => {
  if (String(warning).startsWith('NodeVersionSupportWarning')) return;
  return emitWarning.call(process, warning, ...rest);
};
if (clockOffset) {
  // The development clock, as the local runtime's clock port has it: now() moved, wall() real.
  const offset = new Float64Array(clockOffset);
  globalThis[Symbol.for(clockKey)] = { now: () => Date.now() + offset[0], wall: () => Date.now() };
}
const names = (input) => {
  if (!input || typeof input !== 'object') return {};
  const out = {};
  for (const key of ['TableName', 'QueueUrl', 'Bucket', 'stateMachineArn', 'executionArn', 'SecretId', 'Name']) {
    if (typeof input[key] === 'string') out[key] = input[key];
  }
  if (input.RequestItems) out.RequestItems = Object.fromEntries(Object.keys(input.RequestItems).map((n) => [n, {}]));
  if (Array.isArray(input.TransactItems)) {
    out.TransactItems = input.TransactItems.map((item) =>
      Object.fromEntries(Object.entries(item).map(([op, body]) => [op, { TableName: body && body.TableName }])),
    );
  }
  return out;
};
const cap = (entry) => {
  if (entry && entry.DelaySeconds > maxDelaySeconds) entry.DelaySeconds = maxDelaySeconds;
};
// The key policy, as KMS applies it before the role's own policy: a call on the key (by any of its
// ids, or none: a ciphertext names its key) for an action the policy does not allow the role fails.
const refusedByKey = (service, command, input) => {
  if (!keyAccess || service !== 'KMS') return undefined;
  const action = 'kms:' + command;
  const keyId = input && input.KeyId;
  if ((keyId !== undefined && !keyAccess.keys.includes(keyId)) || keyAccess.allowed[action] !== false) return undefined;
  return Object.assign(
    new Error('User: ' + keyAccess.roleArn + ' is not authorized to perform: ' + action + ' on resource: ' +
      keyAccess.keyArn + ' because no resource-based policy allows the ' + action + ' action'),
    { name: 'AccessDeniedException', $fault: 'client' },
  );
};
globalThis[Symbol.for(observerKey)] = ({ service, command, input }) => {
  const refused = refusedByKey(service, command, input);
  if (refused) throw refused;
  if (maxDelaySeconds !== undefined && service === 'SQS') {
    cap(input);
    for (const entry of (input && input.Entries) || []) cap(entry);
  }
  if (recordCalls) parentPort.postMessage({ call: { service, command, input: names(input) } });
  if (!recordCapacity || service !== 'DynamoDB' || !input) return;
  // DynamoDB reports the capacity a call consumed, table and indexes apart, only when asked.
  if (input.ReturnConsumedCapacity === undefined) input.ReturnConsumedCapacity = 'INDEXES';
  return (output) =>
    parentPort.postMessage({ consumed: { command, ConsumedCapacity: output && output.ConsumedCapacity } });
};
// Lambda's file system is read-only but for /tmp: every fs call that writes (a file, a directory, a
// link, a mode) to a path outside /tmp, or into the function's own code directory, fails with EROFS as
// it would there. Descriptors are checked where they are opened.
const fs = require('node:fs');
const { resolve: resolvePath } = require('node:path');
const { fileURLToPath } = require('node:url');
const { syncBuiltinESMExports } = require('node:module');
// The code directory (Lambda's /var/task) stays read-only even where the bundle lies under /tmp.
const codeDir = resolvePath(fileURLToPath(workerData.bundle), '..');
const inside = (file, dir) => file === dir || file.startsWith(dir + '/');
const underTmp = (target) => {
  if (typeof target === 'number') return true;
  const file = resolvePath(target instanceof URL ? fileURLToPath(target) : String(target));
  return inside(file, '/tmp') && !inside(file, codeDir);
};
const { O_WRONLY, O_RDWR, O_CREAT, O_APPEND, O_TRUNC } = fs.constants;
const writesWith = (flags) =>
  typeof flags === 'number'
    ? (flags & (O_WRONLY | O_RDWR | O_CREAT | O_APPEND | O_TRUNC)) !== 0
    : flags !== undefined && flags !== null && /[wa+]/.test(String(flags));
const readOnly = (syscall, target) =>
  Object.assign(new Error("EROFS: read-only file system, " + syscall + " '" + String(target) + "'"), {
    code: 'EROFS', errno: -30, syscall, path: String(target),
  });
// Each writing call by name: the positions of the paths it writes (open: only with writing flags).
const WRITES = {
  writeFile: [0], appendFile: [0], mkdir: [0], mkdtemp: [0], rm: [0], rmdir: [0], unlink: [0],
  truncate: [0], chmod: [0], chown: [0], lchown: [0], utimes: [0], lutimes: [0],
  rename: [0, 1], copyFile: [1], cp: [1], symlink: [1], link: [1], open: [0],
};
const refused = (name, args) => {
  if (name === 'open' && !writesWith(args[1])) return undefined;
  const path = WRITES[name].map((i) => args[i]).find((p) => p !== undefined && !underTmp(p));
  return path === undefined ? undefined : readOnly(name, path);
};
for (const name of Object.keys(WRITES)) {
  const sync = fs[name + 'Sync'];
  if (sync) fs[name + 'Sync'] = function (...args) {
    const error = refused(name, args);
    if (error) throw error;
    return sync.apply(this, args);
  };
  const callback = fs[name];
  if (callback) fs[name] = function (...args) {
    const error = refused(name, args);
    const done = args[args.length - 1];
    if (error && typeof done === 'function') return void process.nextTick(done, error);
    if (error) throw error;
    return callback.apply(this, args);
  };
  const promised = fs.promises[name];
  if (promised) fs.promises[name] = function (...args) {
    const error = refused(name, args);
    return error ? Promise.reject(error) : promised.apply(this, args);
  };
}
const createWriteStream = fs.createWriteStream;
fs.createWriteStream = function (path, options) {
  if (path !== undefined && path !== null && !underTmp(path)) throw readOnly('open', path);
  return createWriteStream.call(this, path, options);
};
syncBuiltinESMExports();
let handler;
const serialize = (error) => ({
  type: (error && error.name) || 'Error',
  message: String((error && error.message) || error),
});
parentPort.on('message', async ({ event, context }) => {
  try {
    handler ??= (await import(workerData.bundle)).handler;
    if (typeof handler !== 'function') throw new TypeError(workerData.bundle + ' exports no handler');
    const deadline = context.deadline;
    const result = await handler(event, {
      ...context,
      getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
      done() {},
      fail() {},
      succeed() {},
    });
    parentPort.postMessage({ result });
  } catch (error) {
    parentPort.postMessage({ error: serialize(error) });
  }
});
`;

/** An SDK call a function made, as its worker reports it: the names of what it touched, no payload. */
export interface ObservedCall {
  service: AwsService;
  command: string;
  input: Record<string, unknown>;
}

/** What the runtime adds around every function (see WORKER_SOURCE). */
export interface PoolOptions {
  /** The development clock's offset in ms, element 0, in shared memory the runtime moves. */
  clockOffset?: Float64Array;
  /** SQS delays longer than this are sent this long (with the development clock). */
  maxDelaySeconds?: number;
  /** Each SDK call of a function (IAM, recorded). */
  onCall?: (functionId: string, call: ObservedCall) => void;
  /** The capacity each DynamoDB call of a function consumed (the calls bench), as DynamoDB reports it. */
  onConsumed?: (functionId: string, consumed: ObservedCapacity) => void;
}

/** What one DynamoDB call consumed, as its answer's ConsumedCapacity says (table and indexes apart). */
export interface ObservedCapacity {
  command: string;
  ConsumedCapacity?: unknown;
}

interface WorkerReply {
  result?: unknown;
  error?: { type: string; message: string };
  call?: ObservedCall;
  consumed?: ObservedCapacity;
}

/** The template's NODE_OPTIONS, as a worker's execArgv (Lambda's runtime reads the variable at start). */
const nodeOptionsOf = (fn: PooledFunction): string[] =>
  (fn.environment.NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean);

/**
 * Refuses NODE_OPTIONS a worker thread cannot take (process-wide options such as the heap size, which
 * the worker's resourceLimits set from the memory setting instead), by function, at the pool's start.
 */
function checkNodeOptions(fn: PooledFunction): void {
  const execArgv = nodeOptionsOf(fn);
  if (!execArgv.length) return;
  try {
    void new Worker('', { eval: true, execArgv }).terminate();
  } catch (error) {
    throw new NodeOptionsError(fn.id, execArgv.join(' '), (error as Error).message);
  }
}

class ExecutionEnvironment {
  private readonly worker: Worker;
  /** Set when the worker died or was terminated: it takes no further invocation. */
  dead = false;
  private pending: { resolve: (reply: WorkerReply) => void; reject: (error: Error) => void } | undefined;

  constructor(fn: PooledFunction, options: PoolOptions) {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      env: fn.environment,
      execArgv: nodeOptionsOf(fn),
      workerData: {
        bundle: pathToFileURL(fn.bundle).href,
        clockOffset: options.clockOffset?.buffer,
        maxDelaySeconds: options.maxDelaySeconds,
        recordCalls: Boolean(options.onCall),
        recordCapacity: Boolean(options.onConsumed),
        observerKey: HOST_OBSERVER.description,
        clockKey: HOST_CLOCK.description,
        keyAccess: fn.keyAccess,
      },
      // Lambda's memory setting bounds the whole environment; the heap is the part a worker can cap.
      resourceLimits: { maxOldGenerationSizeMb: fn.memorySize },
    });
    this.worker.on('message', (reply: WorkerReply) => {
      if (reply.call) return options.onCall?.(fn.id, reply.call);
      if (reply.consumed) return options.onConsumed?.(fn.id, reply.consumed);
      const pending = this.pending;
      this.pending = undefined;
      pending?.resolve(reply);
    });
    const died = (error: Error) => {
      this.dead = true;
      const pending = this.pending;
      this.pending = undefined;
      pending?.reject(error);
    };
    this.worker.on('error', died);
    this.worker.on('exit', (code) => died(new Error(`the execution environment exited with ${code}`)));
  }

  run(event: unknown, context: Record<string, unknown>): Promise<WorkerReply> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.worker.postMessage({ event, context });
    });
  }

  /** Idle workers do not keep the process alive; a busy one does, as its caller waits for it. */
  idle(idle: boolean): void {
    if (idle) this.worker.unref();
    else this.worker.ref();
  }

  async terminate(): Promise<void> {
    this.dead = true;
    await this.worker.terminate();
  }
}

/** A payload's size as Lambda measures it: the bytes of its JSON. */
const payloadBytes = (payload: unknown): number =>
  payload === undefined ? 0 : Buffer.byteLength(JSON.stringify(payload));

/** The execution environments of every function, each function's own. */
export class FunctionPool {
  private readonly functions = new Map<string, PooledFunction>();
  private readonly warm = new Map<string, ExecutionEnvironment[]>();
  private readonly busy = new Set<ExecutionEnvironment>();

  constructor(
    functions: Iterable<PooledFunction>,
    private readonly options: PoolOptions = {},
  ) {
    for (const fn of functions) {
      checkNodeOptions(fn);
      this.functions.set(fn.id, fn);
    }
  }

  /** Invokes through the pool: the runtimes' Invoker (see lambda-runtime.ts). */
  readonly invoker: Invoker = (fn, event) => this.invoke(fn.id, event);

  /** Invokes asynchronously as EventBridge does (InvocationType Event): the 1 MB payload limit. */
  readonly asyncInvoker: Invoker = (fn, event) => this.invoke(fn.id, event, 'Event');

  has(id: string): boolean {
    return this.functions.has(id);
  }

  /** One invocation of function `id`, as Lambda runs it (a warm environment if one is free). */
  async invoke(id: string, event: unknown, type: InvocationType = 'RequestResponse'): Promise<unknown> {
    const fn = this.functions.get(id);
    if (!fn) throw new Error(`no function ${id} in the pool`);
    const requestBytes = payloadBytes(event);
    if (requestBytes > PAYLOAD_LIMITS[type]) throw new RequestTooLargeError(id, type, requestBytes);
    const environment = this.take(fn);
    const timeoutMs = fn.timeoutSeconds * 1000;
    const context = {
      awsRequestId: randomUUID(),
      functionName: fn.id,
      functionVersion: '$LATEST',
      invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${fn.id}`,
      memoryLimitInMB: String(fn.memorySize),
      logGroupName: `/aws/lambda/${fn.id}`,
      logStreamName: 'emulated',
      callbackWaitsForEmptyEventLoop: false,
      deadline: systemClock.now() + timeoutMs,
    };
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new FunctionTimeoutError(fn.id, fn.timeoutSeconds)), timeoutMs);
    });
    let reply: WorkerReply;
    try {
      reply = await Promise.race([environment.run(event, context), timedOut]);
    } catch (error) {
      // Timed out or died: Lambda abandons the environment; the next invocation gets a fresh one.
      this.busy.delete(environment);
      await environment.terminate();
      if (error instanceof FunctionTimeoutError) throw error;
      throw new FunctionInvocationError(fn.id, 'Runtime.ExitError', (error as Error).message);
    } finally {
      clearTimeout(timer);
    }
    this.release(fn.id, environment);
    if (reply.error) throw new FunctionInvocationError(fn.id, reply.error.type, reply.error.message);
    if (payloadBytes(reply.result) > PAYLOAD_LIMITS.RequestResponse) {
      // Lambda's own words; the function ran, its response is dropped.
      throw new FunctionInvocationError(
        fn.id,
        'Function.ResponseSizeTooLarge',
        `Response payload size exceeded maximum allowed payload size (${PAYLOAD_LIMITS.RequestResponse} bytes).`,
      );
    }
    return reply.result;
  }

  private take(fn: PooledFunction): ExecutionEnvironment {
    const free = this.warm.get(fn.id) ?? [];
    let environment = free.pop();
    while (environment?.dead) environment = free.pop();
    environment ??= new ExecutionEnvironment(fn, this.options);
    environment.idle(false);
    this.busy.add(environment);
    return environment;
  }

  private release(id: string, environment: ExecutionEnvironment): void {
    this.busy.delete(environment);
    if (environment.dead) return;
    environment.idle(true);
    const free = this.warm.get(id) ?? [];
    free.push(environment);
    this.warm.set(id, free);
  }

  /** Ends every environment (the runtime stops). */
  async close(): Promise<void> {
    const all = [...this.busy, ...[...this.warm.values()].flat()];
    this.busy.clear();
    this.warm.clear();
    await Promise.all(all.map((e) => e.terminate()));
  }
}
