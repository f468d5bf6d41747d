// The AWS SDK's SQS names the adapters use (see ./dynamodb.ts for why a module per client).
export {
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
