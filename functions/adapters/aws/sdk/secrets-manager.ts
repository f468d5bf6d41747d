// The AWS SDK's Secrets Manager names the adapters use (see ./dynamodb.ts for why a module per client).
export { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
