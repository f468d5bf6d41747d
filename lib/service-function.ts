// Every Lambda of the service is made here: runtime, architecture, tracing, logs, bundling and the
// grant-plus-environment helpers, so no function is configured by hand.
import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyDocument, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { QUEUE_URL_ENV, TABLE_DEFINITIONS } from '../functions/platform/tables';
import type { QueueName, TableName } from '../functions/platform/ports';
import type { StageConfig } from './stage-config';

/** What the Table port's adapter calls: GetItem and Query to read; PutItem, UpdateItem, DeleteItem to write. */
export const TABLE_ACTIONS = {
  read: ['dynamodb:GetItem', 'dynamodb:Query'],
  write: [
    'dynamodb:GetItem',
    'dynamodb:Query',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
  ],
} as const;

export const FUNCTIONS_DIR = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'functions');

export interface ServiceFunctionProps {
  /** Module under functions/ (no extension) exporting `handler`. */
  handler: string;
  stage: StageConfig;
  description?: string;
  timeout?: Duration;
  memorySize?: number;
  environment?: Record<string, string>;
  reservedConcurrency?: number;
}

export class ServiceFunction extends Construct {
  readonly fn: NodejsFunction;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    const logGroup = new LogGroup(this, 'Logs', {
      retention: props.stage.logRetention,
      removalPolicy: props.stage.removalPolicy,
    });
    // Instead of AWSLambdaBasicExecutionRole (logs:* on every log group): write to its own log group only.
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      inlinePolicies: {
        logs: new PolicyDocument({
          statements: [
            new PolicyStatement({
              actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
              resources: [logGroup.logGroupArn],
            }),
          ],
        }),
      },
    });
    this.fn = new NodejsFunction(this, 'Function', {
      role,
      entry: join(FUNCTIONS_DIR, `${props.handler}.ts`),
      handler: 'handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      logGroup,
      description: props.description,
      reservedConcurrentExecutions: props.reservedConcurrency,
      environment: {
        STAGE: props.stage.stage,
        NODE_OPTIONS: '--enable-source-maps',
        ...(props.stage.publicBaseUrl ? { PUBLIC_BASE_URL: props.stage.publicBaseUrl } : {}),
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        sourcesContent: false,
        mainFields: ['module', 'main'],
        // The nodejs22.x runtime ships AWS SDK v3: not bundling it keeps bundles small and cold starts fast.
        externalModules: ['@aws-sdk/*'],
        banner:
          "import { createRequire as __createRequire } from 'module'; const require = __createRequire(import.meta.url);",
      },
    });
  }

  /**
   * Grants exactly the DynamoDB actions the Table port issues for `access` (on the table and its
   * indexes) and sets the table's name variable, together.
   */
  bindTable(name: TableName, table: ITable, access: 'read' | 'write'): this {
    table.grant(this.fn, ...TABLE_ACTIONS[access]);
    this.fn.addEnvironment(TABLE_DEFINITIONS[name].envVar, table.tableName);
    return this;
  }

  bindKey(key: IKey, use: 'encrypt' | 'decrypt' | 'both'): this {
    const actions = [
      ...(use === 'encrypt' || use === 'both' ? ['kms:GenerateDataKey'] : []),
      ...(use === 'decrypt' || use === 'both' ? ['kms:Decrypt'] : []),
    ];
    key.grant(this.fn, ...actions);
    // The key policy delegates no use to the account (lib/data.ts): name this role in it too.
    key.addToResourcePolicy(new PolicyStatement({ principals: [this.fn.role!], actions, resources: ['*'] }));
    this.fn.addEnvironment('KMS_KEY_ID', key.keyArn);
    return this;
  }

  bindQueue(name: QueueName, queue: IQueue): this {
    queue.grantSendMessages(this.fn);
    this.fn.addEnvironment(QUEUE_URL_ENV[name], queue.queueUrl);
    return this;
  }
}
