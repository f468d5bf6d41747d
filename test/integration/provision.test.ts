// Provisioning of the emulated AWS runtime (functions/dev-runtime/emulated-aws/provision.ts) on the
// emulators, from the synthesized template: every table, queue, key, bucket and state machine the
// template declares is made, each as it declares it (key schema, indexes and their projections, TTL;
// visibility, retention, redrive to the DLQ and the queue policy; the key policy and rotation; bucket
// versioning, encryption and lifecycle; the state machine's DefinitionString with its task functions'
// ARNs); a second run reuses all of it; and a template changed in lib/'s way (an index added, a
// visibility timeout, a maxReceiveCount, a new queue) changes what a run against the same emulators
// leaves there.
import { DescribeTableCommand, DescribeTimeToLiveCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeKeyCommand,
  GenerateDataKeyCommand,
  GetKeyPolicyCommand,
  GetKeyRotationStatusCommand,
  KMSClient,
} from '@aws-sdk/client-kms';
import {
  GetBucketEncryptionCommand,
  GetBucketLifecycleConfigurationCommand,
  GetBucketVersioningCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { DescribeStateMachineCommand, SFNClient } from '@aws-sdk/client-sfn';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { randomBytes } from 'node:crypto';
import type { ResourceSpec } from '../../lib/emulated-functions';
import { resourceSpecs } from '../../lib/emulated-functions';
import type { ProvisionedStack } from '../../functions/dev-runtime/emulated-aws/provision';
import { provisionStack, resolveValue } from '../../functions/dev-runtime/emulated-aws/provision';
import { PROVISIONED_TYPES } from '../../functions/dev-runtime/emulated-aws/application';
import { DynamoDbTable } from '../../functions/adapters/aws/dynamodb-table';
import { TABLE_DEFINITIONS } from '../../functions/platform/tables';
import { documentClient, requireEmulators } from '../support/emulators';
import { synthStack } from '../support/synth';

const prefix = `prov-${randomBytes(3).toString('hex')}`;
let specs: ResourceSpec[];
let declared: string[];
let stack: ProvisionedStack;

beforeAll(async () => {
  requireEmulators();
  const { stack: cdk, template } = synthStack();
  specs = resourceSpecs(cdk, template);
  const resources = template.toJSON().Resources as Record<string, { Type: string }>;
  declared = Object.keys(resources).filter((id) =>
    (PROVISIONED_TYPES as readonly string[]).includes(resources[id]!.Type),
  );
  stack = await provisionStack({ prefix, resources: specs });
}, 180_000);

const DAY = 24 * 3600;
const ofType = (...types: string[]) => specs.filter((s) => types.includes(s.type));
const queueAttributes = async (url: string) =>
  (await new SQSClient({}).send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['All'] })))
    .Attributes!;

describe('provisioning the template on the emulators', () => {
  it('provisions every resource of a supported type the template declares', () => {
    expect(declared.length).toBeGreaterThanOrEqual(18);
    expect(
      Object.values(stack.resources)
        .map((r) => r.spec.logicalId)
        .sort(),
    ).toEqual([...declared].sort());
    // The schedules' failure queue and the console's buckets, which shared code never made, among them.
    expect(Object.keys(stack.resources)).toEqual(
      expect.arrayContaining([
        'queue:schedules-failures',
        'bucket:console-assets',
        'bucket:console-access-logs',
      ]),
    );
  });

  it('names the properties the emulators do not take', () => {
    expect(stack.skipped).toEqual(
      expect.arrayContaining([
        'table:platform: Replicas, SSESpecification',
        'workflow:purge: LoggingConfiguration, RoleArn, TracingConfiguration',
      ]),
    );
  });

  it('makes each table with the key schema, indexes, projections and TTL the template declares', async () => {
    const client = new DynamoDBClient({});
    for (const spec of ofType('AWS::DynamoDB::GlobalTable')) {
      const TableName = stack.resources[spec.name]!.ref;
      const { Table } = await client.send(new DescribeTableCommand({ TableName }));
      expect(Table!.KeySchema).toEqual(spec.properties.KeySchema);
      const indexes = (Table!.GlobalSecondaryIndexes ?? [])
        .map((i) => ({ IndexName: i.IndexName, KeySchema: i.KeySchema, Projection: i.Projection }))
        .sort((a, b) => a.IndexName!.localeCompare(b.IndexName!));
      expect(indexes).toEqual(spec.properties.GlobalSecondaryIndexes ?? []);
      const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName }));
      expect(ttl.TimeToLiveDescription).toMatchObject({
        TimeToLiveStatus: 'ENABLED',
        AttributeName: (spec.properties.TimeToLiveSpecification as { AttributeName: string }).AttributeName,
      });
    }
    expect(stack.environment[TABLE_DEFINITIONS.webhooks.envVar]).toBe(`${prefix}-webhooks`);
  });

  it("makes each queue with the template's visibility, retention, redrive and policy", async () => {
    for (const spec of ofType('AWS::SQS::Queue')) {
      const queue = await queueAttributes(stack.resources[spec.name]!.ref);
      const p = spec.properties as Record<string, unknown>;
      expect(Number(queue.VisibilityTimeout)).toBe((p.VisibilityTimeout as number | undefined) ?? 30);
      expect(Number(queue.MessageRetentionPeriod)).toBe(
        (p.MessageRetentionPeriod as number | undefined) ?? 4 * DAY,
      );
      if (p.RedrivePolicy) {
        expect(JSON.parse(queue.RedrivePolicy!)).toEqual(
          resolveValue(p.RedrivePolicy as never, stack.resources, ''),
        );
        const target = (p.RedrivePolicy as { deadLetterTargetArn: { arn: string } }).deadLetterTargetArn.arn;
        expect(JSON.parse(queue.RedrivePolicy!).deadLetterTargetArn).toBe(stack.resources[target]!.arn);
      } else {
        expect(queue.RedrivePolicy).toBeUndefined();
      }
      expect(JSON.parse(queue.Policy!)).toEqual(resolveValue(spec.policy!, stack.resources, ''));
    }
    const failures = await queueAttributes(stack.resources['queue:schedules-failures']!.ref);
    expect(
      JSON.parse(failures.Policy!).Statement.map((s: { Principal: unknown }) => s.Principal),
    ).toContainEqual({
      Service: 'events.amazonaws.com',
    });
  });

  it('makes the key with its policy and rotation, and it makes data keys', async () => {
    const kms = new KMSClient({});
    const [spec] = ofType('AWS::KMS::Key');
    const KeyId = stack.environment.KMS_KEY_ID!;
    const { KeyMetadata } = await kms.send(new DescribeKeyCommand({ KeyId }));
    expect(KeyMetadata!.KeyState).toBe('Enabled');
    const { Policy } = await kms.send(new GetKeyPolicyCommand({ KeyId, PolicyName: 'default' }));
    expect(JSON.parse(Policy!)).toEqual(spec!.properties.KeyPolicy);
    expect((await kms.send(new GetKeyRotationStatusCommand({ KeyId }))).KeyRotationEnabled).toBe(true);
    const key = await kms.send(
      new GenerateDataKeyCommand({ KeyId, KeySpec: 'AES_256', EncryptionContext: { purpose: 'test' } }),
    );
    expect(key.Plaintext).toHaveLength(32);
  });

  it("makes each bucket with the template's versioning, encryption and lifecycle", async () => {
    const s3 = new S3Client({ forcePathStyle: true });
    for (const spec of ofType('AWS::S3::Bucket')) {
      const Bucket = stack.resources[spec.name]!.ref;
      const p = spec.properties as Record<string, { Status?: string; Rules?: unknown[] } | undefined>;
      const versioning = await s3.send(new GetBucketVersioningCommand({ Bucket }));
      expect(versioning.Status).toBe(p.VersioningConfiguration?.Status);
      const encryption = await s3.send(new GetBucketEncryptionCommand({ Bucket }));
      expect(
        encryption.ServerSideEncryptionConfiguration!.Rules![0]!.ApplyServerSideEncryptionByDefault,
      ).toEqual({ SSEAlgorithm: 'AES256' });
      if (p.LifecycleConfiguration) {
        const lifecycle = await s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket }));
        expect(lifecycle.Rules).toHaveLength(p.LifecycleConfiguration.Rules!.length);
      }
    }
    const vault = await s3.send(
      new GetBucketLifecycleConfigurationCommand({ Bucket: stack.resources['bucket:vault-content']!.ref }),
    );
    expect(vault.Rules!.map((r) => r.NoncurrentVersionExpiration?.NoncurrentDays)).toContain(35);
  });

  it("makes the state machine from the template's DefinitionString, its tasks the functions' ARNs", async () => {
    const [spec] = ofType('AWS::StepFunctions::StateMachine');
    const { definition } = await new SFNClient({}).send(
      new DescribeStateMachineCommand({ stateMachineArn: stack.environment.STATE_MACHINE_PURGE_ARN }),
    );
    expect(definition).toBe(resolveValue(spec!.properties.DefinitionString!, stack.resources, ''));
    expect(definition).toMatch(/"Resource":"arn:aws:lambda:[a-z0-9-]+:\d{12}:function:purgePage"/);
  });

  it('reuses everything on a second run: same names, same key, data kept', async () => {
    const table = new DynamoDbTable(stack.environment[TABLE_DEFINITIONS.platform.envVar]!, documentClient());
    await table.put({ pk: 'KEEP', sk: 'ME', value: 1 });
    const again = await provisionStack({ prefix, resources: specs });
    expect(again.environment).toEqual(stack.environment);
    expect(again.replaced).toEqual([]);
    expect(await table.get({ pk: 'KEEP', sk: 'ME' })).toMatchObject({ value: 1 });
  }, 120_000);

  it('follows a change of the template: an index (the table made again), a visibility timeout, a maxReceiveCount, a new queue', async () => {
    const edited: ResourceSpec[] = structuredClone(specs);
    const vault = edited.find((s) => s.name === 'table:vault')!.properties;
    vault.AttributeDefinitions = [
      ...(vault.AttributeDefinitions as object[]),
      { AttributeName: 'gsi9pk', AttributeType: 'S' },
    ] as never;
    vault.GlobalSecondaryIndexes = [
      {
        IndexName: 'gsi9',
        KeySchema: [{ AttributeName: 'gsi9pk', KeyType: 'HASH' }],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      },
    ];
    const events = edited.find((s) => s.name === 'queue:events')!.properties;
    events.VisibilityTimeout = 77;
    (events.RedrivePolicy as { maxReceiveCount: number }).maxReceiveCount = 9;
    const dlq = edited.find((s) => s.name === 'dlq:syncs')!;
    edited.push({
      ...dlq,
      name: 'queue:added',
      logicalId: 'AddedQueue',
      properties: { VisibilityTimeout: 12 },
    });
    const changed = await provisionStack({ prefix, resources: edited });
    expect(changed.replaced).toEqual([
      `${prefix}-vault made again, empty: its global secondary indexes differed from the template's`,
    ]);

    const { Table } = await new DynamoDBClient({}).send(
      new DescribeTableCommand({ TableName: changed.resources['table:vault']!.ref }),
    );
    expect(Table!.GlobalSecondaryIndexes!.map((i) => [i.IndexName, i.Projection!.ProjectionType])).toEqual([
      ['gsi9', 'KEYS_ONLY'],
    ]);
    const queue = await queueAttributes(changed.resources['queue:events']!.ref);
    expect(queue.VisibilityTimeout).toBe('77');
    expect(JSON.parse(queue.RedrivePolicy!).maxReceiveCount).toBe(9);
    expect((await queueAttributes(changed.resources['queue:added']!.ref)).VisibilityTimeout).toBe('12');

    // And back: the index the template dropped is deleted, the settings are the template's again.
    const back = await provisionStack({ prefix, resources: specs });
    const restored = await queueAttributes(back.resources['queue:events']!.ref);
    expect(restored.VisibilityTimeout).toBe(
      String(specs.find((s) => s.name === 'queue:events')!.properties.VisibilityTimeout),
    );
    const { Table: again } = await new DynamoDBClient({}).send(
      new DescribeTableCommand({ TableName: back.resources['table:vault']!.ref }),
    );
    expect(again!.GlobalSecondaryIndexes ?? []).toEqual([]);
  }, 120_000);
});
