// The emulated AWS runtime (`npm run start:aws`, or `npm start` with AWS_ENDPOINT_URL set): runs the
// synthesized application (lib/emulated-app.ts) on the emulators as AWS runs a deployment of it:
//   - the template's resources provisioned at the emulator endpoint (./provision.ts): its tables,
//     queues with their policies, key with its policy, buckets and state machine, as it declares them;
//   - every function from its bundle in execution environments of its own (./function-pool.ts), with
//     exactly the template's environment, memory and timeout; API Gateway (../server/api-gateway.ts),
//     the event sources, the schedules and the workflow tasks all invoke through the pool;
//   - one SQS event source per event source mapping of the template, with its batch, window, maximum
//     concurrency and partial batch responses (./event-source.ts);
//   - the schedule rules of the template, invoked asynchronously with the function's retries
//     (../server/schedules.ts);
//   - Step Functions: moto runs Lambda tasks only through Docker, so the runtime serves Step Functions
//     itself (./step-functions-endpoint.ts, named to every SDK client by AWS_ENDPOINT_URL_SFN) and runs
//     the template's purge definition, Lambda tasks and all, on our ASL interpreter; each task invokes
//     its task function through the pool.
import type { SQSBatchResponse } from 'aws-lambda';
import type { ProvisionedStack } from './provision';
import { physicalName, provisionStack, provisionedQueue, resolveValue, resourceValues } from './provision';
import { deadLetter, onFailureDestination } from './failure-destinations';
import type { FunctionInvoker } from './step-functions-endpoint';
import { startStepFunctionsEndpoint } from './step-functions-endpoint';
import type { EventSourceLog } from './event-source';
import { SqsEventSource } from './event-source';
import type { EmulatedApp, FunctionSpec, ResourceSpec } from './application';
import { bundleFileOf } from './application';
import type { KeyAccess, ObservedCall, ObservedCapacity } from './function-pool';
import {
  FunctionPool,
  RequestTooLargeError,
  emulatorEnvironment,
  functionEnvironment,
} from './function-pool';
import {
  API_GATEWAY,
  EVENTBRIDGE,
  InvokePermissionError,
  apiGatewaySource,
  checkExecutionRole,
  checkInvokePermission,
  keyPolicyAllows,
} from './resource-policies';
import { createAwsDeps } from '../../compose/aws';
import { getOptionalStringFromEnv } from '../../platform/config';
import type { OffsetClock } from '../../platform/clock';
import { logger } from '../../platform/logger';
import type { Deps } from '../../platform/ports';
import type { FunctionRef, Invoker } from '../server/lambda-runtime';
import type { ScheduleRule } from '../server/schedules';
import type { GatewayMethod } from '../server/api-gateway';

export interface EmulatedAwsOptions {
  /** Prefixes every resource's name, so several runtimes can share one emulator. */
  prefix: string;
  /** The template's resources to provision (lib/emulated-app.ts's emulatedResources). */
  resources: ResourceSpec[];
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
  /** The capacity each DynamoDB call of a function consumed (the calls bench). */
  onConsumed?: (functionId: string, consumed: ObservedCapacity) => void;
}

export interface RunningFunctions {
  /** API Gateway's: each method's and authorizer's function, if its resource policy lets API Gateway. */
  invoke: Invoker;
  /** EventBridge's, for the schedules: asynchronous, if the function's resource policy lets the rule. */
  invokeScheduled: Invoker;
  /** The template's schedule rules, for the schedules to run. */
  rules: ScheduleRule[];
  /** The template's REST API methods, for API Gateway to serve. */
  methods: GatewayMethod[];
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

/** What Lambda answers for a function it does not have; Step Functions reports it as the task's error. */
class UnknownFunctionError extends Error {
  constructor(id: string) {
    super(`Function not found: ${id} (the synthesized template has no such function)`);
    this.name = 'Lambda.ResourceNotFoundException';
  }
}

export async function startEmulatedAws(options: EmulatedAwsOptions): Promise<EmulatedAws> {
  const log = logger.child({ runtime: 'emulated-aws' });
  const region =
    getOptionalStringFromEnv('AWS_REGION') ?? getOptionalStringFromEnv('AWS_DEFAULT_REGION') ?? 'us-east-1';
  // Before anything sends to Step Functions: every SDK client (the provisioning's, the functions') then
  // finds the runtime's own endpoint. Its tasks wait for the functions to start.
  let tasksReady: (invoke: FunctionInvoker) => void = () => undefined;
  const tasks = new Promise<FunctionInvoker>((resolve) => (tasksReady = resolve));
  const stepFunctions = await startStepFunctionsEndpoint({
    invoke: async (functionName, payload) => (await tasks)(functionName, payload),
    region,
  });
  process.env.AWS_ENDPOINT_URL_SFN = stepFunctions.url;
  const provisioned = await provisionStack({ prefix: options.prefix, resources: options.resources });
  // The runtime's own aws adapters read their resources' names from the environment.
  Object.assign(process.env, provisioned.environment);
  const deps = createAwsDeps(options.clock);
  const devClock = options.maxDelaySeconds !== undefined;
  const clockOffset = new Float64Array(new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT));
  let sources: SqsEventSource[] = [];

  return {
    deps,
    provisioned,
    startFunctions: async ({ app, parameters, secrets, onCall, onConsumed }) => {
      const resolve = resourceValues(provisioned, secrets);
      const runtime = emulatorEnvironment();
      const specs = new Map(app.functions.map((fn) => [fn.id, fn]));
      const keyAccess = keyAccessOf(provisioned, options.prefix, app.roles);
      const pool = new FunctionPool(
        app.functions.map((fn) => ({
          id: fn.id,
          bundle: bundleFileOf(app.bundleDir, fn.handlerModule),
          memorySize: fn.memorySize,
          timeoutSeconds: fn.timeoutSeconds,
          environment: functionEnvironment(fn, resolve, runtime, parameters),
          ...(keyAccess(fn.id) ? { keyAccess: keyAccess(fn.id) } : {}),
        })),
        {
          ...(devClock ? { clockOffset, maxDelaySeconds: options.maxDelaySeconds } : {}),
          ...(onCall ? { onCall } : {}),
          ...(onConsumed ? { onConsumed } : {}),
        },
      );
      const ref = (id: string): FunctionRef & { spec: FunctionSpec } => {
        const spec = specs.get(id);
        if (!spec) throw new UnknownFunctionError(id);
        return { id, handler: spec.handlerModule, timeoutSeconds: spec.timeoutSeconds, spec };
      };
      sources = eventSources(app, provisioned, pool.invoker, ref, log);
      for (const source of sources) source.start();
      tasksReady((functionName, payload) => pool.invoker(ref(functionName), payload));
      const rules = app.schedules.map((rule) => ({
        ...ref(rule.functionId),
        rateMinutes: rule.rateMinutes,
        retryAttempts: rule.retryAttempts,
        onFailure: (event: unknown, error: unknown, attempts: number) =>
          onFailureDestination(provisioned, region, rule, event, error, attempts, log),
      }));
      const methods = app.api.map((m) => ({
        method: m.method,
        path: m.path,
        fn: ref(m.functionId),
        integrationTimeoutSeconds: m.integrationTimeoutSeconds,
        ...(m.authorizer
          ? {
              authorizer: {
                fn: ref(m.authorizer.functionId),
                ttlSeconds: m.authorizer.ttlSeconds,
                identityHeader: m.authorizer.identityHeader,
              },
            }
          : {}),
      }));
      const authorizerSources = new Map(
        app.api.flatMap((m) => (m.authorizer ? [[m.authorizer.functionId, m.authorizer.sourceArn]] : [])),
      );
      const scheduleRules = new Map(app.schedules.map((rule) => [rule.functionId, rule]));
      return {
        invoke: async (fn, event) => {
          const source = apiGatewaySource(app.restApi, authorizerSources, fn.id, event);
          checkInvokePermission(app.permissions, fn.id, API_GATEWAY, source);
          return pool.invoker(fn, event);
        },
        invokeScheduled: async (fn, event) => {
          const rule = scheduleRules.get(fn.id);
          try {
            checkInvokePermission(
              app.permissions,
              fn.id,
              EVENTBRIDGE,
              rule?.ruleArn ?? `(no rule targets ${fn.id})`,
            );
            return await pool.asyncInvoker(fn, event);
          } catch (error) {
            // EventBridge could not deliver the event (the function's policy refused it, or Lambda did
            // for its size): the rule's dead-letter queue gets it, if its policy lets EventBridge send.
            const undelivered =
              error instanceof InvokePermissionError || error instanceof RequestTooLargeError;
            if (!undelivered || !rule) throw error;
            await deadLetter(provisioned, rule, event, error as Error, log);
            return undefined;
          }
        },
        rules,
        methods,
        summary: summary(options, app, provisioned, stepFunctions.url),
        stop: async () => {
          await Promise.all(sources.map((source) => source.stop()));
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

/**
 * Each function's access to the template's key: what its key policy lets the function's role do
 * (keyPolicyAllows), checked in the function's worker before each KMS call. A function whose role the
 * template does not name is not checked.
 */
function keyAccessOf(
  provisioned: ProvisionedStack,
  prefix: string,
  roles: Record<string, string>,
): (functionId: string) => KeyAccess | undefined {
  const keys = Object.values(provisioned.resources).filter(
    (r) => r.spec.type === 'AWS::KMS::Key' && r.spec.properties.KeyPolicy !== undefined,
  );
  if (keys.length !== 1) return () => undefined; // one key: a call naming none is on it
  const [key] = keys as [(typeof keys)[number]];
  const policy = resolveValue(
    key.spec.properties.KeyPolicy!,
    provisioned.resources,
    `${key.spec.name} policy`,
  );
  return (functionId) => {
    const roleArn = roles[functionId];
    if (!roleArn) return undefined;
    return {
      keys: [key.arn, key.ref, `alias/${physicalName(prefix, key.spec.name)}`],
      keyArn: key.arn,
      roleArn,
      allowed: keyPolicyAllows(policy, key.arn, roleArn),
    };
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
    const queue = provisionedQueue(provisioned, mapping.queue);
    if (!queue) throw new Error(`The template maps ${mapping.queue}, which the runtime did not provision`);
    const fn = ref(mapping.functionId);
    checkExecutionRole(mapping);
    return new SqsEventSource(
      {
        name: fn.id,
        queueUrl: queue.url,
        queueArn: queue.arn,
        batchSize: mapping.batchSize,
        batchingWindowSeconds: mapping.batchingWindowSeconds,
        // Without a maximum, Lambda scales an SQS mapping up to 1,250 concurrent invocations.
        maxConcurrency: mapping.maxConcurrency ?? 1250,
        visibilityTimeoutSeconds: queue.visibilityTimeoutSeconds,
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
function summary(
  options: EmulatedAwsOptions,
  app: EmulatedApp,
  provisioned: ProvisionedStack,
  stepFunctionsUrl: string,
): string[] {
  const sources = app.eventSources.map((m) => {
    const queue = provisionedQueue(provisioned, m.queue)!;
    return (
      `  ${m.functionId} <- ${queue.url.split('/').pop()}: batch ${m.batchSize}, window ${m.batchingWindowSeconds} s, ` +
      `at most ${m.maxConcurrency ?? 'unbounded'} at once, visibility ${queue.visibilityTimeoutSeconds} s, ` +
      (queue.maxReceiveCount !== undefined
        ? `dead letter after ${queue.maxReceiveCount} receives`
        : 'no dead-letter queue') +
      (m.reportBatchItemFailures ? ', partial batch responses' : '')
    );
  });
  const counts = new Map<string, number>();
  for (const { spec } of Object.values(provisioned.resources)) {
    const type = spec.type.split('::').pop()!;
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  const schedules = app.schedules.map(
    (r) => `  ${r.functionId}: rate(${r.rateMinutes} minutes), ${r.retryAttempts} retries`,
  );
  return [
    `Provisioned ${options.prefix}-* from the template: ${[...counts].map(([type, n]) => `${n} ${type}`).join(', ')}, and the secrets`,
    ...(provisioned.skipped.length
      ? [
          '  Properties the emulators do not take (skipped):',
          ...provisioned.skipped.map((line) => `    ${line}`),
        ]
      : []),
    `API Gateway: the template's ${app.api.length} methods, their authorizers and integration timeouts`,
    `Functions: ${app.functions.length} from their bundles, each in execution environments of its own with the template's environment (${app.stage} stage), memory and timeout`,
    "SQS event sources (the template's event source mappings):",
    ...sources,
    "Schedules (the template's rules, invoked asynchronously):",
    ...schedules,
    `Purge: the template's definition (Lambda tasks) on the runtime's own Step Functions endpoint (${stepFunctionsUrl}, our ASL interpreter), each task invoking its task function`,
    ...(options.maxDelaySeconds !== undefined
      ? [
          `Development clock: the functions read it; SQS delays are sent at most ${options.maxDelaySeconds} s long and re-sent until due on the clock; moving the clock moves the visibility of messages the workers left`,
        ]
      : []),
  ];
}
