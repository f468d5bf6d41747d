// AWS SDK clients, built once per Lambda container on first use. The SDK modules are imported then
// too, so a Lambda loads only the clients its route touches (each costs tens of ms at cold start).
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { KMSClient } from '@aws-sdk/client-kms';
import type { SFNClient } from '@aws-sdk/client-sfn';
import type { SQSClient } from '@aws-sdk/client-sqs';

/** A client, or the promise of one (adapters accept both, so tests can pass a ready client). */
export type ClientRef<T> = T | Promise<T>;

let documentClient: Promise<DynamoDBDocumentClient> | undefined;
let kmsClient: Promise<KMSClient> | undefined;
let sqsClient: Promise<SQSClient> | undefined;
let sfnClient: Promise<SFNClient> | undefined;

export function dynamo(): Promise<DynamoDBDocumentClient> {
  documentClient ??= Promise.all([import('@aws-sdk/client-dynamodb'), import('@aws-sdk/lib-dynamodb')]).then(
    ([{ DynamoDBClient }, { DynamoDBDocumentClient }]) =>
      DynamoDBDocumentClient.from(new DynamoDBClient({}), {
        marshallOptions: { removeUndefinedValues: true },
      }),
  );
  return documentClient;
}

export function kms(): Promise<KMSClient> {
  kmsClient ??= import('@aws-sdk/client-kms').then(({ KMSClient }) => new KMSClient({}));
  return kmsClient;
}

export function sqs(): Promise<SQSClient> {
  sqsClient ??= import('@aws-sdk/client-sqs').then(({ SQSClient }) => new SQSClient({}));
  return sqsClient;
}

export function sfn(): Promise<SFNClient> {
  sfnClient ??= import('@aws-sdk/client-sfn').then(({ SFNClient }) => new SFNClient({}));
  return sfnClient;
}
