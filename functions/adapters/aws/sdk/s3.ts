// The AWS SDK's S3 names the adapters use (see ./dynamodb.ts for why a module per client). The multipart
// upload (lib-storage) is ./s3-upload.ts: the functions that only read or delete content do not load it.
export { DeleteObjectCommand, GetObjectCommand, NoSuchKey, S3Client } from '@aws-sdk/client-s3';
