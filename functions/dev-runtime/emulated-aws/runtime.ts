// The emulated AWS runtime (`npm run start:aws`, or `npm start` with AWS_ENDPOINT_URL set): provisions
// the stack's resources at the emulator endpoint from the definitions the CDK stack deploys, serves the
// API on the aws adapters, and stands in for what Lambda would run there:
//   - one SQS event source per entry of the worker table, invoking the very handler module the stack
//     deploys with the table's batch, window, concurrency and timeout (./event-source.ts);
//   - Step Functions: moto runs Lambda tasks only through Docker, so the runtime serves Step Functions
//     itself (./step-functions-endpoint.ts, named to every SDK client by AWS_ENDPOINT_URL_SFN) and runs
//     the production purge definition, Lambda tasks and all, on our ASL interpreter; each task invokes
//     its task function of the worker table (taskInvoker).
// Scheduled workers run from ./schedules.ts, as on the local runtime.
import type { SQSBatchResponse } from 'aws-lambda';
import type { ProvisionedStack } from './provision';
import { provisionStack } from './provision';
import type { FunctionInvoker } from './step-functions-endpoint';
import { startStepFunctionsEndpoint } from './step-functions-endpoint';
import type { EventSourceLog } from './event-source';
import { SqsEventSource } from './event-source';
import { createAwsDeps } from '../../compose/aws';
import { DEPLOYED_PURGE_SETTINGS, PURGE_TASKS, purgeDefinition } from '../../connectors/index';
import type { Clock } from '../../platform/clock';
import { getOptionalStringFromEnv } from '../../platform/config';
import { logger } from '../../platform/logger';
import type { Deps, Queue, QueueMessage, Queues } from '../../platform/ports';
import { QUEUE_NAMES, QUEUE_WORKERS, WORKFLOW_TASKS } from '../../platform/workers';
import type { HandlerLoader } from '../server/lambda-runtime';
import { handlerLoader, invokeFunction } from '../server/lambda-runtime';

export interface EmulatedAwsOptions {
  /** Prefixes every resource's name, so several runtimes can share one emulator. */
  prefix: string;
  clock: Clock;
  /**
   * With the development clock hook: SQS delays longer than this many seconds are sent shorter, and
   * the delivery worker's own hop logic re-sends a message that arrives before it is due, until the
   * development clock says it is due. SQS measures delays in real time, which no clock port moves.
   */
  maxDelaySeconds?: number;
}

export interface EmulatedAws {
  deps: Deps;
  load: HandlerLoader;
  provisioned: ProvisionedStack;
  /** The development clock moved: move the visibility of the messages workers left by as much. */
  advance(ms: number): Promise<void>;
  /** What runs where, for the startup output. */
  summary: string[];
}

/** Sends delays no longer than `maxSeconds` (see EmulatedAwsOptions.maxDelaySeconds). */
function shortDelays(queues: Queues, maxSeconds: number): Queues {
  const cap = (m: QueueMessage): QueueMessage =>
    m.delaySeconds && m.delaySeconds > maxSeconds ? { ...m, delaySeconds: maxSeconds } : m;
  const wrap = (name: keyof Queues): Queue => ({
    get name() {
      return queues[name].name;
    },
    send: (message) => queues[name].send(cap(message)),
    sendBatch: (messages) => queues[name].sendBatch(messages.map(cap)),
    listDeadLetters: (limit) => queues[name].listDeadLetters(limit),
    maxReceiveCount: () => queues[name].maxReceiveCount(),
  });
  return Object.fromEntries(QUEUE_NAMES.map((name) => [name, wrap(name)])) as Queues;
}

function runtimeDeps(clock: Clock, maxDelaySeconds: number | undefined): Deps {
  const aws = createAwsDeps(clock);
  if (maxDelaySeconds === undefined) return aws;
  const queues = shortDelays(aws.queues, maxDelaySeconds);
  return {
    tables: aws.tables,
    queues,
    clock,
    get keys() {
      return aws.keys;
    },
    get workflows() {
      return aws.workflows;
    },
    get vault() {
      return aws.vault;
    },
    get secrets() {
      return aws.secrets;
    },
  };
}

/** What Lambda answers for a function it does not have; Step Functions reports it as the task's error. */
class UnknownFunctionError extends Error {
  constructor(functionName: string) {
    super(`Function not found: ${functionName} (the worker table has no such task)`);
    this.name = 'Lambda.ResourceNotFoundException';
  }
}

/** How the state machine's Lambda tasks run: the worker table's task function, invoked in process. */
export function taskInvoker(load: HandlerLoader | Promise<HandlerLoader>): FunctionInvoker {
  return async (functionName, payload) => {
    const entry = WORKFLOW_TASKS.find((t) => t.id === functionName);
    if (!entry) throw new UnknownFunctionError(functionName);
    return invokeFunction(await load, entry, payload);
  };
}

/** The production definition, its tasks' Resources the task functions (named by task id). */
function purgeOnLambdas(region: string) {
  const functionArns = Object.fromEntries(
    PURGE_TASKS.map((task) => [task, `arn:aws:lambda:${region}:000000000000:function:${task}`]),
  ) as Record<(typeof PURGE_TASKS)[number], string>;
  return purgeDefinition({ ...DEPLOYED_PURGE_SETTINGS, target: { kind: 'lambda', functionArns } });
}

export async function startEmulatedAws(options: EmulatedAwsOptions): Promise<EmulatedAws> {
  const log = logger.child({ runtime: 'emulated-aws' });
  const region =
    getOptionalStringFromEnv('AWS_REGION') ?? getOptionalStringFromEnv('AWS_DEFAULT_REGION') ?? 'us-east-1';
  // Before anything sends to Step Functions: every SDK client (the provisioning's, the functions') then
  // finds the runtime's own endpoint. Its tasks wait for the handlers, which need the provisioned stack.
  let loaded: (load: HandlerLoader) => void = () => undefined;
  const loader = new Promise<HandlerLoader>((resolve) => (loaded = resolve));
  const stepFunctions = await startStepFunctionsEndpoint({ invoke: taskInvoker(loader), region });
  process.env.AWS_ENDPOINT_URL_SFN = stepFunctions.url;
  const provisioned = await provisionStack({
    prefix: options.prefix,
    workflows: { purge: purgeOnLambdas(region) },
  });
  // The aws adapters read their resources' names from the environment, as in a Lambda.
  Object.assign(process.env, provisioned.environment);
  const deps = runtimeDeps(options.clock, options.maxDelaySeconds);
  const load = handlerLoader(deps);
  loaded(load);

  const sources = eventSources(provisioned, load, log);
  for (const source of sources) source.start();

  return {
    deps,
    load,
    provisioned,
    advance: async (ms) => {
      await Promise.all(sources.map((source) => source.advance(ms)));
    },
    summary: summary(options, stepFunctions.url),
  };
}

/** One SQS event source per queue of the worker table, invoking its worker's handler module. */
function eventSources(provisioned: ProvisionedStack, load: HandlerLoader, log: EventSourceLog) {
  return QUEUE_NAMES.map((name) => {
    const worker = QUEUE_WORKERS[name];
    const queue = provisioned.queues[name];
    return new SqsEventSource(
      {
        name: worker.id,
        queueUrl: queue.url,
        queueArn: queue.arn,
        batchSize: worker.batchSize,
        batchingWindowSeconds: worker.batchingWindowSeconds,
        maxConcurrency: worker.maxConcurrency,
        visibilityTimeoutSeconds: worker.visibilityTimeoutSeconds,
      },
      (event) => invokeFunction(load, worker, event) as Promise<SQSBatchResponse | void>,
      log,
    );
  });
}

function summary(options: EmulatedAwsOptions, stepFunctionsUrl: string): string[] {
  const lines = QUEUE_NAMES.map((name) => {
    const w = QUEUE_WORKERS[name];
    return (
      `  ${w.id} <- ${options.prefix}-${name}: batch ${w.batchSize}, window ${w.batchingWindowSeconds} s, ` +
      `at most ${w.maxConcurrency} at once, timeout ${w.timeoutSeconds} s, visibility ` +
      `${w.visibilityTimeoutSeconds} s, dead letter after ${w.maxReceiveCount} receives`
    );
  });
  return [
    `Provisioned ${options.prefix}-*: tables, queues with dead-letter queues and redrive, the envelope key, the purge state machine`,
    'SQS event sources (the worker table):',
    ...lines,
    `Purge: the production definition (Lambda tasks) on the runtime's own Step Functions endpoint (${stepFunctionsUrl}, our ASL interpreter), each task invoking its task function`,
    ...(options.maxDelaySeconds !== undefined
      ? [
          `Development clock: SQS delays are sent at most ${options.maxDelaySeconds} s long and re-sent until due on the clock; moving the clock moves the visibility of messages the workers left`,
        ]
      : []),
  ];
}
