// Lambda's execution environments for the emulated AWS runtime (issue 25 item 1): every function runs
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
//     terminated, not awaited: the next invocation starts a fresh one (a cold start).
import { Worker } from 'node:worker_threads';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { FunctionTimeoutError } from '../server/lambda-runtime';

/** A function as the pool runs it: its bundle and the environment it runs with. */
export interface PooledFunction {
  id: string;
  /** The bundle's index.mjs, exporting `handler`. */
  bundle: string;
  memorySize: number;
  timeoutSeconds: number;
  /** Exactly the environment of its workers (see functionEnvironment). */
  environment: Record<string, string>;
}

/**
 * A variable's value in the template (lib/emulated-functions.ts): a literal, a resource of the stack by
 * its name (table:platform), or something the runtime cannot resolve.
 */
export type TemplateValue = string | { resource: string } | { unresolved: string };

/** A variable of the template the runtime cannot give a value: the function would not start as deployed. */
export class UnresolvedVariableError extends Error {
  constructor(fn: string, variable: string, value: string) {
    super(`${fn}: the template sets ${variable} to ${value}, which the emulated runtime cannot resolve`);
    this.name = 'UnresolvedVariable';
  }
}

/** An invocation that failed in the function (its init or its handler), named by function. */
export class FunctionInvocationError extends Error {
  constructor(
    readonly functionId: string,
    readonly errorType: string,
    errorMessage: string,
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
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(fn.environment)) {
    if (typeof value === 'string') {
      environment[name] = value;
      continue;
    }
    const resolved = 'resource' in value ? resolve(value.resource) : undefined;
    if (resolved === undefined) {
      throw new UnresolvedVariableError(fn.id, name, 'resource' in value ? value.resource : value.unresolved);
    }
    environment[name] = resolved;
  }
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

// The worker's own code: loads the bundle at the first invocation (the init, as Lambda's first
// invocation of an environment runs it) and answers each invocation message with its result or error.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
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

interface WorkerReply {
  result?: unknown;
  error?: { type: string; message: string };
}

class ExecutionEnvironment {
  private readonly worker: Worker;
  /** Set when the worker died or was terminated: it takes no further invocation. */
  dead = false;
  private pending: { resolve: (reply: WorkerReply) => void; reject: (error: Error) => void } | undefined;

  constructor(fn: PooledFunction) {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      env: fn.environment,
      workerData: { bundle: pathToFileURL(fn.bundle).href },
      // Lambda's memory setting bounds the whole environment; the heap is the part a worker can cap.
      resourceLimits: { maxOldGenerationSizeMb: fn.memorySize },
    });
    this.worker.on('message', (reply: WorkerReply) => {
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

/** The execution environments of every function, each function's own. */
export class FunctionPool {
  private readonly functions = new Map<string, PooledFunction>();
  private readonly warm = new Map<string, ExecutionEnvironment[]>();
  private readonly busy = new Set<ExecutionEnvironment>();

  constructor(functions: Iterable<PooledFunction>) {
    for (const fn of functions) this.functions.set(fn.id, fn);
  }

  has(id: string): boolean {
    return this.functions.has(id);
  }

  /** One invocation of function `id`, as Lambda runs it (a warm environment if one is free). */
  async invoke(id: string, event: unknown): Promise<unknown> {
    const fn = this.functions.get(id);
    if (!fn) throw new Error(`no function ${id} in the pool`);
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
      deadline: Date.now() + timeoutMs,
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
    return reply.result;
  }

  private take(fn: PooledFunction): ExecutionEnvironment {
    const free = this.warm.get(fn.id) ?? [];
    let environment = free.pop();
    while (environment?.dead) environment = free.pop();
    environment ??= new ExecutionEnvironment(fn);
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
