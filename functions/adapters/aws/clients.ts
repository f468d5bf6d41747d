// AWS SDK clients, built once per Lambda container and shared by every adapter.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { KMSClient } from '@aws-sdk/client-kms';
import { SFNClient } from '@aws-sdk/client-sfn';
import { SQSClient } from '@aws-sdk/client-sqs';

let documentClient: DynamoDBDocumentClient | undefined;
let kmsClient: KMSClient | undefined;
let sqsClient: SQSClient | undefined;
let sfnClient: SFNClient | undefined;

export function dynamo(): DynamoDBDocumentClient {
  documentClient ??= DynamoDBDocumentClient.from(new DynamoDBClient({}), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return documentClient;
}

export function kms(): KMSClient {
  kmsClient ??= new KMSClient({});
  return kmsClient;
}

export function sqs(): SQSClient {
  sqsClient ??= new SQSClient({});
  return sqsClient;
}

export function sfn(): SFNClient {
  sfnClient ??= new SFNClient({});
  return sfnClient;
}
