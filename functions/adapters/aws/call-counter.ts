// Counts the AWS calls each SDK client sends (one per request attempt, retries included), per service
// and operation: the bench's "calls per unit of work" (bench/calls.ts, docs/cost.md). Off unless the
// bench turns it on before the first client is built; a client built while it is off carries nothing.

export type AwsService = 'DynamoDB' | 'KMS' | 'SQS' | 'SFN' | 'S3' | 'SecretsManager';

let counts: Map<string, number> | undefined;

/** One SDK call as a client sends it: the emulated AWS runtime records them (IAM, recorded). */
export type CallObserver = (call: { service: AwsService; command: string; input: unknown }) => void;
let observer: CallObserver | undefined;

/** Sees every call of the clients built from now on (the emulated AWS runtime only; never in Lambda). */
export function observeCalls(observe: CallObserver): void {
  observer = observe;
}

/**
 * Where the emulated AWS runtime's execution environment (a worker running a function's bundle) puts
 * its observer before it loads the bundle: the bundle has its own copy of this module, so the host
 * reaches it through the global object. Never set in Lambda.
 */
export const HOST_OBSERVER = Symbol.for('connector-event-service.aws-call-observer');

const hostObserver = (): CallObserver | undefined =>
  (globalThis as { [HOST_OBSERVER]?: CallObserver })[HOST_OBSERVER];

/** Starts counting (the bench only); clients built from now on count their calls. */
export function enableCallCounting(): void {
  counts ??= new Map();
}

/** The calls counted so far, `Service:Operation` → count, and resets them. */
export function takeCallCounts(): Record<string, number> {
  const taken = Object.fromEntries(counts ?? []);
  counts?.clear();
  return taken;
}

interface MiddlewareStackLike {
  add(
    middleware: (
      next: (args: unknown) => Promise<unknown>,
      context: { commandName?: string },
    ) => (args: unknown) => Promise<unknown>,
    options: { step: 'finalizeRequest' | 'initialize'; name: string; priority: 'low' | 'high' },
  ): void;
}

/**
 * The client, with a middleware counting its sent requests when counting is on, and one showing each
 * call to the observer when there is one.
 */
export function counted<T extends { middlewareStack: unknown }>(service: AwsService, client: T): T {
  const seen = observer ?? hostObserver();
  if (seen) {
    (client.middlewareStack as MiddlewareStackLike).add(
      (next, context) => async (args) => {
        seen({
          service,
          command: (context.commandName ?? 'Unknown').replace(/Command$/, ''),
          input: (args as { input?: unknown }).input,
        });
        return next(args);
      },
      { step: 'initialize', name: 'callObserver', priority: 'high' },
    );
  }
  if (!counts) return client;
  (client.middlewareStack as MiddlewareStackLike).add(
    (next, context) => async (args) => {
      const key = `${service}:${(context.commandName ?? 'Unknown').replace(/Command$/, '')}`;
      counts?.set(key, (counts.get(key) ?? 0) + 1);
      return next(args);
    },
    // After the retry middleware: every attempt on the wire counts.
    { step: 'finalizeRequest', name: 'callCounter', priority: 'low' },
  );
  return client;
}
