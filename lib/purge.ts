// The purge-on-disconnect workflow: the state machine from the shared definition
// (functions/connectors/infra/purge-definition.ts), its two task Lambdas with least grants, and what the
// routes that start or read it need.
import { Duration, Stack } from 'aws-cdk-lib';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { DefinitionBody, LogLevel, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { RouteDefinition } from '../functions/platform/route-types';
import { WORKFLOW_ARN_ENV } from '../functions/platform/tables';
import { ROUTES } from '../functions/routes';
import type { PurgeRetry, PurgeTaskTarget } from '../functions/connectors/infra/purge-definition';
import { purgeDefinition } from '../functions/connectors/infra/purge-definition';
import type { DataStores } from './data';
import { ServiceFunction } from './service-function';
import type { StageConfig } from './stage-config';

export interface PurgeWorkflowProps {
  stage: StageConfig;
  data: DataStores;
  /** Defaults to PRODUCTION_RETRY; emulator tests use 1 s intervals. */
  retry?: PurgeRetry;
  /**
   * Emulator tests only: tasks become SQS callbacks on this queue (a worker answers them) instead of
   * Lambda invocations, which moto cannot run (docs/notes/step-functions-on-moto.md).
   */
  callbackQueue?: IQueue;
}

/** A page task must finish well inside its state's timeout, so a stuck attempt is retried, not waited on. */
const PAGE_FUNCTION_TIMEOUT = Duration.seconds(60);
const TASK_TIMEOUT_SECONDS = 120;
const EXECUTION_TIMEOUT_SECONDS = 24 * 3600;

export class PurgeWorkflow extends Construct {
  readonly stateMachine: StateMachine;
  readonly pageFunction: ServiceFunction;
  readonly finishFunction: ServiceFunction;

  constructor(scope: Construct, id: string, props: PurgeWorkflowProps) {
    super(scope, id);
    const { stage, data } = props;
    // Both run the same module; each gets only the grants of its own task.
    this.pageFunction = new ServiceFunction(this, 'PurgePage', {
      handler: 'connectors/api/handlers/purge-tasks',
      stage,
      description: 'Purge workflow: delete the vault documents of one page of a ledger',
      timeout: PAGE_FUNCTION_TIMEOUT,
    })
      .bindTable('connectors', data.tables.connectors, 'write')
      .bindTable('vault', data.tables.vault, 'write');
    this.finishFunction = new ServiceFunction(this, 'FinishPurge', {
      handler: 'connectors/api/handlers/purge-tasks',
      stage,
      description: 'Purge workflow: record the job outcome',
    }).bindTable('connectors', data.tables.connectors, 'write');

    const target: PurgeTaskTarget = props.callbackQueue
      ? { kind: 'sqsCallback', queueUrl: props.callbackQueue.queueUrl }
      : {
          kind: 'lambda',
          functionArns: {
            purgePage: this.pageFunction.fn.functionArn,
            finishPurge: this.finishFunction.fn.functionArn,
          },
        };
    const definition = purgeDefinition({
      target,
      retry: props.retry,
      taskTimeoutSeconds: TASK_TIMEOUT_SECONDS,
      timeoutSeconds: EXECUTION_TIMEOUT_SECONDS,
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
        level: LogLevel.ERROR,
        includeExecutionData: false,
      },
    });
    if (props.callbackQueue) {
      props.callbackQueue.grantSendMessages(this.stateMachine);
    } else {
      this.pageFunction.fn.grantInvoke(this.stateMachine);
      this.finishFunction.fn.grantInvoke(this.stateMachine);
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
