// The integration and contract tiers talk to AWS APIs at whatever endpoint the standard variables
// name: moto server + DynamoDB Local here (scripts/with-emulators.sh), LocalStack elsewhere.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CreateKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { randomBytes } from 'node:crypto';
import type { TableName, Tables } from '../../functions/platform/ports';
import { TABLE_NAMES } from '../../functions/platform/tables';
import { provisionTables } from '../../functions/dev-runtime/emulated-aws/provision';
import { DynamoDbTable } from '../../functions/adapters/aws/dynamodb-table';

export function requireEmulators(): void {
  if (!process.env.AWS_ENDPOINT_URL && !process.env.AWS_ENDPOINT_URL_DYNAMODB) {
    throw new Error(
      'No AWS endpoint configured: run this tier through `npm test` or `bash scripts/with-emulators.sh <command>`, ' +
        'or set AWS_ENDPOINT_URL (LocalStack).',
    );
  }
}

export function documentClient(): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(new DynamoDBClient({}), {
    marshallOptions: { removeUndefinedValues: true },
  });
}

/** Creates every table of the stack, as the emulated runtime provisions them, under a unique prefix. */
export async function createTables(label: string): Promise<Record<TableName, string>> {
  requireEmulators();
  return provisionTables(`${label}-${randomBytes(4).toString('hex')}`);
}

export async function createAwsTables(label: string): Promise<Tables> {
  const names = await createTables(label);
  const client = documentClient();
  return Object.fromEntries(
    TABLE_NAMES.map((n) => [n, new DynamoDbTable(names[n], client)]),
  ) as unknown as Tables;
}

export async function createKmsKey(): Promise<string> {
  requireEmulators();
  const out = await new KMSClient({}).send(new CreateKeyCommand({ Description: 'test envelope key' }));
  return out.KeyMetadata!.KeyId!;
}

/** Creates an S3 bucket (the vault stand-in's content) under a unique name; path-style, as emulators serve. */
export async function createBucket(label: string): Promise<{ name: string; client: S3Client }> {
  requireEmulators();
  const client = new S3Client({ forcePathStyle: true });
  const name = `${label}-${randomBytes(4).toString('hex')}`.toLowerCase();
  await client.send(new CreateBucketCommand({ Bucket: name }));
  return { name, client };
}
