// X-Ray tracing of the AWS SDK clients through Powertools for AWS Lambda's Tracer: every DynamoDB, KMS,
// SQS and Step Functions call is a subsegment of the function's trace. Outside Lambda (local runtime,
// tests, the emulated runtime) the Tracer is off and hands the client back untouched.
import { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE_NAME } from '../../platform/logger';

export const tracer = new Tracer({ serviceName: SERVICE_NAME });

export const traced = <T>(client: T): T => tracer.captureAWSv3Client(client);
