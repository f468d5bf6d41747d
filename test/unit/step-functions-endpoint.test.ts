// The emulated runtime's Step Functions endpoint (functions/dev-runtime/emulated-aws/step-functions-endpoint.ts)
// through the real SDK client: the operations the service and the runtime send, AWS's refusals, and
// Lambda tasks whose errors meet the definition's Retry and Catch as they do on AWS.
import {
  CreateStateMachineCommand,
  DescribeExecutionCommand,
  DescribeStateMachineCommand,
  ExecutionAlreadyExists,
  ExecutionDoesNotExist,
  InvalidDefinition,
  ListStateMachinesCommand,
  SFNClient,
  StartExecutionCommand,
  StateMachineAlreadyExists,
  StateMachineDoesNotExist,
  UpdateStateMachineCommand,
} from '@aws-sdk/client-sfn';
import type { AslDefinition } from '../../functions/platform/asl';
import type {
  FunctionInvoker,
  StepFunctionsEndpoint,
} from '../../functions/dev-runtime/emulated-aws/step-functions-endpoint';
import { startStepFunctionsEndpoint } from '../../functions/dev-runtime/emulated-aws/step-functions-endpoint';
import { FunctionInvocationError } from '../../functions/dev-runtime/emulated-aws/function-pool';
import { iamCallsOf } from '../../functions/dev-runtime/emulated-aws/iam-recorder';
import { purgeDefinition } from '../../functions/connectors/infra/purge-definition';
import { executionArn } from '../../functions/adapters/aws/sfn-workflows';

const fn = (name: string) => `arn:aws:lambda:us-east-1:000000000000:function:${name}`;
const role = 'arn:aws:iam::000000000000:role/test';

/** Each function by name; the calls it got, in order. */
let functions: Record<string, (payload: unknown) => Promise<unknown>>;
let calls: { name: string; payload: unknown }[];
let sleeps: number[];
let endpoint: StepFunctionsEndpoint;
let client: SFNClient;

const invoke: FunctionInvoker = async (name, payload) => {
  calls.push({ name, payload });
  const body = functions[name];
  if (!body)
    throw Object.assign(new Error(`Function not found: ${name}`), {
      name: 'Lambda.ResourceNotFoundException',
    });
  return body(payload);
};

beforeAll(async () => {
  endpoint = await startStepFunctionsEndpoint({
    invoke: (name, payload) => invoke(name, payload),
    sleep: async (ms) => void sleeps.push(ms),
  });
  client = new SFNClient({
    endpoint: endpoint.url,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
});

afterAll(async () => {
  client.destroy();
  await endpoint.close();
});

beforeEach(() => {
  functions = {};
  calls = [];
  sleeps = [];
});

let machines = 0;
async function create(definition: AslDefinition, name = `machine-${++machines}`): Promise<string> {
  const out = await client.send(
    new CreateStateMachineCommand({ name, definition: JSON.stringify(definition), roleArn: role }),
  );
  return out.stateMachineArn!;
}

/** Starts an execution and waits for its end; answers DescribeExecution's. */
async function execute(stateMachineArn: string, input: unknown, name?: string) {
  const { executionArn } = await client.send(
    new StartExecutionCommand({ stateMachineArn, input: JSON.stringify(input), name }),
  );
  await endpoint.settle();
  return client.send(new DescribeExecutionCommand({ executionArn }));
}

const oneTask = (extra: Record<string, unknown> = {}, resource = fn('work')): AslDefinition => ({
  StartAt: 'Work',
  States: { Work: { Type: 'Task', Resource: resource, End: true, ...extra } },
});

describe('the Step Functions endpoint', () => {
  it('creates a state machine, runs an execution and describes it', async () => {
    functions.work = async (payload) => ({ doubled: (payload as { n: number }).n * 2 });
    const arn = await create(oneTask({ Parameters: { 'n.$': '$.value' } }), 'purge-like');
    expect(arn).toBe('arn:aws:states:us-east-1:000000000000:stateMachine:purge-like');
    const done = await execute(arn, { value: 21 }, 'first');
    expect(done).toMatchObject({
      executionArn: executionArn(arn, 'first'),
      stateMachineArn: arn,
      name: 'first',
      status: 'SUCCEEDED',
      input: '{"value":21}',
    });
    expect(JSON.parse(done.output!)).toEqual({ doubled: 42 });
    expect(done.startDate).toBeInstanceOf(Date);
    expect(done.stopDate!.getTime()).toBeGreaterThanOrEqual(done.startDate!.getTime());
    expect(calls).toEqual([{ name: 'work', payload: { n: 21 } }]);
  });

  it('answers CreateStateMachine again with the same machine, and refuses another definition under its name', async () => {
    const definition = oneTask();
    const arn = await create(definition, 'twice');
    expect(await create(definition, 'twice')).toBe(arn);
    await expect(create(oneTask({ TimeoutSeconds: 5 }), 'twice')).rejects.toBeInstanceOf(
      StateMachineAlreadyExists,
    );
    const listed = await client.send(new ListStateMachinesCommand({}));
    expect(listed.stateMachines!.filter((m) => m.name === 'twice')).toHaveLength(1);
  });

  it('updates a definition and describes the state machine with it', async () => {
    const arn = await create(oneTask());
    const updated = JSON.stringify(oneTask({ TimeoutSeconds: 9 }));
    await client.send(new UpdateStateMachineCommand({ stateMachineArn: arn, definition: updated }));
    const described = await client.send(new DescribeStateMachineCommand({ stateMachineArn: arn }));
    expect(described).toMatchObject({ definition: updated, status: 'ACTIVE', roleArn: role });
  });

  it('starts an execution once per name: the same input while it runs is the same execution, anything else ExecutionAlreadyExists', async () => {
    let release: () => void = () => undefined;
    functions.work = () => new Promise((resolve) => (release = () => resolve('done')));
    const arn = await create(oneTask());
    const start = (input: string) =>
      client.send(new StartExecutionCommand({ stateMachineArn: arn, name: 'once', input }));
    const first = await start('{"a":1}');
    expect((await start('{"a":1}')).executionArn).toBe(first.executionArn);
    await expect(start('{"a":2}')).rejects.toBeInstanceOf(ExecutionAlreadyExists);
    release();
    await endpoint.settle();
    // Closed: even the same input is refused, as AWS refuses it.
    await expect(start('{"a":1}')).rejects.toBeInstanceOf(ExecutionAlreadyExists);
    expect(calls).toHaveLength(1);
  });

  it("refuses what AWS refuses, in AWS's error shape", async () => {
    const missing = 'arn:aws:states:us-east-1:000000000000:stateMachine:nowhere';
    await expect(
      client.send(new StartExecutionCommand({ stateMachineArn: missing, input: '{}' })),
    ).rejects.toBeInstanceOf(StateMachineDoesNotExist);
    await expect(
      client.send(new DescribeExecutionCommand({ executionArn: executionArn(missing, 'none') })),
    ).rejects.toBeInstanceOf(ExecutionDoesNotExist);
    await expect(
      client.send(new CreateStateMachineCommand({ name: 'bad', definition: '{not json', roleArn: role })),
    ).rejects.toBeInstanceOf(InvalidDefinition);
    await expect(
      create({ StartAt: 'A', States: { A: { Type: 'Pass', Next: 'Nowhere' } } }),
    ).rejects.toBeInstanceOf(InvalidDefinition);
    // Only Lambda tasks run here: an SQS callback task is the moto variant's.
    await expect(create(oneTask({}, 'arn:aws:states:::sqs:sendMessage.waitForTaskToken'))).rejects.toThrow(
      /unsupported task resources/,
    );
    const response = await fetch(endpoint.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-amz-json-1.0',
        'X-Amz-Target': 'AWSStepFunctions.DescribeExecution',
      },
      body: JSON.stringify({ executionArn: executionArn(missing, 'none') }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      __type: 'com.amazonaws.states#ExecutionDoesNotExist',
      message: expect.stringContaining('none') as string,
    });
  });

  it("retries a failing Lambda task per the definition's Retry, matched on the function's errorType", async () => {
    let attempts = 0;
    functions.work = async () => {
      attempts++;
      // What the worker pool throws for a function's error: its errorType, not the class name.
      if (attempts <= 2) throw new FunctionInvocationError('work', 'Lambda.ServiceException', 'try again');
      return { attempts };
    };
    const arn = await create(
      oneTask({
        Retry: [
          { ErrorEquals: ['Other'], MaxAttempts: 0 },
          { ErrorEquals: ['Lambda.ServiceException'], IntervalSeconds: 2, BackoffRate: 3, MaxAttempts: 3 },
        ],
      }),
    );
    const done = await execute(arn, {});
    expect(done.status).toBe('SUCCEEDED');
    expect(JSON.parse(done.output!)).toEqual({ attempts: 3 });
    expect(sleeps).toEqual([2000, 6000]);
  });

  it('fails the execution with the error and cause of a Lambda error that outlasts its retries', async () => {
    functions.work = async () => {
      throw Object.assign(new Error('job unknown'), { name: 'PurgeRefused' });
    };
    const arn = await create(oneTask({ Retry: [{ ErrorEquals: ['States.TaskFailed'], MaxAttempts: 2 }] }));
    const done = await execute(arn, {});
    expect(done).toMatchObject({ status: 'FAILED', error: 'PurgeRefused' });
    expect(JSON.parse(done.cause!)).toEqual({ errorType: 'PurgeRefused', errorMessage: 'job unknown' });
    expect(calls).toHaveLength(3);
  });

  it("catches a Lambda error per the definition's Catch and goes on with it in the state", async () => {
    functions.work = async () => {
      throw new Error('boom');
    };
    functions.cleanup = async (payload) => ({ cleaned: payload });
    const arn = await create({
      StartAt: 'Work',
      States: {
        Work: {
          Type: 'Task',
          Resource: fn('work'),
          Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'Cleanup' }],
          End: true,
        },
        Cleanup: { Type: 'Task', Resource: fn('cleanup'), End: true },
      },
    });
    const done = await execute(arn, { job: 'j1' });
    expect(done.status).toBe('SUCCEEDED');
    const { cleaned } = JSON.parse(done.output!) as {
      cleaned: { job: string; error: { Error: string; Cause: string } };
    };
    expect(cleaned).toMatchObject({ job: 'j1', error: { Error: 'Error' } });
    expect(JSON.parse(cleaned.error.Cause)).toEqual({ errorType: 'Error', errorMessage: 'boom' });
  });

  it('invokes lambda:invoke tasks by FunctionName with their Payload and answers the Invoke response', async () => {
    functions.work = async (payload) => ({ got: payload });
    const arn = await create(
      oneTask(
        {
          Parameters: { FunctionName: fn('work'), 'Payload.$': '$' },
          ResultSelector: { 'result.$': '$.Payload' },
        },
        'arn:aws:states:::lambda:invoke',
      ),
    );
    const done = await execute(arn, { x: 1 });
    expect(JSON.parse(done.output!)).toEqual({ result: { got: { x: 1 } } });
  });

  it('runs the production purge definition to its end, each task a function call with {task, input}', async () => {
    functions.purgePage = async (payload) => {
      const { input } = payload as { input: { cursor: string | null } };
      return input.cursor === null ? { done: false, cursor: 'c1' } : { done: true, cursor: null };
    };
    functions.finishPurge = async () => ({ status: 'succeeded' });
    const arn = await create(
      purgeDefinition({
        target: {
          kind: 'lambda',
          functionArns: { purgePage: fn('purgePage'), finishPurge: fn('finishPurge') },
        },
        taskTimeoutSeconds: 5,
      }),
      'test-purge',
    );
    const job = { jobId: 'j', organizationId: 'o', connectionId: 'c', cursor: null, pageSize: 10, pages: 0 };
    const done = await execute(arn, job);
    expect(done.status).toBe('SUCCEEDED');
    expect(calls.map((c) => c.name)).toEqual(['purgePage', 'purgePage', 'finishPurge']);
    expect(calls[2]!.payload).toEqual({
      task: 'finishPurge',
      input: {
        jobId: 'j',
        organizationId: 'o',
        connectionId: 'c',
        outcome: 'succeeded',
        pageSize: 10,
        pages: 2,
      },
    });
    // The IAM recorder names this machine and its executions by the stack's name for them.
    for (const input of [{ stateMachineArn: arn }, { executionArn: done.executionArn }]) {
      expect(iamCallsOf('SFN', 'StartExecution', input, 'test')).toEqual([
        { action: 'states:StartExecution', resource: 'workflow:purge' },
      ]);
    }
  });
});
