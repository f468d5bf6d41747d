// Creates the stack's resources at an emulator endpoint (moto server and DynamoDB Local, or LocalStack)
// from the synthesized template (lib/emulated-functions.ts's resourceSpecs): every table, queue, key,
// bucket and state machine it declares, each with the properties the emulators support (the rest are
// named in `skipped`), references between them resolved to what was provisioned (a queue's redrive to
// its DLQ's ARN, a bucket's log destination, a state machine's task functions). So a change in lib/ (an
// index, a visibility timeout, a maxReceiveCount, a new queue) changes what the runtime runs on, as a
// deployment of the template would. The state machine goes to the Step Functions endpoint the SDK is
// given: the runtime's own (./step-functions-endpoint.ts) or the emulator's.
//
// Idempotent: a resource that exists is reused and brought in line (a table's indexes and TTL, a queue's
// attributes, the key's policy, a bucket's configuration, a state machine's definition), so a restart
// against emulators that kept running keeps their data. Never pointed at a real account: the emulated
// runtime calls it only when AWS_ENDPOINT_URL names an endpoint.
import type {
  AttributeDefinition,
  CreateTableCommandInput,
  DynamoDBClient,
  GlobalSecondaryIndex,
  StreamViewType,
} from '@aws-sdk/client-dynamodb';
import type { TableName, WorkflowName } from '../../platform/ports';
import {
  DLQ_URL_ENV,
  INDEX_KEYS,
  QUEUE_URL_ENV,
  TABLE_DEFINITIONS,
  TABLE_NAMES,
  VAULT_BUCKET_ENV,
  WORKFLOW_ARN_ENV,
} from '../../platform/tables';
import { QUEUE_NAMES } from '../../platform/workers';
import { kms, s3, secretsManager, sfn, sqs } from '../../compose/aws';
import { getOptionalStringFromEnv, secretArnEnv } from '../../platform/config';
import type { ProvisionedType, ResourceSpec, ResourceValue } from './application';

export interface ProvisionOptions {
  /** Prefixes every physical name, so several runtimes can share one emulator. */
  prefix: string;
  /** The template's resources (resourceSpecs). */
  resources: ResourceSpec[];
}

/** A resource as provisioned: what a Ref and an Fn::GetAtt Arn of it give at the emulator. */
export interface ProvisionedResource {
  spec: ResourceSpec;
  /** Ref: a table's or bucket's name, a queue's URL, a key's id, a state machine's ARN. */
  ref: string;
  arn: string;
}

export interface ProvisionedStack {
  /** What the runtime's own aws adapters read: table names, queue and DLQ URLs, the key, state machine ARNs. */
  environment: Record<string, string>;
  /** Every resource, by the stack's name of it (table:platform, queue:events, dlq:events, ...). */
  resources: Record<string, ProvisionedResource>;
  /** The template's properties the emulators do not take, per resource: `<name>: <property>, ...`. */
  skipped: string[];
  /** What was made again because it could not be brought in line (a table whose indexes changed). */
  replaced: string[];
}

const errorName = (error: unknown) => (error as { name?: string }).name ?? '';

/** An emulated ARN's account: moto's and the runtime's Step Functions endpoint's. */
const ACCOUNT = '000000000000';
const region = () =>
  getOptionalStringFromEnv('AWS_REGION') ?? getOptionalStringFromEnv('AWS_DEFAULT_REGION') ?? 'us-east-1';

/** The physical name of a resource at the emulator: `<prefix>-<name>`, a DLQ's `<prefix>-<queue>-dlq`. */
export function physicalName(prefix: string, name: string): string {
  const [kind, rest = ''] = name.split(':', 2) as [string, string];
  return kind === 'dlq' ? `${prefix}-${rest}-dlq` : `${prefix}-${rest}`;
}

/** The names a value refers to (`{ ref }`, `{ arn }`), functions' aside. */
function referencesOf(value: ResourceValue | undefined): string[] {
  if (value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap(referencesOf);
  if ('ref' in value && typeof value.ref === 'string') return [value.ref];
  if ('arn' in value && typeof value.arn === 'string')
    return value.arn.startsWith('function:') ? [] : [value.arn];
  return Object.values(value).flatMap(referencesOf);
}

/** A template value resolved to the provisioned resources; an unresolved one is refused by name. */
export function resolveValue(
  value: ResourceValue,
  resources: Record<string, ProvisionedResource>,
  where: string,
): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => resolveValue(v, resources, where));
  const found = (name: string) => {
    const resource = resources[name];
    if (!resource) throw new Error(`${where} refers to ${name}, which the runtime did not provision`);
    return resource;
  };
  if ('ref' in value && typeof value.ref === 'string') return found(value.ref).ref;
  if ('arn' in value && typeof value.arn === 'string') {
    if (value.arn.startsWith('function:')) {
      return `arn:aws:lambda:${region()}:${ACCOUNT}:${value.arn}`;
    }
    return found(value.arn).arn;
  }
  if ('parts' in value && Array.isArray(value.parts)) {
    return value.parts.map((part) => String(resolveValue(part, resources, where))).join('');
  }
  if ('unresolved' in value && typeof value.unresolved === 'string') {
    throw new Error(`${where}: the runtime cannot resolve ${value.unresolved}`);
  }
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, resolveValue(v as ResourceValue, resources, `${where}.${k}`)]),
  );
}

type Provisioner = (
  physical: string,
  value: (property: string) => unknown,
) => Promise<{ ref: string; arn: string; replaced?: string }>;

/**
 * The properties each type applies at the emulators; any other property of the template is reported
 * as skipped (see docs/decisions.md, "Resources from the template on the emulated runtime").
 */
export const APPLIED_PROPERTIES: Record<ProvisionedType, string[]> = {
  'AWS::DynamoDB::GlobalTable': [
    'AttributeDefinitions',
    'KeySchema',
    'GlobalSecondaryIndexes',
    'LocalSecondaryIndexes',
    'BillingMode',
    'StreamSpecification',
    'TimeToLiveSpecification',
    'TableName',
  ],
  'AWS::DynamoDB::Table': [
    'AttributeDefinitions',
    'KeySchema',
    'GlobalSecondaryIndexes',
    'LocalSecondaryIndexes',
    'BillingMode',
    'ProvisionedThroughput',
    'StreamSpecification',
    'TimeToLiveSpecification',
    'TableName',
  ],
  'AWS::SQS::Queue': [
    'QueueName',
    'FifoQueue',
    'ContentBasedDeduplication',
    'DeduplicationScope',
    'FifoThroughputLimit',
    'VisibilityTimeout',
    'MessageRetentionPeriod',
    'DelaySeconds',
    'MaximumMessageSize',
    'ReceiveMessageWaitTimeSeconds',
    'RedrivePolicy',
    'RedriveAllowPolicy',
    'SqsManagedSseEnabled',
    'KmsMasterKeyId',
    'KmsDataKeyReusePeriodSeconds',
  ],
  'AWS::KMS::Key': ['Description', 'KeyPolicy', 'KeySpec', 'KeyUsage', 'EnableKeyRotation'],
  'AWS::S3::Bucket': [
    'BucketName',
    'PublicAccessBlockConfiguration',
    'VersioningConfiguration',
    'BucketEncryption',
    'LifecycleConfiguration',
    'OwnershipControls',
    'AccessControl',
    'LoggingConfiguration',
  ],
  'AWS::StepFunctions::StateMachine': ['DefinitionString', 'StateMachineType', 'StateMachineName'],
};

export async function provisionStack(options: ProvisionOptions): Promise<ProvisionedStack> {
  const { prefix } = options;
  const specs = new Map(options.resources.map((spec) => [spec.name, spec]));
  const done: Record<string, ProvisionedResource> = {};
  const replaced: string[] = [];
  const pending = new Map<string, Promise<void>>();
  let machines: Promise<Map<string, string>> | undefined;
  const provisioner = provisioners(() => (machines ??= listStateMachines()));
  const provision = (spec: ResourceSpec): Promise<void> => {
    let promise = pending.get(spec.name);
    if (!promise) {
      promise = (async () => {
        const applied = APPLIED_PROPERTIES[spec.type];
        const dependencies = new Set(
          [...applied.flatMap((p) => referencesOf(spec.properties[p])), ...referencesOf(spec.policy)].filter(
            (n) => n !== spec.name,
          ),
        );
        for (const name of dependencies) {
          const dependency = specs.get(name);
          if (!dependency)
            throw new Error(`${spec.name} refers to ${name}, which the template does not declare`);
          await provision(dependency);
        }
        const value = (property: string) =>
          spec.properties[property] === undefined
            ? undefined
            : resolveValue(spec.properties[property]!, done, `${spec.name}.${property}`);
        const made = await provisioner[spec.type](physicalName(prefix, spec.name), value);
        done[spec.name] = { spec, ref: made.ref, arn: made.arn };
        if (made.replaced) replaced.push(made.replaced);
        // A queue's policy names the queue itself: set once its ARN is known.
        if (spec.policy !== undefined) {
          await setQueuePolicy(made.ref, resolveValue(spec.policy, done, `${spec.name} policy`));
        }
      })();
      pending.set(spec.name, promise);
    }
    return promise;
  };
  await Promise.all([...specs.values()].map(provision));
  const skipped = options.resources.flatMap((spec) => {
    const unapplied = Object.keys(spec.properties).filter((p) => !APPLIED_PROPERTIES[spec.type].includes(p));
    return unapplied.length ? [`${spec.name}: ${unapplied.join(', ')}`] : [];
  });
  return { environment: runtimeEnvironment(done), resources: done, skipped, replaced };
}

/**
 * What the runtime's own aws adapters read (bootstrap, the development hooks), by the stack's names:
 * each table, queue and DLQ, the envelope key, the vault bucket, each state machine. A template
 * without one of them is refused by name: the service could not run on it.
 */
function runtimeEnvironment(resources: Record<string, ProvisionedResource>): Record<string, string> {
  const wanted: [string, string, 'ref' | 'arn'][] = [
    ...TABLE_NAMES.map((t): [string, string, 'ref'] => [`table:${t}`, TABLE_DEFINITIONS[t].envVar, 'ref']),
    ...QUEUE_NAMES.flatMap((q): [string, string, 'ref'][] => [
      [`queue:${q}`, QUEUE_URL_ENV[q], 'ref'],
      [`dlq:${q}`, DLQ_URL_ENV[q], 'ref'],
    ]),
    ['key:envelope', 'KMS_KEY_ID', 'arn'],
    ['bucket:vault-content', VAULT_BUCKET_ENV, 'ref'],
    ...(Object.keys(WORKFLOW_ARN_ENV) as WorkflowName[]).map((w): [string, string, 'ref'] => [
      `workflow:${w}`,
      WORKFLOW_ARN_ENV[w],
      'ref',
    ]),
  ];
  const missing = wanted.filter(([name]) => !resources[name]).map(([name]) => name);
  if (missing.length)
    throw new Error(`The template declares no ${missing.join(', ')}, which the service reads`);
  return Object.fromEntries(wanted.map(([name, variable, what]) => [variable, resources[name]![what]]));
}

/** How each type is made; a state machine is found again by its name among those listed once. */
const provisioners = (
  machines: () => Promise<Map<string, string>>,
): Record<ProvisionedType, Provisioner> => ({
  'AWS::DynamoDB::GlobalTable': (physical, value) => ensureTable(physical, value),
  'AWS::DynamoDB::Table': (physical, value) => ensureTable(physical, value),
  'AWS::SQS::Queue': (physical, value) => ensureQueue(physical, value),
  'AWS::KMS::Key': (physical, value) => ensureKey(physical, value),
  'AWS::S3::Bucket': (physical, value) => ensureBucket(physical, value),
  'AWS::StepFunctions::StateMachine': async (physical, value) =>
    ensureStateMachine(physical, value, await machines()),
});

async function dynamoClient(): Promise<DynamoDBClient> {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  return new DynamoDBClient({});
}

type Index = { IndexName: string; KeySchema: unknown; Projection: unknown };

/** An index's key schema and projection, to compare the template's with the table's. */
const indexShape = (index: {
  IndexName?: string;
  KeySchema?: unknown;
  Projection?: { ProjectionType?: string; NonKeyAttributes?: string[] };
}) =>
  JSON.stringify({
    name: index.IndexName,
    keys: index.KeySchema,
    projection: index.Projection?.ProjectionType ?? 'ALL',
    nonKey: [...(index.Projection?.NonKeyAttributes ?? [])].sort(),
  });
const indexesShape = (indexes: Parameters<typeof indexShape>[0][] | undefined) =>
  (indexes ?? []).map(indexShape).sort().join('\n');

/**
 * A table as the template declares it (on demand unless it says otherwise): key schema, attribute
 * definitions, global and local secondary indexes with their projections, the stream and TTL. An
 * existing table whose key schema or indexes differ from the template's is made again, empty (its
 * `replaced` says why): DynamoDB Local leaves an index added by UpdateTable CREATING for good (and
 * refuses a sixth), so an index cannot be changed in place there, where a deployment would backfill it.
 */
async function ensureTable(
  tableName: string,
  value: (property: string) => unknown,
): Promise<{ ref: string; arn: string; replaced?: string }> {
  const sdk = await import('@aws-sdk/client-dynamodb');
  const client = await dynamoClient();
  const keySchema = value('KeySchema') as CreateTableCommandInput['KeySchema'];
  const indexes = (value('GlobalSecondaryIndexes') as Index[] | undefined) ?? [];
  const localIndexes = value('LocalSecondaryIndexes') as CreateTableCommandInput['LocalSecondaryIndexes'];
  const onDemand = ((value('BillingMode') as string | undefined) ?? 'PROVISIONED') === 'PAY_PER_REQUEST';
  const capacity = onDemand
    ? {}
    : {
        ProvisionedThroughput: (value(
          'ProvisionedThroughput',
        ) as CreateTableCommandInput['ProvisionedThroughput']) ?? {
          ReadCapacityUnits: 5,
          WriteCapacityUnits: 5,
        },
      };
  const stream = value('StreamSpecification') as { StreamViewType?: string } | undefined;
  const create = () =>
    client.send(
      new sdk.CreateTableCommand({
        TableName: tableName,
        BillingMode: onDemand ? 'PAY_PER_REQUEST' : 'PROVISIONED',
        ...capacity,
        KeySchema: keySchema,
        AttributeDefinitions: value('AttributeDefinitions') as AttributeDefinition[],
        ...(indexes.length
          ? {
              GlobalSecondaryIndexes: indexes.map(
                (index) =>
                  ({
                    IndexName: index.IndexName,
                    KeySchema: index.KeySchema,
                    Projection: index.Projection,
                    ...capacity,
                  }) as GlobalSecondaryIndex,
              ),
            }
          : {}),
        ...(localIndexes ? { LocalSecondaryIndexes: localIndexes } : {}),
        ...(stream?.StreamViewType
          ? {
              StreamSpecification: {
                StreamEnabled: true,
                StreamViewType: stream.StreamViewType as StreamViewType,
              },
            }
          : {}),
      }),
    );
  let replaced: string | undefined;
  try {
    await create();
  } catch (error) {
    if (!(error instanceof sdk.ResourceInUseException)) throw error;
    const { Table } = await client.send(new sdk.DescribeTableCommand({ TableName: tableName }));
    const differs =
      JSON.stringify(Table?.KeySchema) !== JSON.stringify(keySchema)
        ? 'key schema'
        : indexesShape(Table?.GlobalSecondaryIndexes as never) !== indexesShape(indexes as never)
          ? 'global secondary indexes'
          : indexesShape(Table?.LocalSecondaryIndexes as never) !== indexesShape(localIndexes as never)
            ? 'local secondary indexes'
            : undefined;
    if (differs) {
      await client.send(new sdk.DeleteTableCommand({ TableName: tableName }));
      await sdk.waitUntilTableNotExists({ client, maxWaitTime: 60 }, { TableName: tableName });
      await create();
      replaced = `${tableName} made again, empty: its ${differs} differed from the template's`;
    }
  }
  await sdk.waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName: tableName });
  const ttl = value('TimeToLiveSpecification') as { AttributeName?: string; Enabled?: boolean } | undefined;
  if (ttl?.Enabled && ttl.AttributeName) {
    const status = await client.send(new sdk.DescribeTimeToLiveCommand({ TableName: tableName }));
    if (status.TimeToLiveDescription?.TimeToLiveStatus !== 'ENABLED') {
      await client.send(
        new sdk.UpdateTimeToLiveCommand({
          TableName: tableName,
          TimeToLiveSpecification: { AttributeName: ttl.AttributeName, Enabled: true },
        }),
      );
    }
  }
  const { Table } = await client.send(new sdk.DescribeTableCommand({ TableName: tableName }));
  return {
    ref: tableName,
    arn: Table?.TableArn ?? `arn:aws:dynamodb:${region()}:${ACCOUNT}:table/${tableName}`,
    ...(replaced ? { replaced } : {}),
  };
}

/** SQS's defaults, set on an existing queue whose template no longer sets them. */
const QUEUE_DEFAULTS: Record<string, string> = {
  VisibilityTimeout: '30',
  MessageRetentionPeriod: String(4 * 24 * 3600),
  DelaySeconds: '0',
  ReceiveMessageWaitTimeSeconds: '0',
};
/** Attributes SQS takes at creation only. */
const CREATE_ONLY = new Set(['FifoQueue']);

/**
 * A queue with the template's attributes (a redrive policy with its DLQ's ARN); an existing one is
 * given them, SQS's defaults for those the template no longer sets.
 */
async function ensureQueue(
  name: string,
  value: (property: string) => unknown,
): Promise<{ ref: string; arn: string }> {
  const sdk = await import('@aws-sdk/client-sqs');
  const client = await sqs();
  const attributes: Record<string, string> = {};
  for (const property of APPLIED_PROPERTIES['AWS::SQS::Queue']) {
    const v = value(property);
    if (v === undefined || property === 'QueueName') continue;
    attributes[property] = typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
  const queueName = attributes.FifoQueue === 'true' && !name.endsWith('.fifo') ? `${name}.fifo` : name;
  let url: string;
  try {
    url = (await client.send(new sdk.CreateQueueCommand({ QueueName: queueName, Attributes: attributes })))
      .QueueUrl!;
  } catch (error) {
    // Same name, other attributes (the template changed since the queue was made).
    if (!['QueueNameExists', 'QueueAlreadyExists'].includes(errorName(error))) throw error;
    url = (await client.send(new sdk.GetQueueUrlCommand({ QueueName: queueName }))).QueueUrl!;
    const settable = Object.fromEntries(
      Object.entries({ ...QUEUE_DEFAULTS, ...attributes }).filter(([k]) => !CREATE_ONLY.has(k)),
    );
    await client.send(new sdk.SetQueueAttributesCommand({ QueueUrl: url, Attributes: settable }));
  }
  const out = await client.send(
    new sdk.GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }),
  );
  return { ref: url, arn: out.Attributes!.QueueArn! };
}

async function setQueuePolicy(url: string, policy: unknown): Promise<void> {
  const sdk = await import('@aws-sdk/client-sqs');
  const client = await sqs();
  await client.send(
    new sdk.SetQueueAttributesCommand({ QueueUrl: url, Attributes: { Policy: JSON.stringify(policy) } }),
  );
}

type LifecycleRule = {
  Id?: string;
  Status: string;
  Prefix?: string;
  ExpirationInDays?: number;
  ExpiredObjectDeleteMarker?: boolean;
  AbortIncompleteMultipartUpload?: { DaysAfterInitiation: number };
  NoncurrentVersionExpiration?: { NoncurrentDays: number; NewerNoncurrentVersions?: number };
  NoncurrentVersionExpirationInDays?: number;
};

/** A lifecycle rule of the template (CloudFormation's shape) in S3's API shape. */
function lifecycleRule(rule: LifecycleRule, index: number) {
  const noncurrent =
    rule.NoncurrentVersionExpiration ??
    (rule.NoncurrentVersionExpirationInDays !== undefined
      ? { NoncurrentDays: rule.NoncurrentVersionExpirationInDays }
      : undefined);
  return {
    ID: rule.Id ?? `rule-${index}`,
    Status: rule.Status as 'Enabled',
    Filter: { Prefix: rule.Prefix ?? '' },
    ...(rule.ExpirationInDays !== undefined
      ? { Expiration: { Days: rule.ExpirationInDays } }
      : rule.ExpiredObjectDeleteMarker !== undefined
        ? { Expiration: { ExpiredObjectDeleteMarker: rule.ExpiredObjectDeleteMarker } }
        : {}),
    ...(rule.AbortIncompleteMultipartUpload
      ? { AbortIncompleteMultipartUpload: rule.AbortIncompleteMultipartUpload }
      : {}),
    ...(noncurrent ? { NoncurrentVersionExpiration: noncurrent } : {}),
  };
}

/** CloudFormation's canned ACL names, S3's. */
const CANNED_ACL: Record<string, string> = {
  Private: 'private',
  PublicRead: 'public-read',
  PublicReadWrite: 'public-read-write',
  AuthenticatedRead: 'authenticated-read',
  LogDeliveryWrite: 'log-delivery-write',
  BucketOwnerRead: 'bucket-owner-read',
  BucketOwnerFullControl: 'bucket-owner-full-control',
  AwsExecRead: 'aws-exec-read',
};

/**
 * A bucket with the template's public access block, versioning, default encryption, lifecycle rules,
 * object ownership, canned ACL and access logging (to its log bucket, provisioned first).
 */
async function ensureBucket(
  name: string,
  value: (property: string) => unknown,
): Promise<{ ref: string; arn: string }> {
  const [client, sdk] = await Promise.all([s3(), import('@aws-sdk/client-s3')]);
  try {
    await client.send(new sdk.CreateBucketCommand({ Bucket: name }));
  } catch (error) {
    if (!['BucketAlreadyOwnedByYou', 'BucketAlreadyExists'].includes(errorName(error))) throw error;
  }
  // Each configuration of the template as its S3 call, in this order (an ACL needs the ownership that
  // allows ACLs; logging needs its destination's ACL, set when that bucket was made).
  const configurations: [string, (v: never) => Parameters<typeof client.send>[0]][] = [
    [
      'PublicAccessBlockConfiguration',
      (v) =>
        new sdk.PutPublicAccessBlockCommand({ Bucket: name, PublicAccessBlockConfiguration: v }) as never,
    ],
    [
      'OwnershipControls',
      (v) => new sdk.PutBucketOwnershipControlsCommand({ Bucket: name, OwnershipControls: v }) as never,
    ],
    [
      'AccessControl',
      (v) => new sdk.PutBucketAclCommand({ Bucket: name, ACL: CANNED_ACL[v] as never }) as never,
    ],
    [
      'VersioningConfiguration',
      (v) => new sdk.PutBucketVersioningCommand({ Bucket: name, VersioningConfiguration: v }) as never,
    ],
    [
      'BucketEncryption',
      (v: {
        ServerSideEncryptionConfiguration: {
          ServerSideEncryptionByDefault?: unknown;
          BucketKeyEnabled?: boolean;
        }[];
      }) =>
        new sdk.PutBucketEncryptionCommand({
          Bucket: name,
          // CloudFormation's ServerSideEncryptionByDefault is the API's ApplyServerSideEncryptionByDefault.
          ServerSideEncryptionConfiguration: {
            Rules: v.ServerSideEncryptionConfiguration.map((rule) => ({
              ApplyServerSideEncryptionByDefault: rule.ServerSideEncryptionByDefault as never,
              ...(rule.BucketKeyEnabled !== undefined ? { BucketKeyEnabled: rule.BucketKeyEnabled } : {}),
            })),
          },
        }) as never,
    ],
    [
      'LifecycleConfiguration',
      (v: { Rules: LifecycleRule[] }) =>
        new sdk.PutBucketLifecycleConfigurationCommand({
          Bucket: name,
          LifecycleConfiguration: { Rules: v.Rules.map(lifecycleRule) as never },
        }) as never,
    ],
    [
      'LoggingConfiguration',
      (v: { DestinationBucketName: string; LogFilePrefix?: string }) =>
        new sdk.PutBucketLoggingCommand({
          Bucket: name,
          BucketLoggingStatus: {
            LoggingEnabled: { TargetBucket: v.DestinationBucketName, TargetPrefix: v.LogFilePrefix ?? '' },
          },
        }) as never,
    ],
  ];
  for (const [property, command] of configurations) {
    const v = value(property);
    if (v === undefined) continue;
    try {
      await client.send(command(v as never));
    } catch (error) {
      throw new Error(`${name}: ${property}: ${errorName(error)}: ${(error as Error).message}`);
    }
  }
  return { ref: name, arn: `arn:aws:s3:::${name}` };
}

/**
 * The key, found again by its alias (`alias/<physical name>`) on a restart: given the template's key
 * policy (PutKeyPolicy on one that exists) and rotation.
 */
async function ensureKey(
  physical: string,
  value: (property: string) => unknown,
): Promise<{ ref: string; arn: string }> {
  const client = await kms();
  const sdk = await import('@aws-sdk/client-kms');
  const alias = `alias/${physical}`;
  const policy = value('KeyPolicy') === undefined ? undefined : JSON.stringify(value('KeyPolicy'));
  let metadata: { KeyId?: string; Arn?: string } | undefined;
  try {
    const found = await client.send(new sdk.DescribeKeyCommand({ KeyId: alias }));
    if (found.KeyMetadata?.KeyState === 'Enabled') metadata = found.KeyMetadata;
  } catch (error) {
    if (!(error instanceof sdk.NotFoundException)) throw error;
  }
  if (metadata) {
    if (policy)
      await client.send(
        new sdk.PutKeyPolicyCommand({ KeyId: metadata.KeyId, PolicyName: 'default', Policy: policy }),
      );
  } else {
    const created = await client.send(
      new sdk.CreateKeyCommand({
        Description: value('Description') as string | undefined,
        ...(policy ? { Policy: policy } : {}),
        ...(value('KeySpec') ? { KeySpec: value('KeySpec') as never } : {}),
        ...(value('KeyUsage') ? { KeyUsage: value('KeyUsage') as never } : {}),
      }),
    );
    metadata = created.KeyMetadata!;
    await client.send(new sdk.DeleteAliasCommand({ AliasName: alias })).catch(() => undefined);
    await client.send(new sdk.CreateAliasCommand({ AliasName: alias, TargetKeyId: metadata.KeyId }));
  }
  if (value('EnableKeyRotation') === true) {
    await client.send(new sdk.EnableKeyRotationCommand({ KeyId: metadata.KeyId }));
  }
  return { ref: metadata.KeyId!, arn: metadata.Arn! };
}

/** The state machines at the endpoint, by name. */
async function listStateMachines(): Promise<Map<string, string>> {
  const client = await sfn();
  const sdk = await import('@aws-sdk/client-sfn');
  const existing = new Map<string, string>();
  let nextToken: string | undefined;
  do {
    const page = await client.send(new sdk.ListStateMachinesCommand({ nextToken }));
    for (const m of page.stateMachines ?? []) existing.set(m.name!, m.stateMachineArn!);
    nextToken = page.nextToken;
  } while (nextToken);
  return existing;
}

/**
 * A state machine from the template's DefinitionString, its tasks' functions resolved to their Lambda
 * ARNs (`function:<id>`: the runtime's Step Functions endpoint invokes them through the pool). Created,
 * or the one of that name given the definition.
 */
async function ensureStateMachine(
  name: string,
  value: (property: string) => unknown,
  existing: Map<string, string>,
): Promise<{ ref: string; arn: string }> {
  const client = await sfn();
  const sdk = await import('@aws-sdk/client-sfn');
  const definition = value('DefinitionString') as string;
  const found = existing.get(name);
  if (found) {
    await client.send(new sdk.UpdateStateMachineCommand({ stateMachineArn: found, definition }));
    return { ref: found, arn: found };
  }
  const created = await client.send(
    new sdk.CreateStateMachineCommand({
      name,
      definition,
      type: ((value('StateMachineType') as string | undefined) ?? 'STANDARD') as 'STANDARD',
      // The runtime's endpoint and the emulators do not assume the role; the template's is not provisioned.
      roleArn: `arn:aws:iam::${ACCOUNT}:role/${name}`,
    }),
  );
  return { ref: created.stateMachineArn!, arn: created.stateMachineArn! };
}

/**
 * The tables of platform/tables.ts as lib/data.ts declares them (pk/sk, the indexes projecting
 * everything, TTL, on demand), for the integration tier's stores, which need tables and no template.
 */
export function tableSpecsOf(): ResourceSpec[] {
  return TABLE_NAMES.map((name) => {
    const definition = TABLE_DEFINITIONS[name];
    const indexKeys = definition.indexes.flatMap((i) => [INDEX_KEYS[i].pk, INDEX_KEYS[i].sk]);
    const key = (hash: string, range: string) => [
      { AttributeName: hash, KeyType: 'HASH' },
      { AttributeName: range, KeyType: 'RANGE' },
    ];
    return {
      type: 'AWS::DynamoDB::Table' as const,
      name: `table:${name}`,
      logicalId: name,
      properties: {
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: key('pk', 'sk'),
        AttributeDefinitions: ['pk', 'sk', ...indexKeys].map((a) => ({
          AttributeName: a,
          AttributeType: 'S',
        })),
        GlobalSecondaryIndexes: definition.indexes.map((index) => ({
          IndexName: index,
          KeySchema: key(INDEX_KEYS[index].pk, INDEX_KEYS[index].sk),
          Projection: { ProjectionType: 'ALL' },
        })),
        TimeToLiveSpecification: { AttributeName: definition.ttlAttribute, Enabled: true },
      },
    };
  });
}

/** Every table of platform/tables.ts under `prefix`, for the integration tier (tableSpecsOf). */
export async function provisionTables(prefix: string): Promise<Record<TableName, string>> {
  const made = await Promise.all(
    tableSpecsOf().map(async (spec) => {
      const physical = physicalName(prefix, spec.name);
      await ensureTable(physical, (p) => spec.properties[p]);
      return [spec.name.slice('table:'.length), physical] as const;
    }),
  );
  return Object.fromEntries(made) as Record<TableName, string>;
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
 * bucket:vault-content, workflow:purge, secret:NAME) stands for at the emulator, as a function's
 * variable takes it: its Ref (name, queue URL, state machine ARN), the key's ARN. `secrets`:
 * provisionSecrets' answer. Undefined for a resource the runtime did not provision.
 */
export function resourceValues(
  provisioned: ProvisionedStack,
  secrets: Record<string, string>,
): (resource: string) => string | undefined {
  return (resource) => {
    if (resource.startsWith('secret:')) return secrets[secretArnEnv(resource.slice('secret:'.length))];
    const found = provisioned.resources[resource];
    if (!found) return undefined;
    return found.spec.type === 'AWS::KMS::Key' ? found.arn : found.ref;
  };
}

/** A queue of the worker table as provisioned: its URL, ARN and the template's visibility timeout. */
export function provisionedQueue(
  provisioned: ProvisionedStack,
  name: string,
): { url: string; arn: string; visibilityTimeoutSeconds: number; maxReceiveCount?: number } | undefined {
  const queue = provisioned.resources[name];
  if (!queue) return undefined;
  const redrive = queue.spec.properties.RedrivePolicy as { maxReceiveCount?: number } | undefined;
  return {
    url: queue.ref,
    arn: queue.arn,
    visibilityTimeoutSeconds: Number(
      queue.spec.properties.VisibilityTimeout ?? QUEUE_DEFAULTS.VisibilityTimeout,
    ),
    ...(redrive?.maxReceiveCount !== undefined ? { maxReceiveCount: Number(redrive.maxReceiveCount) } : {}),
  };
}
