// The AWS SDK's Step Functions names the adapters use (see ./dynamodb.ts for why a module per client).
export {
  DescribeExecutionCommand,
  ExecutionAlreadyExists,
  ExecutionDoesNotExist,
  SFNClient,
  StartExecutionCommand,
} from '@aws-sdk/client-sfn';
