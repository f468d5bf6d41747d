// Provisioning of the emulated AWS runtime (functions/dev-runtime/emulated-aws/provision.ts) on the emulators: every
// table of platform/tables.ts with its indexes and TTL, a queue per worker-table entry with its
// visibility (six times the worker's timeout), retention and redrive to its DLQ, a usable envelope key,
// the purge state machine with the definition it was given; and a second run reuses all of it.
import { DescribeTableCommand, DescribeTimeToLiveCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeKeyCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { DescribeStateMachineCommand, SFNClient } from '@aws-sdk/client-sfn';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { randomBytes } from 'node:crypto';
import type { ProvisionedStack } from '../../functions/dev-runtime/emulated-aws/provision';
import { provisionStack } from '../../functions/dev-runtime/emulated-aws/provision';
import { DynamoDbTable } from '../../functions/adapters/aws/dynamodb-table';
import { DEPLOYED_PURGE_SETTINGS, purgeDefinition } from '../../functions/connectors/infra/purge-definition';
import {
  DLQ_URL_ENV,
  INDEX_KEYS,
  QUEUE_URL_ENV,
  TABLE_DEFINITIONS,
  TABLE_NAMES,
  VAULT_BUCKET_ENV,
  WORKFLOW_ARN_ENV,
} from '../../functions/platform/tables';
import { DEAD_LETTER_RETENTION_DAYS, QUEUE_NAMES, QUEUE_WORKERS } from '../../functions/platform/workers';
import { documentClient, requireEmulators } from '../support/emulators';

const prefix = `prov-${randomBytes(3).toString('hex')}`;
const definition = (queueUrl: string) =>
  purgeDefinition({ ...DEPLOYED_PURGE_SETTINGS, target: { kind: 'sqsCallback', queueUrl } });
const provision = () => provisionStack({ prefix, workflows: { purge: definition } });
let stack: ProvisionedStack;

beforeAll(async () => {
  requireEmulators();
  stack = await provision();
}, 120_000);

const DAY = 24 * 3600;

describe('provisioning the stack on the emulators', () => {
  it('names every resource the aws adapters read', () => {
    const expected = [
      'KMS_KEY_ID',
      VAULT_BUCKET_ENV,
      WORKFLOW_ARN_ENV.purge,
      ...TABLE_NAMES.map((n) => TABLE_DEFINITIONS[n].envVar),
      ...QUEUE_NAMES.flatMap((n) => [QUEUE_URL_ENV[n], DLQ_URL_ENV[n]]),
    ];
    expect(Object.keys(stack.environment).sort()).toEqual(expected.sort());
    expect(stack.environment[TABLE_DEFINITIONS.webhooks.envVar]).toBe(`${prefix}-webhooks`);
  });

  it.each(TABLE_NAMES)('creates the %s table with its indexes and TTL', async (name) => {
    const client = new DynamoDBClient({});
    const TableName = stack.environment[TABLE_DEFINITIONS[name].envVar]!;
    const { Table } = await client.send(new DescribeTableCommand({ TableName }));
    expect(Table!.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    const indexes = (Table!.GlobalSecondaryIndexes ?? []).map((i) => ({
      name: i.IndexName,
      keys: i.KeySchema!.map((k) => k.AttributeName),
      projection: i.Projection!.ProjectionType,
    }));
    expect(indexes.sort((a, b) => a.name!.localeCompare(b.name!))).toEqual(
      TABLE_DEFINITIONS[name].indexes.map((index) => ({
        name: index,
        keys: [INDEX_KEYS[index].pk, INDEX_KEYS[index].sk],
        projection: 'ALL',
      })),
    );
    const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName }));
    expect(ttl.TimeToLiveDescription).toMatchObject({ TimeToLiveStatus: 'ENABLED', AttributeName: 'ttl' });
  });

  it.each(QUEUE_NAMES)('creates the %s queue with the worker table settings and its DLQ', async (name) => {
    const sqs = new SQSClient({});
    const worker = QUEUE_WORKERS[name];
    const attributes = async (url: string) =>
      (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['All'] }))).Attributes!;
    const queue = await attributes(stack.queues[name].url);
    const dlq = await attributes(stack.queues[name].deadLetterUrl);
    expect(Number(queue.VisibilityTimeout)).toBe(worker.timeoutSeconds * 6);
    expect(Number(queue.MessageRetentionPeriod)).toBe(worker.retentionDays * DAY);
    expect(JSON.parse(queue.RedrivePolicy!)).toEqual({
      deadLetterTargetArn: dlq.QueueArn,
      maxReceiveCount: worker.maxReceiveCount,
    });
    expect(Number(dlq.MessageRetentionPeriod)).toBe(DEAD_LETTER_RETENTION_DAYS * DAY);
    expect(queue.QueueArn).toBe(stack.queues[name].arn);
  });

  it('creates an enabled envelope key that makes data keys', async () => {
    const kms = new KMSClient({});
    const KeyId = stack.environment.KMS_KEY_ID!;
    const { KeyMetadata } = await kms.send(new DescribeKeyCommand({ KeyId }));
    expect(KeyMetadata!.KeyState).toBe('Enabled');
    const key = await kms.send(
      new GenerateDataKeyCommand({ KeyId, KeySpec: 'AES_256', EncryptionContext: { purpose: 'test' } }),
    );
    expect(key.Plaintext).toHaveLength(32);
  });

  it('creates the purge state machine with the definition it was given', async () => {
    const { definition: deployed } = await new SFNClient({}).send(
      new DescribeStateMachineCommand({ stateMachineArn: stack.environment[WORKFLOW_ARN_ENV.purge] }),
    );
    expect(JSON.parse(deployed!)).toEqual(definition(stack.taskQueues.purge!));
  });

  it('reuses everything on a second run: same names, same key, data kept', async () => {
    const table = new DynamoDbTable(stack.environment[TABLE_DEFINITIONS.platform.envVar]!, documentClient());
    await table.put({ pk: 'KEEP', sk: 'ME', value: 1 });
    const again = await provision();
    expect(again.environment).toEqual(stack.environment);
    expect(again.taskQueues).toEqual(stack.taskQueues);
    expect(await table.get({ pk: 'KEEP', sk: 'ME' })).toMatchObject({ value: 1 });
  }, 120_000);
});
