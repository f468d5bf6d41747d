// Wiring of the scheduled token refresh sweep: a 5-minute EventBridge rule invoking one Lambda that may
// touch the connectors table, the envelope key and the events queue, and read only the provider token
// endpoints and clients.
import type { Template } from 'aws-cdk-lib/assertions';
import { Match } from 'aws-cdk-lib/assertions';
import type { Rule } from 'aws-cdk-lib/aws-events';
import type { ServiceFunction } from '../../lib/service-function';
import type { ServiceStack } from '../../lib/service-stack';
import { actionsOfRole, logicalIdOf, roleIdOf, synthStack, targetsOfRole } from '../support/synth';

const endpoints = (host: string, clientId: string) => ({
  authorizeUrl: `https://${host}/oauth/authorize`,
  tokenUrl: `https://${host}/oauth/token`,
  revokeUrl: `https://${host}/oauth/revoke`,
  accountUrl: `https://${host}/api/v1/me`,
  clientId,
});
const CONTEXT = {
  providers: {
    practice: endpoints('practice.example', 'practice-client'),
    drive: endpoints('drive.example', 'drive-client'),
  },
};

let stack: ServiceStack;
let template: Template;
let lifecycle: { sweep: ServiceFunction; schedule: Rule };
let functionId: string;

beforeAll(() => {
  ({ stack, template } = synthStack({ context: { connectors: JSON.stringify(CONTEXT) } }));
  lifecycle = {
    sweep: stack.scheduledWorkers.functions.get('refreshSweep')!,
    schedule: stack.scheduledWorkers.rules.get('refreshSweep')!,
  };
  functionId = logicalIdOf(lifecycle.sweep.fn.node.defaultChild as never);
});

const sweepRole = () => roleIdOf(stack, lifecycle.sweep);
const actions = () => actionsOfRole(template, sweepRole());
/** Logical ids the statements granting actions with `prefix` point at. */
const targetsOf = (prefix: string) => targetsOfRole(template, sweepRole(), prefix);

const logicalId = (construct: { node: { defaultChild?: unknown } }) =>
  logicalIdOf(construct.node.defaultChild as never);

describe('the token refresh sweep in the stack', () => {
  it('is invoked by an EventBridge rule every 5 minutes, without retries of a missed run', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(5 minutes)',
      State: 'ENABLED',
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [functionId, 'Arn'] },
          RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 300 },
        }),
      ],
    });
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [functionId, 'Arn'] },
      SourceArn: { 'Fn::GetAtt': [logicalId(lifecycle.schedule), 'Arn'] },
    });
  });

  it('runs the refresh-sweep handler on the ServiceFunction defaults, within the interval, without reserved concurrency', () => {
    const fn = template.toJSON().Resources[functionId] as { Properties: Record<string, unknown> };
    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      TracingConfig: { Mode: 'Active' },
      Timeout: 240,
    });
    // Overlapping runs are safe (each refresh takes a lease); a reservation would be refused by
    // accounts with a low concurrency quota.
    expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
    const logs = lifecycle.sweep.node.findChild('Logs') as { node: { defaultChild?: unknown } };
    expect(fn.Properties.LoggingConfig).toEqual({ LogGroup: { Ref: logicalId(logs) } });
  });

  it('grants exactly the connectors table, the envelope key both ways, sending to the events queue and the client secrets', () => {
    expect(actions()).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:DeleteItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
      'kms:Decrypt',
      'kms:GenerateDataKey',
      'secretsmanager:GetSecretValue',
      'sqs:GetQueueAttributes',
      'sqs:GetQueueUrl',
      'sqs:SendMessage',
      'xray:PutTelemetryRecords',
      'xray:PutTraceSegments',
    ]);
    expect(targetsOf('dynamodb:')).toEqual([logicalId(stack.data.tables.connectors)]);
    expect(targetsOf('kms:')).toEqual([logicalId(stack.data.key)]);
    // The events queue, and the failures queue its failed runs go to.
    expect(targetsOf('sqs:')).toEqual(
      [logicalId(stack.messaging.queues.events.queue), logicalId(stack.scheduledWorkers.failures)].sort(),
    );
    // The providers' client secrets, read at run time; not the state-signing key.
    const secrets = Object.values(stack.connectors.clientSecrets).map((secret) => logicalId(secret as never));
    expect(targetsOf('secretsmanager:')).toEqual(secrets.sort());
    expect(targetsOf('secretsmanager:')).not.toContain(logicalId(stack.connectors.stateKey as never));
  });

  it('gets the token endpoints, client ids and where the client secrets are, nothing else of the providers', () => {
    const fn = template.toJSON().Resources[functionId] as {
      Properties: { Environment: { Variables: Record<string, unknown> } };
    };
    const env = fn.Properties.Environment.Variables;
    expect(env).toMatchObject({
      PROVIDER_PRACTICE_TOKEN_URL: 'https://practice.example/oauth/token',
      PROVIDER_PRACTICE_CLIENT_ID: 'practice-client',
      PROVIDER_DRIVE_TOKEN_URL: 'https://drive.example/oauth/token',
      PROVIDER_DRIVE_CLIENT_ID: 'drive-client',
      TABLE_CONNECTORS: expect.anything(),
      KMS_KEY_ID: expect.anything(),
      QUEUE_EVENTS_URL: expect.anything(),
    });
    expect(env.PROVIDER_PRACTICE_CLIENT_SECRET_ARN).toEqual({
      Ref: logicalId(stack.connectors.clientSecrets.practice as never),
    });
    expect(env.PROVIDER_PRACTICE_CLIENT_SECRET).toBeUndefined(); // read at run time, never configured
    expect(JSON.stringify(env)).not.toContain('resolve:secretsmanager');
    const names = Object.keys(env);
    expect(names.filter((n) => /AUTHORIZE_URL|REVOKE_URL|ACCOUNT_URL/.test(n))).toEqual([]);
    expect(names.filter((n) => n.startsWith('CONNECT_STATE_SIGNING_KEY'))).toEqual([]);
    expect(names.filter((n) => n.startsWith('TABLE_'))).toEqual(['TABLE_CONNECTORS']);
  });
});
