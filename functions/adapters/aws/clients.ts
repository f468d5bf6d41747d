// AWS SDK clients, built once per Lambda container on first use. The SDK modules (./sdk/*, one per
// client, each a chunk of its own beside the deployed bundle) are imported then too, so a Lambda loads
// only the clients its route touches (each costs tens of ms at cold start).
// Tracing: the functions run with Lambda active tracing (the invocation's segment) and the SDK passes
// the trace header on by itself; no X-Ray SDK is bundled (docs/decisions.md, "Cold starts").
// The bench counts the calls each client makes (./call-counter), enabled by it alone.
import type { DynamoDBDocumentClient } from './sdk/dynamodb';
import type { KMSClient } from './sdk/kms';
import type { S3Client } from './sdk/s3';
import type { SecretsManagerClient } from './sdk/secrets-manager';
import type { SFNClient } from './sdk/sfn';
import type { SQSClient } from './sdk/sqs';
import { getOptionalStringFromEnv } from '../../platform/config';
import { counted } from './call-counter';

/** A client, or the promise of one (adapters accept both, so tests can pass a ready client). */
export type ClientRef<T> = T | Promise<T>;

let documentClient: Promise<DynamoDBDocumentClient> | undefined;
let kmsClient: Promise<KMSClient> | undefined;
let sqsClient: Promise<SQSClient> | undefined;
let sfnClient: Promise<SFNClient> | undefined;
let s3Client: Promise<S3Client> | undefined;
let secretsManagerClient: Promise<SecretsManagerClient> | undefined;

export function dynamo(): Promise<DynamoDBDocumentClient> {
  documentClient ??= import('./sdk/dynamodb').then(({ DynamoDBClient, DynamoDBDocumentClient }) =>
    DynamoDBDocumentClient.from(counted('DynamoDB', new DynamoDBClient({})), {
      marshallOptions: { removeUndefinedValues: true },
    }),
  );
  return documentClient;
}

export function kms(): Promise<KMSClient> {
  kmsClient ??= import('./sdk/kms').then(({ KMSClient }) => counted('KMS', new KMSClient({})));
  return kmsClient;
}

export function sqs(): Promise<SQSClient> {
  sqsClient ??= import('./sdk/sqs').then(({ SQSClient }) => counted('SQS', new SQSClient({})));
  return sqsClient;
}

export function sfn(): Promise<SFNClient> {
  sfnClient ??= import('./sdk/sfn').then(({ SFNClient }) => counted('SFN', new SFNClient({})));
  return sfnClient;
}

export function s3(): Promise<S3Client> {
  // An emulator endpoint (moto, LocalStack) serves buckets by path, not by virtual host.
  const emulated = Boolean(
    getOptionalStringFromEnv('AWS_ENDPOINT_URL_S3') ?? getOptionalStringFromEnv('AWS_ENDPOINT_URL'),
  );
  s3Client ??= import('./sdk/s3').then(({ S3Client }) =>
    counted('S3', new S3Client({ forcePathStyle: emulated })),
  );
  return s3Client;
}

export function secretsManager(): Promise<SecretsManagerClient> {
  secretsManagerClient ??= import('./sdk/secrets-manager').then(({ SecretsManagerClient }) =>
    counted('SecretsManager', new SecretsManagerClient({})),
  );
  return secretsManagerClient;
}
