// Stage settings from validated CDK context (`-c stage=prod`): one place decides what differs.
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import * as z from 'zod';

const contextSchema = z.object({
  stage: z.enum(['dev', 'prod'], { error: 'context "stage" must be dev or prod' }),
  /** Custom domain base URL (https://api.example.com); defaults to the API Gateway stage URL. */
  publicBaseUrl: z.url({ protocol: /^https$/ }).optional(),
  alarmEmail: z.email().optional(),
});

export interface StageConfig {
  stage: 'dev' | 'prod';
  removalPolicy: RemovalPolicy;
  deletionProtection: boolean;
  logRetention: RetentionDays;
  /** http://localhost return URLs and receivers: never in production. */
  loopbackAllowed: boolean;
  authorizerCacheTtl: Duration;
  publicBaseUrl?: string;
  alarmEmail?: string;
}

export function stageConfig(node: Node): StageConfig {
  const raw = {
    stage: node.tryGetContext('stage') ?? 'dev',
    publicBaseUrl: node.tryGetContext('publicBaseUrl'),
    alarmEmail: node.tryGetContext('alarmEmail'),
  };
  const parsed = contextSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      `Invalid CDK context: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  const prod = parsed.data.stage === 'prod';
  return {
    stage: parsed.data.stage,
    removalPolicy: prod ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    deletionProtection: prod,
    logRetention: prod ? RetentionDays.THREE_MONTHS : RetentionDays.TWO_WEEKS,
    loopbackAllowed: !prod,
    authorizerCacheTtl: Duration.seconds(prod ? 60 : 0),
    publicBaseUrl: parsed.data.publicBaseUrl,
    alarmEmail: parsed.data.alarmEmail,
  };
}
