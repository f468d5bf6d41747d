// A Step Functions endpoint for the emulated AWS runtime: speaks the service's JSON
// protocol (awsJson1_0) to any SDK client whose endpoint names it (AWS_ENDPOINT_URL_SFN), and runs each
// execution on our ASL interpreter (functions/adapters/local/asl-interpreter.ts), its Lambda tasks
// handed to an injected invoker. moto interprets definitions too, but invokes Lambda tasks only
// through Docker, which the machines lack (docs/notes/step-functions-on-moto.md); here the production
// definition runs as deployed. State lives in memory: executions do not outlive the process.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AslDefinition, TaskInvoker } from '../../compose/local';
import { StatesError, runStateMachine, validateDefinition } from '../../compose/local';

/** Invokes a Lambda function by name with a payload: answers its result, or throws its error. */
export type FunctionInvoker = (functionName: string, payload: unknown) => Promise<unknown>;

export interface StepFunctionsEndpointOptions {
  invoke: FunctionInvoker;
  region?: string;
  account?: string;
  /** Retry waits go through here, so tests can skip them. */
  sleep?: (ms: number) => Promise<void>;
}

export interface StepFunctionsEndpoint {
  /** http://127.0.0.1:<port>, for AWS_ENDPOINT_URL_SFN. */
  url: string;
  /** Resolves once every execution started so far has ended (tests, shutdown). */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/** A refusal in AWS's terms: the `__type` and message of the JSON error body, and its status. */
class ServiceError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = type;
  }
}

interface StateMachine {
  arn: string;
  name: string;
  definition: string;
  parsed: AslDefinition;
  roleArn: string;
  type: string;
  created: Date;
}

interface Execution {
  arn: string;
  name: string;
  stateMachineArn: string;
  input: string;
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT';
  started: Date;
  stopped?: Date;
  output?: string;
  error?: string;
  cause?: string;
}

const NAME = /^[A-Za-z0-9_-]{1,80}$/;
const LAMBDA_ARN = /^arn:aws[a-z-]*:lambda:[a-z0-9-]+:\d{12}:function:([A-Za-z0-9_-]+)(:[A-Za-z0-9$_-]+)?$/;
const LAMBDA_INVOKE = /^arn:aws[a-z-]*:states:::lambda:invoke$/;

/** The function a Task's Resource (or lambda:invoke's FunctionName: a name or an ARN) names. */
function functionName(nameOrArn: string): string | undefined {
  if (!nameOrArn.startsWith('arn:')) return NAME.test(nameOrArn) ? nameOrArn : undefined;
  return LAMBDA_ARN.exec(nameOrArn)?.[1];
}

function taskResources(definition: AslDefinition): string[] {
  return Object.values(definition.States).flatMap((state) => [
    ...(state.Type === 'Task' && state.Resource ? [state.Resource] : []),
    ...(state.Branches ?? []).flatMap(taskResources),
  ]);
}

/** What a Lambda's failure is to Step Functions: its errorType as Error, type and message as Cause. */
function functionError(error: unknown): StatesError {
  if (error instanceof StatesError) return error;
  const { errorType, name, message } = (error ?? {}) as {
    errorType?: unknown;
    name?: unknown;
    message?: unknown;
  };
  const type = typeof errorType === 'string' ? errorType : typeof name === 'string' && name ? name : 'Error';
  const text = typeof message === 'string' ? message : String(error);
  return new StatesError(type, JSON.stringify({ errorType: type, errorMessage: text }));
}

/**
 * The interpreter's Task runner: a function ARN as Resource gets the effective input and answers its
 * result; `lambda:invoke` takes Parameters.FunctionName and Payload and answers Invoke's response.
 */
export function lambdaTasks(invoke: FunctionInvoker): TaskInvoker {
  return async (resource, input) => {
    if (LAMBDA_INVOKE.test(resource)) {
      const { FunctionName, Payload } = (input ?? {}) as { FunctionName?: unknown; Payload?: unknown };
      const name = typeof FunctionName === 'string' ? functionName(FunctionName) : undefined;
      if (!name)
        throw new StatesError(
          'States.Runtime',
          `lambda:invoke needs a FunctionName, got ${String(FunctionName)}`,
        );
      const payload = await invoke(name, Payload ?? {}).catch((e: unknown) => {
        throw functionError(e);
      });
      return { ExecutedVersion: '$LATEST', StatusCode: 200, Payload: payload ?? null };
    }
    const name = functionName(resource);
    if (!name) throw new StatesError('States.Runtime', `Unsupported task resource ${resource}`);
    return invoke(name, input).catch((e: unknown) => {
      throw functionError(e);
    });
  };
}

const epochSeconds = (date: Date) => date.getTime() / 1000;

export async function startStepFunctionsEndpoint(
  options: StepFunctionsEndpointOptions,
): Promise<StepFunctionsEndpoint> {
  const region = options.region ?? 'us-east-1';
  const account = options.account ?? '000000000000';
  const machines = new Map<string, StateMachine>();
  const executions = new Map<string, Execution>();
  const running = new Set<Promise<void>>();
  const tasks = lambdaTasks(options.invoke);

  const machineArn = (name: string) => `arn:aws:states:${region}:${account}:stateMachine:${name}`;
  const machine = (arn: unknown): StateMachine => {
    if (typeof arn !== 'string' || !arn.startsWith('arn:'))
      throw new ServiceError('InvalidArn', `Invalid Arn: '${String(arn)}'`);
    const found = machines.get(arn);
    if (!found) throw new ServiceError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${arn}'`);
    return found;
  };
  const parse = (definition: unknown): AslDefinition => {
    if (typeof definition !== 'string')
      throw new ServiceError('InvalidDefinition', 'The definition is missing');
    let parsed: AslDefinition;
    try {
      parsed = JSON.parse(definition) as AslDefinition;
      validateDefinition(parsed);
    } catch (error) {
      throw new ServiceError(
        'InvalidDefinition',
        `Invalid State Machine Definition: ${(error as Error).message}`,
      );
    }
    const unsupported = taskResources(parsed).filter((r) => !LAMBDA_INVOKE.test(r) && !functionName(r));
    if (unsupported.length) {
      throw new ServiceError(
        'InvalidDefinition',
        `Invalid State Machine Definition: unsupported task resources ${unsupported.join(', ')} (Lambda functions only)`,
      );
    }
    return parsed;
  };

  const run = (execution: Execution, definition: AslDefinition) => {
    const done = runStateMachine(definition, JSON.parse(execution.input) as unknown, {
      invoke: tasks,
      executionId: execution.arn,
      executionName: execution.name,
      sleep: options.sleep,
    })
      .then((output) => {
        Object.assign(execution, { status: 'SUCCEEDED', output: JSON.stringify(output ?? null) });
      })
      .catch((error: unknown) => {
        const failure =
          error instanceof StatesError ? error : new StatesError('States.Runtime', String(error));
        Object.assign(execution, {
          status: failure.error === 'States.Timeout' ? 'TIMED_OUT' : 'FAILED',
          error: failure.error,
          cause: failure.cause,
        });
      })
      .finally(() => {
        execution.stopped = new Date();
        running.delete(done);
      });
    running.add(done);
  };

  const operations: Record<string, (input: Record<string, unknown>) => unknown> = {
    CreateStateMachine: (input) => {
      const name = String(input.name ?? '');
      if (!NAME.test(name)) throw new ServiceError('InvalidName', `Invalid Name: '${name}'`);
      const parsed = parse(input.definition);
      const arn = machineArn(name);
      const existing = machines.get(arn);
      if (existing) {
        // As AWS: the same request again is answered with the machine made by the first.
        if (existing.definition !== input.definition || existing.roleArn !== input.roleArn) {
          throw new ServiceError('StateMachineAlreadyExists', `State Machine Already Exists: '${arn}'`);
        }
        return { stateMachineArn: arn, creationDate: epochSeconds(existing.created) };
      }
      const created = new Date();
      machines.set(arn, {
        arn,
        name,
        definition: input.definition as string,
        parsed,
        roleArn: String(input.roleArn ?? ''),
        type: String(input.type ?? 'STANDARD'),
        created,
      });
      return { stateMachineArn: arn, creationDate: epochSeconds(created) };
    },
    UpdateStateMachine: (input) => {
      const found = machine(input.stateMachineArn);
      if (input.definition !== undefined) {
        found.parsed = parse(input.definition);
        found.definition = input.definition as string;
      }
      if (typeof input.roleArn === 'string') found.roleArn = input.roleArn;
      return { updateDate: epochSeconds(new Date()) };
    },
    DescribeStateMachine: (input) => {
      const found = machine(input.stateMachineArn);
      return {
        stateMachineArn: found.arn,
        name: found.name,
        status: 'ACTIVE',
        definition: found.definition,
        roleArn: found.roleArn,
        type: found.type,
        creationDate: epochSeconds(found.created),
      };
    },
    ListStateMachines: () => ({
      stateMachines: [...machines.values()].map((m) => ({
        stateMachineArn: m.arn,
        name: m.name,
        type: m.type,
        creationDate: epochSeconds(m.created),
      })),
    }),
    StartExecution: (input) => {
      const found = machine(input.stateMachineArn);
      const name = input.name === undefined ? randomUUID() : String(input.name);
      if (!NAME.test(name)) throw new ServiceError('InvalidName', `Invalid Name: '${name}'`);
      const text = input.input === undefined ? '{}' : String(input.input);
      try {
        JSON.parse(text);
      } catch {
        throw new ServiceError('InvalidExecutionInput', 'Invalid State Machine Execution Input: not JSON');
      }
      const arn = `${found.arn.replace(':stateMachine:', ':execution:')}:${name}`;
      const existing = executions.get(arn);
      if (existing) {
        // As AWS: the same name and input while it runs is the same execution; anything else a refusal.
        if (existing.status === 'RUNNING' && existing.input === text) {
          return { executionArn: arn, startDate: epochSeconds(existing.started) };
        }
        throw new ServiceError('ExecutionAlreadyExists', `Execution Already Exists: '${arn}'`);
      }
      const execution: Execution = {
        arn,
        name,
        stateMachineArn: found.arn,
        input: text,
        status: 'RUNNING',
        started: new Date(),
      };
      executions.set(arn, execution);
      run(execution, found.parsed);
      return { executionArn: arn, startDate: epochSeconds(execution.started) };
    },
    DescribeExecution: (input) => {
      const arn = input.executionArn;
      if (typeof arn !== 'string' || !arn.startsWith('arn:'))
        throw new ServiceError('InvalidArn', `Invalid Arn: '${String(arn)}'`);
      const found = executions.get(arn);
      if (!found) throw new ServiceError('ExecutionDoesNotExist', `Execution Does Not Exist: '${arn}'`);
      return {
        executionArn: found.arn,
        stateMachineArn: found.stateMachineArn,
        name: found.name,
        status: found.status,
        startDate: epochSeconds(found.started),
        ...(found.stopped ? { stopDate: epochSeconds(found.stopped) } : {}),
        input: found.input,
        inputDetails: { included: true },
        ...(found.output !== undefined ? { output: found.output, outputDetails: { included: true } } : {}),
        ...(found.error !== undefined ? { error: found.error, cause: found.cause } : {}),
      };
    },
  };

  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.0' });
    res.end(JSON.stringify(body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      const target = String(req.headers['x-amz-target'] ?? '');
      const operation = target.startsWith('AWSStepFunctions.') ? operations[target.slice(17)] : undefined;
      if (req.method !== 'POST' || !operation) {
        throw new ServiceError('UnknownOperationException', `Unsupported operation: '${target}'`);
      }
      let input: Record<string, unknown>;
      try {
        input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      } catch {
        throw new ServiceError('SerializationException', 'The request body is not JSON');
      }
      answer(res, 200, operation(input ?? {}));
    } catch (error) {
      const refusal =
        error instanceof ServiceError ? error : new ServiceError('InternalFailure', String(error), 500);
      answer(res, refusal.status, {
        __type: `com.amazonaws.states#${refusal.type}`,
        message: refusal.message,
      });
    }
  };

  const server: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    settle: async () => {
      while (running.size) await Promise.all([...running]);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
