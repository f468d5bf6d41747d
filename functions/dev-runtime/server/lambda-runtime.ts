// What the Lambda service does around a handler, for the development runtimes (the local server, the
// local workers and schedules, the emulated AWS runtime's event sources and task runner): each handler
// module's factory is called once with the runtime's ports (a container's init), every invocation gets
// a Lambda context with its deadline, and an invocation that outlives its function timeout fails as
// Lambda fails it (the caller sees an error; the handler's promise is abandoned, not awaited).
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { inInvocationScope } from '../../platform/logger';
import type { Deps } from '../../platform/ports';

export type Invocable = (event: unknown, context: Context) => Promise<unknown>;

export type HandlerLoader = (module: string) => Promise<Invocable>;

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
  const deadline = Date.now() + timeoutMs;
  return {
    awsRequestId: randomUUID(),
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${name}`,
    memoryLimitInMB: '512',
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
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

/** Which function an invocation belongs to, for what its SDK calls are checked against (IAM, recorded). */
const running = new AsyncLocalStorage<string>();

/** The id of the function whose invocation this code runs in; undefined outside any invocation. */
export const runningFunction = (): string | undefined => running.getStore();

/** One invocation of `module`'s handler, as Lambda runs it: with a context, cut at the timeout. */
export async function invokeFunction(
  load: HandlerLoader,
  fn: { id: string; handler: string; timeoutSeconds: number },
  event: unknown,
): Promise<unknown> {
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
    return await Promise.race([
      running.run(fn.id, () => inInvocationScope(() => handler(event, context))),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
