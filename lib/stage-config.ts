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
  /** The console's identity provider: all three, or none (then console routes fail closed). */
  consoleIssuer: z.string().min(1).optional(),
  consoleAudience: z.string().min(1).optional(),
  consoleJwksUrl: z
    .url({ protocol: /^https$/, error: 'context "consoleJwksUrl" must be an https URL' })
    .optional(),
  /** `-c apiGatewayCloudWatchRole=false`: the account's API Gateway logging role is managed elsewhere. */
  apiGatewayCloudWatchRole: z
    .union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')], {
      error: 'context "apiGatewayCloudWatchRole" must be true or false',
    })
    .default(true),
});

const CONSOLE_CONTEXT = ['consoleIssuer', 'consoleAudience', 'consoleJwksUrl'] as const;

export interface ConsoleIdentityProvider {
  issuer: string;
  audience: string;
  jwksUrl: string;
}

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
  /** Verifies console sessions; absent: the console authorizer fails closed (500, logged). */
  console?: ConsoleIdentityProvider;
  /** A WAF web ACL in front of the API stage (prod): address reputation, known bad inputs, a rate cap. */
  firewall?: { requestsPerAddressPer5Minutes: number };
  /** What the CloudWatch alarms fire on (lib/observability.ts; docs/runbook.md explains each). */
  alarms: AlarmThresholds;
  /**
   * Whether the stack sets the account's API Gateway CloudWatch role (AWS::ApiGateway::Account), which
   * a stage with execution or access logging needs. Off when the account's setting is owned elsewhere.
   */
  apiGatewayCloudWatchRole: boolean;
}

export interface AlarmThresholds {
  /** Share of a Lambda's invocations that end in an error, per 5 minutes. */
  functionErrorPercent: number;
  /** Share of API requests answered 5xx, per 5 minutes. */
  api5xxPercent: number;
  /** Deliveries marked failed (rejected or exhausted) per 15 minutes, across all endpoints. */
  failedDeliveriesPer15Minutes: number;
  /** Token refreshes that failed (not lapses to reauth_required) per 15 minutes. */
  refreshFailuresPer15Minutes: number;
  /** Connections throttled by their provider per 15 minutes. */
  connectionThrottlesPer15Minutes: number;
}

export function stageConfig(node: Node): StageConfig {
  const raw = {
    stage: node.tryGetContext('stage') ?? 'dev',
    publicBaseUrl: node.tryGetContext('publicBaseUrl'),
    alarmEmail: node.tryGetContext('alarmEmail'),
    apiGatewayCloudWatchRole: node.tryGetContext('apiGatewayCloudWatchRole'),
    ...Object.fromEntries(CONSOLE_CONTEXT.map((name) => [name, node.tryGetContext(name)])),
  };
  const parsed = contextSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      `Invalid CDK context: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  const { consoleIssuer, consoleAudience, consoleJwksUrl } = parsed.data;
  const consoleGiven = CONSOLE_CONTEXT.filter((name) => parsed.data[name] !== undefined);
  if (consoleGiven.length > 0 && consoleGiven.length < CONSOLE_CONTEXT.length) {
    throw new Error(`Invalid CDK context: give all of ${CONSOLE_CONTEXT.join(', ')}, or none`);
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
    apiGatewayCloudWatchRole: parsed.data.apiGatewayCloudWatchRole,
    firewall: prod ? { requestsPerAddressPer5Minutes: 10_000 } : undefined,
    alarms: {
      functionErrorPercent: prod ? 2 : 10,
      api5xxPercent: prod ? 1 : 5,
      failedDeliveriesPer15Minutes: prod ? 50 : 200,
      refreshFailuresPer15Minutes: prod ? 10 : 50,
      connectionThrottlesPer15Minutes: prod ? 20 : 100,
    },
    console:
      consoleIssuer && consoleAudience && consoleJwksUrl
        ? { issuer: consoleIssuer, audience: consoleAudience, jwksUrl: consoleJwksUrl }
        : undefined,
  };
}
