// Stage settings from validated CDK context (`-c stage=prod`): one place decides what differs.
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import * as z from 'zod';
import { AUTHORIZER_CACHE_TTL_SECONDS } from '../functions/platform/gateway-responses';

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
  /**
   * The console's own domain on CloudFront, with its ACM certificate (in us-east-1): both, or none
   * (then the distribution answers on *.cloudfront.net with CloudFront's default certificate).
   */
  consoleDomainName: z
    .string()
    .regex(/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, {
      error: 'context "consoleDomainName" must be a lower-case DNS name',
    })
    .optional(),
  consoleCertificateArn: z
    .string()
    .regex(/^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[A-Za-z0-9-]+$/, {
      error:
        'context "consoleCertificateArn" must be an ACM certificate ARN in us-east-1 (CloudFront reads only there)',
    })
    .optional(),
  /**
   * The console distribution's web ACL (scope CLOUDFRONT, so in us-east-1): the `ConsoleWebAclArn`
   * output of the `<stack>-edge` stack (lib/firewall.ts). Not needed when the stack is in us-east-1.
   */
  consoleWebAclArn: z
    .string()
    .regex(/^arn:aws[a-z-]*:wafv2:us-east-1:\d{12}:global\/webacl\/[A-Za-z0-9_-]+\/[A-Za-z0-9-]+$/, {
      error:
        'context "consoleWebAclArn" must be the ARN of a CloudFront web ACL (arn:aws:wafv2:us-east-1:<account>:global/webacl/<name>/<id>)',
    })
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
  /** Buckets empty themselves when the stack is deleted (dev: `cdk destroy` goes through); prod retains. */
  autoDeleteObjects: boolean;
  deletionProtection: boolean;
  logRetention: RetentionDays;
  /** http://localhost return URLs and receivers: never in production. */
  loopbackAllowed: boolean;
  authorizerCacheTtl: Duration;
  publicBaseUrl?: string;
  alarmEmail?: string;
  /** The console distribution's custom domain and certificate (TLS 1.2 at least); absent: *.cloudfront.net. */
  consoleDomain?: { domainName: string; certificateArn: string };
  /** Verifies console sessions; absent: the console authorizer fails closed (500, logged). */
  console?: ConsoleIdentityProvider;
  /**
   * WAF web ACLs (prod) in front of the API stage and the console distribution: address reputation,
   * known bad inputs, a rate cap per address (lib/firewall.ts). `consoleWebAclArn`: the distribution's,
   * made by the edge stack in us-east-1; absent, the service stack makes it when it is in us-east-1.
   */
  firewall?: { requestsPerAddressPer5Minutes: number; consoleWebAclArn?: string };
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
  /** Import runs that ended failed per 15 minutes (a run fails as a whole: provider, vault or token). */
  failedRunsPer15Minutes: number;
  /** Exports that ended failed per 15 minutes. */
  failedExportsPer15Minutes: number;
}

export function stageConfig(node: Node): StageConfig {
  const raw = {
    stage: node.tryGetContext('stage') ?? 'dev',
    publicBaseUrl: node.tryGetContext('publicBaseUrl'),
    alarmEmail: node.tryGetContext('alarmEmail'),
    apiGatewayCloudWatchRole: node.tryGetContext('apiGatewayCloudWatchRole'),
    consoleDomainName: node.tryGetContext('consoleDomainName'),
    consoleCertificateArn: node.tryGetContext('consoleCertificateArn'),
    consoleWebAclArn: node.tryGetContext('consoleWebAclArn'),
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
  const { consoleDomainName, consoleCertificateArn } = parsed.data;
  if ((consoleDomainName === undefined) !== (consoleCertificateArn === undefined)) {
    throw new Error('Invalid CDK context: give both consoleDomainName and consoleCertificateArn, or neither');
  }
  const prod = parsed.data.stage === 'prod';
  return {
    stage: parsed.data.stage,
    removalPolicy: prod ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    autoDeleteObjects: !prod,
    deletionProtection: prod,
    logRetention: prod ? RetentionDays.THREE_MONTHS : RetentionDays.TWO_WEEKS,
    loopbackAllowed: !prod,
    authorizerCacheTtl: Duration.seconds(AUTHORIZER_CACHE_TTL_SECONDS[parsed.data.stage]),
    publicBaseUrl: parsed.data.publicBaseUrl,
    alarmEmail: parsed.data.alarmEmail,
    apiGatewayCloudWatchRole: parsed.data.apiGatewayCloudWatchRole,
    firewall: prod
      ? {
          requestsPerAddressPer5Minutes: 10_000,
          ...(parsed.data.consoleWebAclArn ? { consoleWebAclArn: parsed.data.consoleWebAclArn } : {}),
        }
      : undefined,
    alarms: {
      functionErrorPercent: prod ? 2 : 10,
      api5xxPercent: prod ? 1 : 5,
      failedDeliveriesPer15Minutes: prod ? 50 : 200,
      refreshFailuresPer15Minutes: prod ? 10 : 50,
      connectionThrottlesPer15Minutes: prod ? 20 : 100,
      failedRunsPer15Minutes: prod ? 5 : 20,
      failedExportsPer15Minutes: prod ? 5 : 20,
    },
    consoleDomain:
      consoleDomainName && consoleCertificateArn
        ? { domainName: consoleDomainName, certificateArn: consoleCertificateArn }
        : undefined,
    console:
      consoleIssuer && consoleAudience && consoleJwksUrl
        ? { issuer: consoleIssuer, audience: consoleAudience, jwksUrl: consoleJwksUrl }
        : undefined,
  };
}
