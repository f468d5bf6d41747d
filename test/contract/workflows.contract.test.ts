// The Workflows port's contract on both adapters: the local ASL interpreter and Step Functions (moto,
// with execution enabled). Both run the same small definition.
import { CreateStateMachineCommand, SFNClient } from '@aws-sdk/client-sfn';
import { randomBytes } from 'node:crypto';
import type { AslDefinition } from '../../functions/platform/asl';
import { LocalWorkflows } from '../../functions/adapters/local/local-workflows';
import { SfnWorkflows } from '../../functions/adapters/aws/sfn-workflows';
import type { Execution, Workflows } from '../../functions/platform/ports';
import { requireEmulators } from '../support/emulators';

const DEFINITION: AslDefinition = {
  StartAt: 'Check',
  States: {
    Check: {
      Type: 'Choice',
      Choices: [{ Variable: '$.fail', BooleanEquals: true, Next: 'Boom' }],
      Default: 'Echo',
    },
    Echo: { Type: 'Pass', Parameters: { 'echo.$': '$.value', 'sum.$': 'States.MathAdd($.n, 1)' }, End: true },
    Boom: { Type: 'Fail', Error: 'Boom', Cause: 'asked to fail' },
  },
};

async function localAdapter(): Promise<Workflows> {
  return new LocalWorkflows({
    purge: { definition: DEFINITION, invoke: async () => ({}) },
  });
}

async function sfnAdapter(): Promise<Workflows> {
  requireEmulators();
  const client = new SFNClient({});
  const { stateMachineArn } = await client.send(
    new CreateStateMachineCommand({
      name: `contract-${randomBytes(4).toString('hex')}`,
      definition: JSON.stringify(DEFINITION),
      roleArn: 'arn:aws:iam::123456789012:role/contract-test',
    }),
  );
  return new SfnWorkflows(() => stateMachineArn!, client);
}

async function ended(workflows: Workflows, id: string, ms = 20_000): Promise<Execution> {
  const deadline = Date.now() + ms;
  for (;;) {
    const execution = await workflows.describe(id);
    if (execution && execution.status !== 'RUNNING') return execution;
    if (Date.now() > deadline) throw new Error(`execution ${id} still ${execution?.status} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const run = () => `run-${randomBytes(6).toString('hex')}`;

describe.each([
  ['local (ASL interpreter)', localAdapter],
  ['aws (Step Functions)', sfnAdapter],
])('Workflows port: %s', (_name, make) => {
  let workflows: Workflows;
  beforeAll(async () => {
    workflows = await make();
  });

  it('runs an execution to success and describes its output', async () => {
    const id = await workflows.start('purge', { fail: false, value: 'x', n: 41 }, run());
    expect(await ended(workflows, id)).toEqual({ id, status: 'SUCCEEDED', output: { echo: 'x', sum: 42 } });
  });

  it('describes a failed execution with its error name', async () => {
    const id = await workflows.start('purge', { fail: true }, run());
    expect(await ended(workflows, id)).toMatchObject({ id, status: 'FAILED', error: 'Boom' });
  });

  it('starts once per execution name: a repeat returns the first execution', async () => {
    const name = run();
    const first = await workflows.start('purge', { fail: false, value: 'once', n: 0 }, name);
    const second = await workflows.start('purge', { fail: false, value: 'once', n: 0 }, name);
    expect(second).toBe(first);
    expect(await ended(workflows, first)).toMatchObject({ status: 'SUCCEEDED', output: { echo: 'once' } });
  });

  it('describes an unknown execution as undefined', async () => {
    const known = await workflows.start('purge', { fail: false, value: 'y', n: 0 }, run());
    const unknown = known.replace(/:[^:]+$/, `:${run()}`);
    expect(await workflows.describe(unknown)).toBeUndefined();
  });
});
