// The purge-on-disconnect workflow: the state machine from the shared definition
// (functions/connectors/infra/purge-definition.ts), its task Lambdas from the worker table
// (functions/platform/workers.ts) with least grants, and what the routes that start or read it need.
import { Duration, Stack } from 'aws-cdk-lib';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { DefinitionBody, LogLevel, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { RouteDefinition } from '../functions/platform/route-types';
import { WORKFLOW_ARN_ENV } from '../functions/platform/tables';
import { ROUTES } from '../functions/routes';
import type { PurgeRetry, PurgeTask, PurgeTaskTarget } from '../functions/connectors/infra/purge-definition';
import {
  DEPLOYED_PURGE_SETTINGS,
  PURGE_TASKS,
  purgeDefinition,
} from '../functions/connectors/infra/purge-definition';
import { WORKFLOW_TASKS } from '../functions/platform/workers';
import type { DataStores } from './data';
import type { Messaging } from './messaging';
import { ServiceFunction } from './service-function';
import { bindUses } from './workers';
import type { StageConfig } from './stage-config';

export interface PurgeWorkflowProps {
  stage: StageConfig;
  data: DataStores;
  messaging: Messaging;
  /** Defaults to PRODUCTION_RETRY; emulator tests use 1 s intervals. */
  retry?: PurgeRetry;
  /**
   * Emulator tests only: tasks become SQS callbacks on this queue (a worker answers them) instead of
   * Lambda invocations, which moto cannot run (docs/notes/step-functions-on-moto.md).
   */
  callbackQueue?: IQueue;
  /** Where a task's function is made (the connectors area's workflow stack); omitted: in this construct. */
  functionScope?: (handler: string) => Construct;
}

const pascal = (id: string) => id[0]!.toUpperCase() + id.slice(1);

export class PurgeWorkflow extends Construct {
  readonly stateMachine: StateMachine;
  /** One function per task of the worker table's purge workflow, by task name. */
  readonly taskFunctions: Record<PurgeTask, ServiceFunction>;

  constructor(scope: Construct, id: string, props: PurgeWorkflowProps) {
    super(scope, id);
    const { stage, data } = props;
    // Both tasks run the same module; each gets only the grants of its own task.
    const tasks = WORKFLOW_TASKS.filter((t) => t.workflow === 'purge');
    const missing = PURGE_TASKS.filter((name) => !tasks.some((t) => t.id === name));
    if (missing.length) throw new Error(`The worker table has no purge task ${missing.join(', ')}`);
    this.taskFunctions = Object.fromEntries(
      tasks.map((task) => {
        const fn = new ServiceFunction(props.functionScope?.(task.handler) ?? this, pascal(task.id), {
          handler: task.handler,
          stage,
          description: task.description,
          timeout: Duration.seconds(task.timeoutSeconds),
        });
        return [task.id, bindUses(fn, task.uses, { data, messaging: props.messaging })];
      }),
    ) as Record<PurgeTask, ServiceFunction>;

    const target: PurgeTaskTarget = props.callbackQueue
      ? { kind: 'sqsCallback', queueUrl: props.callbackQueue.queueUrl }
      : {
          kind: 'lambda',
          functionArns: Object.fromEntries(
            PURGE_TASKS.map((name) => [name, this.taskFunctions[name].fn.functionArn]),
          ) as Record<PurgeTask, string>,
        };
    const definition = purgeDefinition({
      ...DEPLOYED_PURGE_SETTINGS,
      target,
      ...(props.retry ? { retry: props.retry } : {}),
    });

    this.stateMachine = new StateMachine(this, 'StateMachine', {
      stateMachineType: StateMachineType.STANDARD,
      definitionBody: DefinitionBody.fromString(Stack.of(this).toJsonString(definition)),
      tracingEnabled: true,
      logs: {
        destination: new LogGroup(this, 'Logs', {
          retention: stage.logRetention,
          removalPolicy: stage.removalPolicy,
        }),
        // Dev: every event with its data (inputs are ids and counts), to follow an execution. Prod:
        // errors only, no execution data: a purge's history stays in Step Functions for 90 days.
        level: stage.stage === 'prod' ? LogLevel.ERROR : LogLevel.ALL,
        includeExecutionData: stage.stage !== 'prod',
      },
    });
    if (props.callbackQueue) {
      props.callbackQueue.grantSendMessages(this.stateMachine);
    } else {
      for (const fn of Object.values(this.taskFunctions)) fn.fn.grantInvoke(this.stateMachine);
    }
  }

  /**
   * Grants each route function that declares `uses.workflows.purge` what it declares: `start` may start
   * executions (and gets the ARN), `describe` may only read them.
   */
  bindRoutes(
    functions: ReadonlyMap<string, ServiceFunction>,
    routes: readonly RouteDefinition[] = ROUTES,
  ): this {
    for (const route of routes) {
      const use = route.uses.workflows?.purge;
      const fn = functions.get(route.id);
      if (!use || !fn) continue;
      if (use === 'start') {
        this.stateMachine.grantStartExecution(fn.fn);
        fn.fn.addEnvironment(WORKFLOW_ARN_ENV.purge, this.stateMachine.stateMachineArn);
      }
      this.stateMachine.grantExecution(fn.fn, 'states:DescribeExecution');
    }
    return this;
  }
}
