// The local ASL interpreter on the rules our definitions lean on: retry schedules, catch, parallel
// results, paths and intrinsics, timeouts.
import type { AslDefinition, TaskInvoker } from '../../functions/adapters/local/asl-interpreter';
import { runStateMachine, StatesError } from '../../functions/adapters/local/asl-interpreter';

const run = (definition: AslDefinition, input: unknown, invoke: TaskInvoker, sleeps: number[] = []) =>
  runStateMachine(definition, input, {
    invoke,
    executionId: 'arn:test',
    executionName: 'test',
    sleep: async (ms) => void sleeps.push(ms),
  });

const failing = (times: number, name = 'Flaky'): TaskInvoker => {
  let calls = 0;
  return async (_resource, input) => {
    if (++calls <= times) throw Object.assign(new Error(`attempt ${calls}`), { name });
    return { input, calls };
  };
};

const taskWith = (extra: Record<string, unknown>): AslDefinition => ({
  StartAt: 'T',
  States: { T: { Type: 'Task', Resource: 'arn:task', End: true, ...extra } },
});

describe('ASL interpreter', () => {
  it('retries with IntervalSeconds, BackoffRate and MaxDelaySeconds, then succeeds', async () => {
    const sleeps: number[] = [];
    const definition = taskWith({
      Retry: [
        {
          ErrorEquals: ['States.ALL'],
          IntervalSeconds: 2,
          BackoffRate: 3,
          MaxAttempts: 5,
          MaxDelaySeconds: 10,
        },
      ],
    });
    expect(await run(definition, { a: 1 }, failing(4), sleeps)).toEqual({ input: { a: 1 }, calls: 5 });
    expect(sleeps).toEqual([2000, 6000, 10000, 10000]);
  });

  it('stops retrying after MaxAttempts and hands the error to Catch at its ResultPath', async () => {
    const definition: AslDefinition = {
      StartAt: 'T',
      States: {
        T: {
          Type: 'Task',
          Resource: 'arn:task',
          Retry: [
            { ErrorEquals: ['Fatal'], MaxAttempts: 0 },
            { ErrorEquals: ['States.TaskFailed'], IntervalSeconds: 1, MaxAttempts: 2 },
          ],
          Catch: [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'Caught' }],
          End: true,
        },
        // Taken although T says End: a catcher's Next always is.
        Caught: { Type: 'Pass', Result: true, ResultPath: '$.caught', End: true },
      },
    };
    const sleeps: number[] = [];
    const out = (await run(definition, { keep: true }, failing(9), sleeps)) as Record<string, unknown>;
    expect(out).toEqual({
      keep: true,
      caught: true,
      error: { Error: 'Flaky', Cause: JSON.stringify({ errorType: 'Flaky', errorMessage: 'attempt 3' }) },
    });
    expect(sleeps).toEqual([1000, 2000]);
    const fatal: number[] = [];
    await run(definition, {}, failing(9, 'Fatal'), fatal);
    expect(fatal).toEqual([]);
  });

  it('fails the execution with the error name when nothing catches it', async () => {
    await expect(run(taskWith({}), {}, failing(1, 'Nope'))).rejects.toMatchObject({ error: 'Nope' });
    const fail: AslDefinition = { StartAt: 'F', States: { F: { Type: 'Fail', Error: 'Bad', Cause: 'why' } } };
    await expect(run(fail, {}, failing(0))).rejects.toEqual(new StatesError('Bad', 'why'));
  });

  it('runs Parallel branches, selects from their results and places them', async () => {
    const definition: AslDefinition = {
      StartAt: 'P',
      States: {
        P: {
          Type: 'Parallel',
          Branches: [
            { StartAt: 'A', States: { A: { Type: 'Task', Resource: 'arn:a', End: true } } },
            { StartAt: 'B', States: { B: { Type: 'Pass', Result: { b: 2 }, End: true } } },
          ],
          ResultSelector: { 'first.$': '$[0].echo', 'second.$': '$[1].b' },
          ResultPath: '$.result',
          End: true,
        },
      },
    };
    const out = await run(definition, { x: 'y' }, async (resource, input) => ({ echo: [resource, input] }));
    expect(out).toEqual({ x: 'y', result: { first: ['arn:a', { x: 'y' }], second: 2 } });
  });

  it('evaluates Parameters with paths, the context object and intrinsics', async () => {
    const definition: AslDefinition = {
      StartAt: 'P',
      States: {
        P: {
          Type: 'Pass',
          Parameters: {
            literal: 'x',
            'sum.$': 'States.MathAdd($.n, 1)',
            'text.$': "States.Format('{} of {}', $.n, $.name)",
            'execution.$': '$$.Execution.Name',
            nested: { 'list.$': '$.list[1]' },
          },
          Next: 'C',
        },
        C: {
          Type: 'Choice',
          Choices: [
            {
              And: [
                { Variable: '$.sum', NumericEquals: 5 },
                { Variable: '$.literal', StringEquals: 'x' },
              ],
              Next: 'Yes',
            },
          ],
          Default: 'No',
        },
        Yes: { Type: 'Succeed' },
        No: { Type: 'Fail', Error: 'No' },
      },
    };
    expect(await run(definition, { n: 4, name: 'n', list: ['a', 'b'] }, failing(0))).toEqual({
      literal: 'x',
      sum: 5,
      text: '4 of n',
      execution: 'test',
      nested: { list: 'b' },
    });
  });

  it('fails with States.Runtime on a path that matches nothing, which States.ALL does not catch', async () => {
    const definition: AslDefinition = {
      StartAt: 'P',
      States: {
        P: {
          Type: 'Task',
          Resource: 'arn:task',
          Parameters: { 'x.$': '$.missing' },
          Catch: [{ ErrorEquals: ['States.ALL'], Next: 'Caught' }],
          End: true,
        },
        Caught: { Type: 'Succeed' },
      },
    };
    await expect(run(definition, {}, failing(0))).rejects.toMatchObject({ error: 'States.Runtime' });
  });

  it('times a task out after TimeoutSeconds as States.Timeout', async () => {
    const definition = taskWith({ TimeoutSeconds: 0.05 });
    await expect(run(definition, {}, () => new Promise(() => undefined))).rejects.toMatchObject({
      error: 'States.Timeout',
    });
  });
});
