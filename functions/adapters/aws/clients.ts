// AWS SDK clients, built once per Lambda container on first use and traced (X-Ray, ./tracing). The SDK
// modules and the tracer are imported then too, so a Lambda loads only the clients its route touches
// (each costs tens of ms at cold start).
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { KMSClient } from '@aws-sdk/client-kms';
import type { S3Client } from '@aws-sdk/client-s3';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { SFNClient } from '@aws-sdk/client-sfn';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { getOptionalStringFromEnv } from '../../platform/config';

/** A client, or the promise of one (adapters accept both, so tests can pass a ready client). */
export type ClientRef<T> = T | Promise<T>;

let documentClient: Promise<DynamoDBDocumentClient> | undefined;
let kmsClient: Promise<KMSClient> | undefined;
let sqsClient: Promise<SQSClient> | undefined;
let sfnClient: Promise<SFNClient> | undefined;
let s3Client: Promise<S3Client> | undefined;
let secretsManagerClient: Promise<SecretsManagerClient> | undefined;

export function dynamo(): Promise<DynamoDBDocumentClient> {
  documentClient ??= Promise.all([
    import('@aws-sdk/client-dynamodb'),
    import('@aws-sdk/lib-dynamodb'),
    import('./tracing'),
  ]).then(([{ DynamoDBClient }, { DynamoDBDocumentClient }, { traced }]) =>
    DynamoDBDocumentClient.from(traced(new DynamoDBClient({})), {
      marshallOptions: { removeUndefinedValues: true },
    }),
  );
  return documentClient;
}

export function kms(): Promise<KMSClient> {
  kmsClient ??= Promise.all([import('@aws-sdk/client-kms'), import('./tracing')]).then(
    ([{ KMSClient }, { traced }]) => traced(new KMSClient({})),
  );
  return kmsClient;
}

export function sqs(): Promise<SQSClient> {
  sqsClient ??= Promise.all([import('@aws-sdk/client-sqs'), import('./tracing')]).then(
    ([{ SQSClient }, { traced }]) => traced(new SQSClient({})),
  );
  return sqsClient;
}

export function sfn(): Promise<SFNClient> {
  sfnClient ??= Promise.all([import('@aws-sdk/client-sfn'), import('./tracing')]).then(
    ([{ SFNClient }, { traced }]) => traced(new SFNClient({})),
  );
  return sfnClient;
}

export function s3(): Promise<S3Client> {
  // An emulator endpoint (moto, LocalStack) serves buckets by path, not by virtual host.
  const emulated = Boolean(
    getOptionalStringFromEnv('AWS_ENDPOINT_URL_S3') ?? getOptionalStringFromEnv('AWS_ENDPOINT_URL'),
  );
  s3Client ??= Promise.all([import('@aws-sdk/client-s3'), import('./tracing')]).then(
    ([{ S3Client }, { traced }]) => traced(new S3Client({ forcePathStyle: emulated })),
  );
  return s3Client;
}

export function secretsManager(): Promise<SecretsManagerClient> {
  secretsManagerClient ??= Promise.all([import('@aws-sdk/client-secrets-manager'), import('./tracing')]).then(
    ([{ SecretsManagerClient }, { traced }]) => traced(new SecretsManagerClient({})),
  );
  return secretsManagerClient;
}
