// Counts the AWS calls each SDK client sends (one per request attempt, retries included), per service
// and operation: the bench's "calls per unit of work" (bench/calls.ts, docs/cost.md). Off unless the
// bench turns it on before the first client is built; a client built while it is off carries nothing.

export type AwsService = 'DynamoDB' | 'KMS' | 'SQS' | 'SFN' | 'S3' | 'SecretsManager';

let counts: Map<string, number> | undefined;
/** Capacity units DynamoDB reported for the counted calls, `<Operation>:table` and `<Operation>:index`. */
let units: Map<string, number> | undefined;

/**
 * One SDK call as a client sends it: the emulated AWS runtime records them (IAM, recorded). An
 * observer that returns a function is shown the call's output too.
 */
export type CallObserver = (call: {
  service: AwsService;
  command: string;
  input: unknown;
}) => void | ((output: unknown) => void);

/** DynamoDB's operations whose capacity is write units (the rest are read units). */
export const WRITE_OPERATIONS = new Set([
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'TransactWriteItems',
]);

interface Consumed {
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
  LocalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

/**
 * The capacity units a DynamoDB answer reports (asked with ReturnConsumedCapacity INDEXES): the
 * table's and its indexes' apart, as writes or reads by the operation. Nothing for other answers.
 */
export function consumedUnits(
  command: string,
  output: unknown,
): { kind: 'write' | 'read'; table: number; index: number } | undefined {
  const reported = (output as { ConsumedCapacity?: Consumed | Consumed[] } | undefined)?.ConsumedCapacity;
  if (!reported) return undefined;
  let table = 0;
  let index = 0;
  for (const consumed of Array.isArray(reported) ? reported : [reported]) {
    const indexes = [
      ...Object.values(consumed.GlobalSecondaryIndexes ?? {}),
      ...Object.values(consumed.LocalSecondaryIndexes ?? {}),
    ].reduce((sum, i) => sum + (i.CapacityUnits ?? 0), 0);
    index += indexes;
    table += consumed.Table?.CapacityUnits ?? (consumed.CapacityUnits ?? 0) - indexes;
  }
  return { kind: WRITE_OPERATIONS.has(command) ? 'write' : 'read', table, index };
}

/** Asks DynamoDB to report what a call consumed, table and indexes apart (counting only). */
export function askConsumedCapacity(service: AwsService, input: unknown): void {
  if (service !== 'DynamoDB' || !input || typeof input !== 'object') return;
  const request = input as { ReturnConsumedCapacity?: string };
  request.ReturnConsumedCapacity ??= 'INDEXES';
}
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
  units ??= new Map();
}

/** The calls counted so far, `Service:Operation` → count, and resets them. */
export function takeCallCounts(): Record<string, number> {
  const taken = Object.fromEntries(counts ?? []);
  counts?.clear();
  return taken;
}

/** The capacity units counted so far (`<Operation>:table`, `<Operation>:index`), and resets them. */
export function takeCapacityUnits(): Record<string, number> {
  const taken = Object.fromEntries(units ?? []);
  units?.clear();
  return taken;
}

/** Adds what one answer consumed to a tally of capacity units. */
export function addConsumed(tally: Map<string, number>, command: string, output: unknown): void {
  const consumed = consumedUnits(command, output);
  if (!consumed) return;
  tally.set(`${command}:table`, (tally.get(`${command}:table`) ?? 0) + consumed.table);
  tally.set(`${command}:index`, (tally.get(`${command}:index`) ?? 0) + consumed.index);
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
        const after = seen({
          service,
          command: (context.commandName ?? 'Unknown').replace(/Command$/, ''),
          input: (args as { input?: unknown }).input,
        });
        if (!after) return next(args);
        const result = await next(args);
        after((result as { output?: unknown }).output);
        return result;
      },
      { step: 'initialize', name: 'callObserver', priority: 'high' },
    );
  }
  if (!counts) return client;
  (client.middlewareStack as MiddlewareStackLike).add(
    (next, context) => async (args) => {
      const command = (context.commandName ?? 'Unknown').replace(/Command$/, '');
      const key = `${service}:${command}`;
      counts?.set(key, (counts.get(key) ?? 0) + 1);
      const result = await next(args);
      if (units) addConsumed(units, command, (result as { output?: unknown }).output);
      return result;
    },
    // After the retry middleware: every attempt on the wire counts.
    { step: 'finalizeRequest', name: 'callCounter', priority: 'low' },
  );
  (client.middlewareStack as MiddlewareStackLike).add(
    (next) => async (args) => {
      askConsumedCapacity(service, (args as { input?: unknown }).input);
      return next(args);
    },
    { step: 'initialize', name: 'consumedCapacity', priority: 'high' },
  );
  return client;
}
