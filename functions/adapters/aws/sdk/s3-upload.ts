// The AWS SDK's multipart upload (lib-storage), for the functions that write vault content (see
// ./dynamodb.ts for why a module per client).
export { Upload } from '@aws-sdk/lib-storage';
