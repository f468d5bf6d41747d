// Workflows port in process: each execution runs the workflow's ASL definition through the local
// interpreter, its Task resources dispatched to our task code. Executions live in memory only.
import type { Execution, WorkflowName, Workflows } from '../../platform/ports';
import type { AslDefinition, TaskInvoker } from './asl-interpreter';
import { StatesError, runStateMachine, validateDefinition } from './asl-interpreter';

export interface LocalWorkflow {
  definition: AslDefinition;
  invoke: TaskInvoker;
}

export class LocalWorkflows implements Workflows {
  private readonly executions = new Map<string, Execution>();
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly workflows: Partial<Record<WorkflowName, LocalWorkflow>>,
    private readonly options: { sleep?: (ms: number) => Promise<void> } = {},
  ) {
    for (const [name, workflow] of Object.entries(workflows)) validateDefinition(workflow.definition, name);
  }

  async start(name: WorkflowName, input: Record<string, unknown>, executionName: string): Promise<string> {
    const workflow = this.workflows[name];
    if (!workflow) throw new Error(`No local definition for workflow ${name}`);
    const id = `arn:aws:states:local:000000000000:execution:${name}:${executionName}`;
    if (this.executions.has(id)) return id;
    this.executions.set(id, { id, status: 'RUNNING' });
    const run = runStateMachine(workflow.definition, input, {
      invoke: workflow.invoke,
      executionId: id,
      executionName,
      sleep: this.options.sleep,
    })
      .then((output) => void this.executions.set(id, { id, status: 'SUCCEEDED', output }))
      .catch((error: unknown) => {
        const failure =
          error instanceof StatesError ? error : new StatesError('States.Runtime', String(error));
        this.executions.set(id, {
          id,
          status: failure.error === 'States.Timeout' ? 'TIMED_OUT' : 'FAILED',
          error: failure.error,
          cause: failure.cause,
        });
      })
      .finally(() => this.running.delete(run));
    this.running.add(run);
    return id;
  }

  async describe(executionId: string): Promise<Execution | undefined> {
    const execution = this.executions.get(executionId);
    return execution ? structuredClone(execution) : undefined;
  }

  /** Resolves once every execution started so far has ended (tests, shutdown). */
  async settle(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running]);
  }
}
