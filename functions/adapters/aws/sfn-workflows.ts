// Workflows port on Step Functions: one state machine per workflow name, its ARN from the environment.
import type { SFNClient } from './sdk/sfn';
import type { Execution, ExecutionStatus, WorkflowName, Workflows } from '../../platform/ports';
import type { ClientRef } from './clients';

const sdk = () => import('./sdk/sfn');

const STATUSES = new Set<ExecutionStatus>(['RUNNING', 'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'ABORTED']);

/** arn:aws:states:<region>:<account>:stateMachine:<name> -> ...:execution:<name>:<execution name> */
export const executionArn = (stateMachineArn: string, executionName: string): string =>
  `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${executionName}`;

export class SfnWorkflows implements Workflows {
  constructor(
    private readonly stateMachineArn: (name: WorkflowName) => string,
    private readonly client: ClientRef<SFNClient>,
  ) {}

  async start(name: WorkflowName, input: Record<string, unknown>, executionName: string): Promise<string> {
    const stateMachineArn = this.stateMachineArn(name);
    const [client, { StartExecutionCommand, ExecutionAlreadyExists }] = await Promise.all([
      this.client,
      sdk(),
    ]);
    try {
      const out = await client.send(
        new StartExecutionCommand({ stateMachineArn, name: executionName, input: JSON.stringify(input) }),
      );
      return out.executionArn ?? executionArn(stateMachineArn, executionName);
    } catch (error) {
      // Execution names are unique per state machine: a repeat is the same execution, not a new one.
      if (error instanceof ExecutionAlreadyExists) return executionArn(stateMachineArn, executionName);
      throw error;
    }
  }

  async describe(executionId: string): Promise<Execution | undefined> {
    const [client, { DescribeExecutionCommand, ExecutionDoesNotExist }] = await Promise.all([
      this.client,
      sdk(),
    ]);
    try {
      const out = await client.send(new DescribeExecutionCommand({ executionArn: executionId }));
      const status = STATUSES.has(out.status as ExecutionStatus)
        ? (out.status as ExecutionStatus)
        : 'RUNNING'; // PENDING_REDRIVE: a redrive is about to run it again
      return {
        id: executionId,
        status,
        ...(out.output ? { output: JSON.parse(out.output) as unknown } : {}),
        ...(out.error ? { error: out.error } : {}),
        ...(out.cause ? { cause: out.cause } : {}),
      };
    } catch (error) {
      if (error instanceof ExecutionDoesNotExist) return undefined;
      throw error;
    }
  }
}
