// The AWS SDK's KMS names the adapters use (see ./dynamodb.ts for why a module per client).
export { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
