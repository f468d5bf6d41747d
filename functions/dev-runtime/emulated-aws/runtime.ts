// The emulated AWS runtime (`npm run start:aws`, or `npm start` with AWS_ENDPOINT_URL set): runs the
// synthesized application (lib/emulated-app.ts) on the emulators as AWS runs a deployment of it:
//   - the stack's resources provisioned at the emulator endpoint (./provision.ts);
//   - every function from its bundle in execution environments of its own (./function-pool.ts), with
//     exactly the template's environment, memory and timeout; API Gateway (../server/api-gateway.ts),
//     the event sources, the schedules and the workflow tasks all invoke through the pool;
//   - one SQS event source per event source mapping of the template, with its batch, window, maximum
//     concurrency and partial batch responses (./event-source.ts);
//   - the schedule rules of the template, invoked asynchronously with the function's retries
//     (../server/schedules.ts);
//   - the state machine's tasks: moto has no Lambda runtime, so the purge definition is provisioned in
//     its SQS-callback variant and a task runner answers each task by invoking the task function
//     (./callback-tasks.ts). The Lambda-task variant runs only on AWS (and on LocalStack after
//     `cdklocal deploy`), and on the local runtime's interpreter.
import type { SQSBatchResponse } from 'aws-lambda';
import type { ProvisionedStack } from './provision';
import { provisionStack, resourceValues } from './provision';
import { CallbackTaskRunner } from './callback-tasks';
import type { EventSourceLog } from './event-source';
import { SqsEventSource } from './event-source';
import type { EmulatedApp, FunctionSpec } from './application';
import { bundleFileOf } from './application';
import type { ObservedCall } from './function-pool';
import { FunctionPool, emulatorEnvironment, functionEnvironment } from './function-pool';
import { createAwsDeps } from '../../compose/aws';
import { DEPLOYED_PURGE_SETTINGS, purgeDefinition } from '../../connectors/index';
import type { OffsetClock } from '../../platform/clock';
import { logger } from '../../platform/logger';
import type { Deps } from '../../platform/ports';
import type { QueueName } from '../../platform/workers';
import { QUEUE_WORKERS } from '../../platform/workers';
import type { FunctionRef, Invoker } from '../server/lambda-runtime';
import type { ScheduleRule } from '../server/schedules';

export interface EmulatedAwsOptions {
  /** Prefixes every resource's name, so several runtimes can share one emulator. */
  prefix: string;
  clock: OffsetClock;
  /**
   * With the development clock hook: the functions read the development clock, SQS delays longer
   * than this many seconds are sent shorter, and the delivery worker's own hop logic re-sends a
   * message that arrives before it is due, until the development clock says it is due. SQS measures
   * delays in real time, which no clock port moves.
   */
  maxDelaySeconds?: number;
}

/** What the functions are started with, once the runtime's own endpoints are known. */
export interface FunctionsOptions {
  app: EmulatedApp;
  /** The deployment parameters' values (lib/emulated-app.ts): the sandbox's URLs and the like. */
  parameters: Record<string, string | undefined>;
  /** The secrets' ARNs by NAME_ARN, as provisionSecrets made them. */
  secrets: Record<string, string>;
  /** Each SDK call of a function (IAM, recorded). */
  onCall?: (functionId: string, call: ObservedCall) => void;
}

export interface RunningFunctions {
  invoke: Invoker;
  /** The template's schedule rules, for the schedules to run. */
  rules: ScheduleRule[];
  summary: string[];
  stop(): Promise<void>;
}

export interface EmulatedAws {
  /** The runtime's own ports on the provisioned resources (bootstrap, development hooks). */
  deps: Deps;
  provisioned: ProvisionedStack;
  /** Starts the functions, their event sources and task runners. */
  startFunctions(options: FunctionsOptions): Promise<RunningFunctions>;
  /** The development clock moved: the functions' clock with it, and the messages workers left by as much. */
  advance(ms: number): Promise<void>;
}

class UnknownFunctionError extends Error {
  constructor(id: string) {
    super(`The synthesized template has no function ${id}`);
    this.name = 'UnknownFunction';
  }
}

export async function startEmulatedAws(options: EmulatedAwsOptions): Promise<EmulatedAws> {
  const log = logger.child({ runtime: 'emulated-aws' });
  const provisioned = await provisionStack({
    prefix: options.prefix,
    workflows: {
      purge: (queueUrl) =>
        purgeDefinition({ ...DEPLOYED_PURGE_SETTINGS, target: { kind: 'sqsCallback', queueUrl } }),
    },
  });
  // The runtime's own aws adapters read their resources' names from the environment.
  Object.assign(process.env, provisioned.environment);
  const deps = createAwsDeps(options.clock);
  const devClock = options.maxDelaySeconds !== undefined;
  const clockOffset = new Float64Array(new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT));
  let sources: SqsEventSource[] = [];

  return {
    deps,
    provisioned,
    startFunctions: async ({ app, parameters, secrets, onCall }) => {
      const resolve = resourceValues(provisioned, secrets);
      const runtime = emulatorEnvironment();
      const specs = new Map(app.functions.map((fn) => [fn.id, fn]));
      const pool = new FunctionPool(
        app.functions.map((fn) => ({
          id: fn.id,
          bundle: bundleFileOf(app.bundleDir, fn.handlerModule),
          memorySize: fn.memorySize,
          timeoutSeconds: fn.timeoutSeconds,
          environment: functionEnvironment(fn, resolve, runtime, parameters),
        })),
        {
          ...(devClock ? { clockOffset, maxDelaySeconds: options.maxDelaySeconds } : {}),
          ...(onCall ? { onCall } : {}),
        },
      );
      const ref = (id: string): FunctionRef & { spec: FunctionSpec } => {
        const spec = specs.get(id);
        if (!spec) throw new UnknownFunctionError(id);
        return { id, handler: spec.handlerModule, timeoutSeconds: spec.timeoutSeconds, spec };
      };
      sources = eventSources(app, provisioned, pool.invoker, ref, log);
      const tasks = taskRunners(provisioned, pool.invoker, ref, log);
      for (const runner of [...sources, ...tasks]) runner.start();
      const rules = app.schedules.map((rule) => ({
        ...ref(rule.functionId),
        rateMinutes: rule.rateMinutes,
        retryAttempts: rule.retryAttempts,
      }));
      return {
        invoke: pool.invoker,
        rules,
        summary: summary(options, app),
        stop: async () => {
          await Promise.all([...sources, ...tasks].map((runner) => runner.stop()));
          await pool.close();
        },
      };
    },
    advance: async (ms) => {
      clockOffset[0] = options.clock.offsetMs;
      await Promise.all(sources.map((source) => source.advance(ms)));
    },
  };
}

/** One SQS event source per event source mapping of the template. */
function eventSources(
  app: EmulatedApp,
  provisioned: ProvisionedStack,
  invoke: Invoker,
  ref: (id: string) => FunctionRef,
  log: EventSourceLog,
) {
  return app.eventSources.map((mapping) => {
    const name = mapping.queue.replace(/^queue:/, '') as QueueName;
    const queue = provisioned.queues[name];
    if (!queue) throw new Error(`The template maps ${mapping.queue}, which the runtime did not provision`);
    const fn = ref(mapping.functionId);
    return new SqsEventSource(
      {
        name: fn.id,
        queueUrl: queue.url,
        queueArn: queue.arn,
        batchSize: mapping.batchSize,
        batchingWindowSeconds: mapping.batchingWindowSeconds,
        // Without a maximum, Lambda scales an SQS mapping up to 1,250 concurrent invocations.
        maxConcurrency: mapping.maxConcurrency ?? 1250,
        visibilityTimeoutSeconds: QUEUE_WORKERS[name].visibilityTimeoutSeconds,
      },
      async (event) => {
        const response = (await invoke(fn, event)) as SQSBatchResponse | void;
        // Without ReportBatchItemFailures, Lambda reads no partial batch response: the batch succeeded.
        return mapping.reportBatchItemFailures ? response : undefined;
      },
      log,
    );
  });
}
/** One task runner per workflow, answering its callback tasks by invoking the task function of that name. */
function taskRunners(
  provisioned: ProvisionedStack,
  invoke: Invoker,
  ref: (id: string) => FunctionRef,
  log: EventSourceLog,
) {
  return Object.values(provisioned.taskQueues).map(
    (url) =>
      new CallbackTaskRunner(
        url,
        // The payload the Lambda variant's Parameters give the task function: {task, input}.
        async ({ task, input }) => invoke(ref(task), { task, input }),
        log,
      ),
  );
}

function summary(options: EmulatedAwsOptions, app: EmulatedApp): string[] {
  const sources = app.eventSources.map((m) => {
    const name = m.queue.replace(/^queue:/, '') as QueueName;
    return (
      `  ${m.functionId} <- ${options.prefix}-${name}: batch ${m.batchSize}, window ${m.batchingWindowSeconds} s, ` +
      `at most ${m.maxConcurrency ?? 'unbounded'} at once, visibility ${QUEUE_WORKERS[name].visibilityTimeoutSeconds} s, ` +
      `dead letter after ${QUEUE_WORKERS[name].maxReceiveCount} receives` +
      (m.reportBatchItemFailures ? ', partial batch responses' : '')
    );
  });
  const schedules = app.schedules.map(
    (r) => `  ${r.functionId}: rate(${r.rateMinutes} minutes), ${r.retryAttempts} retries`,
  );
  return [
    `Provisioned ${options.prefix}-*: tables, queues with dead-letter queues and redrive, the envelope key, the purge state machine, the secrets`,
    `Functions: ${app.functions.length} from their bundles, each in execution environments of its own with the template's environment (${app.stage} stage), memory and timeout`,
    "SQS event sources (the template's event source mappings):",
    ...sources,
    "Schedules (the template's rules, invoked asynchronously):",
    ...schedules,
    "Purge tasks: the emulator has no Lambda runtime, so the state machine runs the definition's SQS-callback variant and a task runner answers each task by invoking the task function",
    ...(options.maxDelaySeconds !== undefined
      ? [
          `Development clock: the functions read it; SQS delays are sent at most ${options.maxDelaySeconds} s long and re-sent until due on the clock; moving the clock moves the visibility of messages the workers left`,
        ]
      : []),
  ];
}
