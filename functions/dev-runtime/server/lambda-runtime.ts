// What the Lambda service does around a handler, for the development runtimes (the local server, the
// local workers and schedules, the emulated AWS runtime's event sources and task runner): each handler
// module's factory is called once with the runtime's ports (a container's init), every invocation gets
// a Lambda context with its deadline, and an invocation that outlives its function timeout fails as
// Lambda fails it (the caller sees an error; the handler's promise is abandoned, not awaited).
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { inInvocationScope } from '../../platform/logger';
import type { Deps } from '../../platform/ports';
import { systemClock } from '../../platform/clock';

export type Invocable = (event: unknown, context: Context) => Promise<unknown>;

export type HandlerLoader = (module: string) => Promise<Invocable>;

/** A function as the runtimes invoke it: its id (the template's), its handler module, its timeout. */
export interface FunctionRef {
  id: string;
  handler: string;
  timeoutSeconds: number;
}

/**
 * Runs one invocation of a function and answers what it returned: in this process (`inProcess`, the
 * local runtime), or in the function's own execution environment from its bundle (the emulated AWS
 * runtime's FunctionPool). API Gateway, event sources, schedules and workflow tasks invoke through it.
 */
export type Invoker = (fn: FunctionRef, event: unknown) => Promise<unknown>;

/** Invokes each function's handler module in this process, with the handlers `load` builds. */
export const inProcess =
  (load: HandlerLoader): Invoker =>
  (fn, event) =>
    invokeFunction(load, fn, event);

/** Loads `functions/<module>.ts` and builds its handler with `create(deps)`, once per module. */
export function handlerLoader(deps: Deps): HandlerLoader {
  const built = new Map<string, Promise<Invocable>>();
  return (module) => {
    let loaded = built.get(module);
    if (!loaded) {
      loaded = import(`../../${module}.ts`).then((m: { create: (deps: Deps) => Invocable }) =>
        m.create(deps),
      );
      built.set(module, loaded);
    }
    return loaded;
  };
}

export function lambdaContext(name: string, timeoutMs = 30_000): Context {
  const deadline = systemClock.now() + timeoutMs;
  return {
    awsRequestId: randomUUID(),
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${name}`,
    memoryLimitInMB: '512',
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => Math.max(0, deadline - systemClock.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** Lambda's own name for a function that ran out of time. */
export class FunctionTimeoutError extends Error {
  constructor(name: string, seconds: number) {
    super(`${name} timed out after ${seconds} seconds`);
    this.name = 'Sandbox.Timedout';
  }
}

/** One invocation of `module`'s handler, as Lambda runs it: with a context, cut at the timeout. */
export async function invokeFunction(load: HandlerLoader, fn: FunctionRef, event: unknown): Promise<unknown> {
  const handler = await load(fn.handler);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new FunctionTimeoutError(fn.id, fn.timeoutSeconds)),
      fn.timeoutSeconds * 1000,
    );
  });
  try {
    const context = lambdaContext(fn.id, fn.timeoutSeconds * 1000);
    return await Promise.race([inInvocationScope(() => handler(event, context)), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
