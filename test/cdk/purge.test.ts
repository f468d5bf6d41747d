// Wiring of the purge workflow: the state machine deploys the shared definition with Lambda tasks,
// each task function and route gets only what it uses, and the state machine is traced and logged.
import { Match } from 'aws-cdk-lib/assertions';
import type { Template } from 'aws-cdk-lib/assertions';
import type { ServiceStack } from '../../lib/service-stack';
import type { PurgeWorkflow } from '../../lib/purge';
import { ROUTES } from '../../functions/routes';
import { WORKFLOW_ARN_ENV } from '../../functions/platform/tables';
import { PRODUCTION_RETRY, purgeDefinition } from '../../functions/connectors/infra/purge-definition';
import type { ServiceFunction } from '../../lib/service-function';
import {
  actionsOf,
  actionsOfRole,
  logicalIdOf,
  resourcesOf,
  synthStack,
  targetsOfRole,
} from '../support/synth';

let stack: ServiceStack;
let template: Template;
let purge: PurgeWorkflow;

beforeAll(() => {
  ({ stack, template } = synthStack());
  purge = stack.node.findChild('Purge') as PurgeWorkflow;
});

type Resources = Record<string, { Properties: Record<string, unknown> }>;

const logicalId = (construct: { node: { defaultChild?: unknown } }) =>
  logicalIdOf(construct.node.defaultChild as never);

const roleOf = (fn: ServiceFunction) => logicalId(fn.fn.role! as never);

/** The synthesized definition, each token replaced by a readable placeholder (<Fn::GetAtt:Id.Arn>). */
function synthesizedDefinition(): unknown {
  const machine = template.findResources('AWS::StepFunctions::StateMachine')[
    logicalId(purge.stateMachine)
  ] as {
    Properties: { DefinitionString: unknown };
  };
  const value = machine.Properties.DefinitionString as string | { 'Fn::Join': [string, unknown[]] };
  const text =
    typeof value === 'string'
      ? value
      : value['Fn::Join'][1]
          .map((part) => {
            if (typeof part === 'string') return part;
            const getAtt = (part as { 'Fn::GetAtt'?: [string, string] })['Fn::GetAtt'];
            if (getAtt) return `<Fn::GetAtt:${getAtt[0]}.${getAtt[1]}>`;
            return `<Ref:${(part as { Ref: string }).Ref}>`;
          })
          .join(value['Fn::Join'][0]);
  return JSON.parse(text) as unknown;
}

describe('purge workflow in the service stack', () => {
  it('deploys the shared definition, its tasks invoking the two task Lambdas, with production retries', () => {
    const arn = (fn: ServiceFunction) => `<Fn::GetAtt:${logicalId(fn.fn)}.Arn>`;
    expect(synthesizedDefinition()).toEqual(
      purgeDefinition({
        target: {
          kind: 'lambda',
          functionArns: {
            purgePage: arn(purge.taskFunctions.purgePage),
            finishPurge: arn(purge.taskFunctions.finishPurge),
          },
        },
        retry: PRODUCTION_RETRY,
        taskTimeoutSeconds: 120,
        timeoutSeconds: 24 * 3600,
      }),
    );
    const definition = synthesizedDefinition() as {
      States: Record<string, { Retry?: { ErrorEquals: string[]; MaxAttempts: number }[]; Catch?: unknown[] }>;
    };
    expect(definition.States.DeletePage!.Retry).toEqual([
      { ErrorEquals: ['PurgeRefused'], MaxAttempts: 0 },
      expect.objectContaining({ ErrorEquals: ['States.ALL'], MaxAttempts: 7, IntervalSeconds: 2 }),
    ]);
    expect(definition.States.DeletePage!.Catch).toEqual([
      { ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'PurgeFailed' },
    ]);
  });

  it('is a standard state machine, traced, logging every event with its data in dev', () => {
    template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      StateMachineType: 'STANDARD',
      TracingConfiguration: { Enabled: true },
      LoggingConfiguration: Match.objectLike({ Level: 'ALL', IncludeExecutionData: true }),
    });
  });

  it('lets the state machine invoke exactly the two task Lambdas', () => {
    const role = logicalId(purge.stateMachine.role as never);
    expect(actionsOfRole(template, role).filter((a) => a.startsWith('lambda:'))).toEqual([
      'lambda:InvokeFunction',
    ]);
    expect(targetsOfRole(template, role, 'lambda:')).toEqual(
      [logicalId(purge.taskFunctions.purgePage.fn), logicalId(purge.taskFunctions.finishPurge.fn)].sort(),
    );
    expect(actionsOfRole(template, role).filter((a) => !/^(lambda|logs|xray):/.test(a))).toEqual([]);
  });

  it('gives the page task the connectors and vault tables and vault content deletion, the finish task the connectors table, no KMS', () => {
    const tables = (...names: ('connectors' | 'vault')[]) =>
      names.map((n) => logicalId(stack.data.tables[n])).sort();
    const page = roleOf(purge.taskFunctions.purgePage);
    const finish = roleOf(purge.taskFunctions.finishPurge);
    expect(targetsOfRole(template, page, 'dynamodb:')).toEqual(tables('connectors', 'vault'));
    expect(targetsOfRole(template, finish, 'dynamodb:')).toEqual(tables('connectors'));
    const tableActions = [
      'dynamodb:BatchGetItem',
      'dynamodb:DeleteItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ];
    expect(actionsOfRole(template, page).filter((a) => !a.startsWith('xray:'))).toEqual([
      ...tableActions,
      's3:DeleteObject',
    ]);
    expect(targetsOfRole(template, page, 's3:')).toEqual([logicalId(stack.data.vaultBucket)]);
    expect(actionsOfRole(template, finish).filter((a) => !a.startsWith('xray:'))).toEqual(tableActions);
  });

  it('runs both tasks from the purge-tasks module, the page task within its state timeout', () => {
    const functions = template.findResources('AWS::Lambda::Function') as Resources;
    const page = functions[logicalId(purge.taskFunctions.purgePage.fn)]!.Properties;
    const finish = functions[logicalId(purge.taskFunctions.finishPurge.fn)]!.Properties;
    expect(page.Timeout).toBe(60);
    expect(page.Timeout as number).toBeLessThan(120);
    expect(finish.Timeout).toBe(10);
    for (const fn of [page, finish]) {
      expect(fn.Handler).toBe('index.handler');
      expect((fn.Environment as { Variables: Record<string, unknown> }).Variables).toHaveProperty(
        'TABLE_CONNECTORS',
      );
    }
    expect((page.Environment as { Variables: Record<string, unknown> }).Variables).toHaveProperty(
      'TABLE_VAULT',
    );
  });

  it('lets DELETE connection start executions (with the ARN) and the job route only describe them', () => {
    const machine = logicalId(purge.stateMachine);
    const states = (routeId: string) =>
      actionsOf(template, stack, routeId).filter((a) => a.startsWith('states:'));
    expect(states('deleteConnection')).toEqual(['states:DescribeExecution', 'states:StartExecution']);
    expect(resourcesOf(template, stack, 'deleteConnection', 'states:StartExecution')).toEqual([machine]);
    expect(states('getConnectorJob')).toEqual(['states:DescribeExecution']);
    for (const route of ROUTES.filter((r) => !r.uses.workflows)) expect(states(route.id)).toEqual([]);

    const variables = (routeId: string) =>
      (
        (template.findResources('AWS::Lambda::Function') as Resources)[
          logicalId(stack.api.functions.get(routeId)!.fn)
        ]!.Properties.Environment as { Variables: Record<string, unknown> }
      ).Variables;
    expect(variables('deleteConnection')[WORKFLOW_ARN_ENV.purge]).toEqual({ Ref: machine });
    expect(variables('getConnectorJob')).not.toHaveProperty(WORKFLOW_ARN_ENV.purge);
  });

  it('routes GET /connectors/jobs/{id} to its own Lambda behind the API-key authorizer', () => {
    template.hasResourceProperties('AWS::ApiGateway::Method', {
      HttpMethod: 'GET',
      OperationName: 'getConnectorJob',
      AuthorizationType: 'CUSTOM',
    });
  });
});
