// The AWS SDK's DynamoDB names the adapters use, and nothing else: the one module that imports them. The
// adapters import it on first use (import()), and esbuild makes it a chunk of its own beside the Lambda's
// bundle, holding only these names (docs/decisions.md, "The AWS SDK bundled, one chunk per client").
export { DynamoDBClient } from '@aws-sdk/client-dynamodb';
export {
  BatchGetCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
