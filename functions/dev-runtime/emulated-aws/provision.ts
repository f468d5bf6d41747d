// Creates the stack's resources at an emulator endpoint (moto server and DynamoDB Local, or LocalStack)
// from the definitions the CDK stack deploys: every table of platform/tables.ts with its indexes and
// TTL, a queue per entry of the worker table with its dead-letter queue and redrive, the envelope key,
// and each workflow's state machine (at the Step Functions endpoint the SDK is given: the runtime's own,
// ./step-functions-endpoint.ts, or the emulator's). Idempotent: a resource that exists is reused and brought in line,
// so a restart against emulators that kept running keeps their data. Never pointed at a real account:
// the emulated runtime calls it only when AWS_ENDPOINT_URL names an endpoint.
//
// A new kind of resource (the vault's S3 bucket, for instance) is one more step in provisionStack.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { AslDefinition } from '../../platform/asl';
import type { QueueName, TableName, WorkflowName } from '../../platform/ports';
import {
  DLQ_URL_ENV,
  INDEX_KEYS,
  QUEUE_URL_ENV,
  TABLE_DEFINITIONS,
  TABLE_NAMES,
  VAULT_BUCKET_ENV,
  WORKFLOW_ARN_ENV,
} from '../../platform/tables';
import {
  DEAD_LETTER_RETENTION_DAYS,
  QUEUE_NAMES,
  QUEUE_WORKERS,
  WORKFLOW_TASKS,
} from '../../platform/workers';
import { kms, s3, secretsManager, sfn, sqs } from '../../compose/aws';
import { secretArnEnv } from '../../platform/config';

const DAY_SECONDS = 24 * 3600;

export interface ProvisionOptions {
  /** Prefixes every physical name, so several runtimes can share one emulator. */
  prefix: string;
  workflows: Record<WorkflowName, WorkflowDefinition>;
}

/**
 * A workflow's definition; a callback variant (docs/notes/step-functions-on-moto.md) is given as a
 * function of the URL of the queue its callback tasks are sent to, and that queue is made only then.
 */
export type WorkflowDefinition = AslDefinition | ((taskQueueUrl: string) => AslDefinition);

export interface ProvisionedQueue {
  url: string;
  arn: string;
  deadLetterUrl: string;
}

export interface ProvisionedStack {
  /** What the aws adapters read: table names, queue and DLQ URLs, the key, state machine ARNs. */
  environment: Record<string, string>;
  queues: Record<QueueName, ProvisionedQueue>;
  /** Per callback-variant workflow, the queue its callback tasks go to (a task runner consumes it). */
  taskQueues: Partial<Record<WorkflowName, string>>;
}

export async function provisionStack(options: ProvisionOptions): Promise<ProvisionedStack> {
  const { prefix } = options;
  const [tables, queues, keyArn, taskQueues, vaultBucket] = await Promise.all([
    provisionTables(prefix),
    provisionQueues(prefix),
    provisionKey(prefix),
    provisionTaskQueues(
      prefix,
      (Object.keys(options.workflows) as WorkflowName[]).filter(
        (w) => typeof options.workflows[w] === 'function',
      ),
    ),
    provisionBucket(`${prefix}-vault-content`),
  ]);
  const machines = await provisionStateMachines(prefix, options.workflows, taskQueues);
  const environment: Record<string, string> = { KMS_KEY_ID: keyArn, [VAULT_BUCKET_ENV]: vaultBucket };
  for (const name of TABLE_NAMES) environment[TABLE_DEFINITIONS[name].envVar] = tables[name];
  for (const name of QUEUE_NAMES) {
    environment[QUEUE_URL_ENV[name]] = queues[name].url;
    environment[DLQ_URL_ENV[name]] = queues[name].deadLetterUrl;
  }
  for (const [workflow, arn] of Object.entries(machines)) {
    environment[WORKFLOW_ARN_ENV[workflow as WorkflowName]] = arn;
  }
  return { environment, queues, taskQueues };
}

const errorName = (error: unknown) => (error as { name?: string }).name ?? '';

async function dynamoClient(): Promise<DynamoDBClient> {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  return new DynamoDBClient({});
}

/** Key schema, indexes (projecting everything) and TTL as lib/data.ts deploys them, on demand. */
export async function provisionTables(prefix: string): Promise<Record<TableName, string>> {
  const client = await dynamoClient();
  const names = await Promise.all(
    TABLE_NAMES.map(async (name) => {
      const tableName = `${prefix}-${name}`;
      await ensureTable(client, tableName, name);
      return [name, tableName] as const;
    }),
  );
  return Object.fromEntries(names) as Record<TableName, string>;
}

async function ensureTable(client: DynamoDBClient, tableName: string, name: TableName): Promise<void> {
  const sdk = await import('@aws-sdk/client-dynamodb');
  const definition = TABLE_DEFINITIONS[name];
  const indexAttributes = definition.indexes.flatMap((i) => [INDEX_KEYS[i].pk, INDEX_KEYS[i].sk]);
  try {
    await client.send(
      new sdk.CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        AttributeDefinitions: ['pk', 'sk', ...indexAttributes].map((AttributeName) => ({
          AttributeName,
          AttributeType: 'S',
        })),
        ...(definition.indexes.length
          ? {
              GlobalSecondaryIndexes: definition.indexes.map((index) => ({
                IndexName: index,
                KeySchema: [
                  { AttributeName: INDEX_KEYS[index].pk, KeyType: 'HASH' },
                  { AttributeName: INDEX_KEYS[index].sk, KeyType: 'RANGE' },
                ],
                Projection: { ProjectionType: 'ALL' },
              })),
            }
          : {}),
      }),
    );
  } catch (error) {
    if (!(error instanceof sdk.ResourceInUseException)) throw error;
  }
  await sdk.waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName: tableName });
  const ttl = await client.send(new sdk.DescribeTimeToLiveCommand({ TableName: tableName }));
  if (ttl.TimeToLiveDescription?.TimeToLiveStatus !== 'ENABLED') {
    await client.send(
      new sdk.UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: definition.ttlAttribute, Enabled: true },
      }),
    );
  }
}

/** Creates the queue, or brings an existing one's attributes in line; answers its URL. */
async function ensureQueue(client: SQSClient, name: string, attributes: Record<string, string>) {
  const sdk = await import('@aws-sdk/client-sqs');
  try {
    const out = await client.send(new sdk.CreateQueueCommand({ QueueName: name, Attributes: attributes }));
    return out.QueueUrl!;
  } catch (error) {
    // Same name, other attributes (a table entry changed since the queue was made).
    if (!['QueueNameExists', 'QueueAlreadyExists'].includes(errorName(error))) throw error;
    const { QueueUrl } = await client.send(new sdk.GetQueueUrlCommand({ QueueName: name }));
    await client.send(new sdk.SetQueueAttributesCommand({ QueueUrl, Attributes: attributes }));
    return QueueUrl!;
  }
}

async function queueArn(client: SQSClient, url: string): Promise<string> {
  const { GetQueueAttributesCommand } = await import('@aws-sdk/client-sqs');
  const out = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }),
  );
  return out.Attributes!.QueueArn!;
}

/** As lib/messaging.ts: SQS-managed encryption, the table's visibility, retention and redrive. */
async function provisionQueues(prefix: string): Promise<Record<QueueName, ProvisionedQueue>> {
  const client = await sqs();
  const entries = await Promise.all(
    QUEUE_NAMES.map(async (name) => {
      const worker = QUEUE_WORKERS[name];
      const deadLetterUrl = await ensureQueue(client, `${prefix}-${name}-dlq`, {
        SqsManagedSseEnabled: 'true',
        MessageRetentionPeriod: String(DEAD_LETTER_RETENTION_DAYS * DAY_SECONDS),
      });
      const url = await ensureQueue(client, `${prefix}-${name}`, {
        SqsManagedSseEnabled: 'true',
        VisibilityTimeout: String(worker.visibilityTimeoutSeconds),
        MessageRetentionPeriod: String(worker.retentionDays * DAY_SECONDS),
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: await queueArn(client, deadLetterUrl),
          maxReceiveCount: worker.maxReceiveCount,
        }),
      });
      return [name, { url, arn: await queueArn(client, url), deadLetterUrl }] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<QueueName, ProvisionedQueue>;
}

/**
 * The queue a workflow's callback tasks are sent to: the emulator's stand-in for invoking the task
 * Lambdas. Its visibility timeout follows the queue workers' rule (six times the longest task).
 */
async function provisionTaskQueues(
  prefix: string,
  workflows: WorkflowName[],
): Promise<Partial<Record<WorkflowName, string>>> {
  if (!workflows.length) return {};
  const client = await sqs();
  const entries = await Promise.all(
    workflows.map(async (workflow) => {
      const longest = Math.max(
        ...WORKFLOW_TASKS.filter((t) => t.workflow === workflow).map((t) => t.timeoutSeconds),
      );
      const url = await ensureQueue(client, `${prefix}-${workflow}-tasks`, {
        SqsManagedSseEnabled: 'true',
        VisibilityTimeout: String(longest * 6),
      });
      return [workflow, url] as const;
    }),
  );
  return Object.fromEntries(entries) as Partial<Record<WorkflowName, string>>;
}

/** The vault stand-in's content bucket (as lib/data.ts makes it); an existing one is kept. */
async function provisionBucket(name: string): Promise<string> {
  const [client, sdk] = await Promise.all([s3(), import('@aws-sdk/client-s3')]);
  try {
    await client.send(new sdk.CreateBucketCommand({ Bucket: name }));
  } catch (error) {
    if (!['BucketAlreadyOwnedByYou', 'BucketAlreadyExists'].includes(errorName(error))) throw error;
  }
  await client.send(
    new sdk.PutPublicAccessBlockCommand({
      Bucket: name,
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        IgnorePublicAcls: true,
        BlockPublicPolicy: true,
        RestrictPublicBuckets: true,
      },
    }),
  );
  return name;
}

/** The envelope key, found again by its alias on a restart. */
async function provisionKey(prefix: string): Promise<string> {
  const client = await kms();
  const sdk = await import('@aws-sdk/client-kms');
  const alias = `alias/${prefix}-envelope`;
  try {
    const found = await client.send(new sdk.DescribeKeyCommand({ KeyId: alias }));
    if (found.KeyMetadata?.KeyState === 'Enabled') return found.KeyMetadata.Arn!;
  } catch (error) {
    if (!(error instanceof sdk.NotFoundException)) throw error;
  }
  const created = await client.send(
    new sdk.CreateKeyCommand({
      Description: 'Wraps the data keys of provider tokens, PKCE verifiers and webhook signing secrets',
    }),
  );
  const keyId = created.KeyMetadata!.KeyId!;
  await client.send(new sdk.DeleteAliasCommand({ AliasName: alias })).catch(() => undefined);
  await client.send(new sdk.CreateAliasCommand({ AliasName: alias, TargetKeyId: keyId }));
  return created.KeyMetadata!.Arn!;
}

/** Creates each state machine, or updates the definition of the one that exists under its name. */
async function provisionStateMachines(
  prefix: string,
  workflows: ProvisionOptions['workflows'],
  taskQueues: Partial<Record<WorkflowName, string>>,
): Promise<Partial<Record<WorkflowName, string>>> {
  const client = await sfn();
  const sdk = await import('@aws-sdk/client-sfn');
  const existing = new Map<string, string>();
  let nextToken: string | undefined;
  do {
    const page = await client.send(new sdk.ListStateMachinesCommand({ nextToken }));
    for (const m of page.stateMachines ?? []) existing.set(m.name!, m.stateMachineArn!);
    nextToken = page.nextToken;
  } while (nextToken);
  const arns: Partial<Record<WorkflowName, string>> = {};
  for (const workflow of Object.keys(workflows) as WorkflowName[]) {
    const name = `${prefix}-${workflow}`;
    const given = workflows[workflow];
    const definition = JSON.stringify(typeof given === 'function' ? given(taskQueues[workflow]!) : given);
    const found = existing.get(name);
    if (found) {
      await client.send(new sdk.UpdateStateMachineCommand({ stateMachineArn: found, definition }));
      arns[workflow] = found;
    } else {
      const created = await client.send(
        new sdk.CreateStateMachineCommand({
          name,
          definition,
          type: 'STANDARD',
          // Emulators do not check the role; the stack's own role is made by CDK.
          roleArn: `arn:aws:iam::000000000000:role/${name}`,
        }),
      );
      arns[workflow] = created.stateMachineArn!;
    }
  }
  return arns;
}

/**
 * Secret settings (the provider client secrets, the state signing key) as the stack deploys them: each
 * a Secrets Manager secret `<prefix>-<NAME>`, created or given the new value; answers the environment
 * that names them (NAME_ARN), which the functions read at run time with GetSecretValue.
 */
export async function provisionSecrets(
  prefix: string,
  values: Record<string, string>,
): Promise<Record<string, string>> {
  const client = await secretsManager();
  const sdk = await import('@aws-sdk/client-secrets-manager');
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    const secretName = `${prefix}-${name}`;
    let arn: string;
    try {
      arn = (await client.send(new sdk.CreateSecretCommand({ Name: secretName, SecretString: value }))).ARN!;
    } catch (error) {
      if (!(error instanceof sdk.ResourceExistsException)) throw error;
      arn = (await client.send(new sdk.PutSecretValueCommand({ SecretId: secretName, SecretString: value })))
        .ARN!;
    }
    environment[secretArnEnv(name)] = arn;
  }
  return environment;
}

/**
 * What the stack's name of a resource (table:platform, queue:events, dlq:events, key:envelope,
 * bucket:vault-content, workflow:purge, secret:NAME) stands for at the emulator: the value a Ref or
 * Fn::GetAtt Arn of it gives in a deployment (name, queue URL, ARN). `secrets`: provisionSecrets'
 * answer. Undefined for a resource the runtime did not provision.
 */
export function resourceValues(
  provisioned: ProvisionedStack,
  secrets: Record<string, string>,
): (resource: string) => string | undefined {
  return (resource) => {
    const [kind, name = ''] = resource.split(':', 2) as [string, string];
    const env = provisioned.environment;
    switch (kind) {
      case 'table':
        return (TABLE_NAMES as readonly string[]).includes(name)
          ? env[TABLE_DEFINITIONS[name as TableName].envVar]
          : undefined;
      case 'queue':
        return provisioned.queues[name as QueueName]?.url;
      case 'dlq':
        return provisioned.queues[name as QueueName]?.deadLetterUrl;
      case 'key':
        return name === 'envelope' ? env.KMS_KEY_ID : undefined;
      case 'bucket':
        return name === 'vault-content' ? env[VAULT_BUCKET_ENV] : undefined;
      case 'workflow':
        return env[WORKFLOW_ARN_ENV[name as WorkflowName] ?? ''];
      case 'secret':
        return secrets[secretArnEnv(name)];
      default:
        return undefined;
    }
  };
}
