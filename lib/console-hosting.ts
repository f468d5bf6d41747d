// The console on AWS: its static files in a private S3 bucket, served by CloudFront through origin
// access control, with the REST API behind the same distribution (/webhooks/*, /connectors/*), so the
// page calls the API on its own origin and the API keeps its own auth (the bearer header is forwarded;
// on those two behaviours a viewer-request function turns the console's session cookie into it).
// The files are uploaded by `npm run console:build` and `aws s3 sync` (docs/deploy.md), not by a deployment Lambda:
// BucketDeployment's function would need a managed policy and wildcard grants the stack refuses.
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duration } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  OriginRequestPolicy,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { RestApiOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { buildSync } from 'esbuild';
import { Construct } from 'constructs';
import { CONSOLE_PATHS_CODE, CONSOLE_SESSION_CODE } from './console-edge';
import type { StageConfig } from './stage-config';

const CONSOLE_DIR = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', 'console');

/** The same policy the local server sends (functions/dev-runtime/server/console-site.ts). */
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** esbuild's bundle of console/src plus the static files, laid out as the bucket's console/ prefix. */
export function buildConsoleAssets(root = mkdtempSync(join(tmpdir(), 'console-assets-'))): string {
  const out = join(root, 'console');
  mkdirSync(out, { recursive: true });
  for (const [entry, name] of [
    ['main.ts', 'console.js'],
    ['connected.ts', 'connected.js'],
    // The page a sign-in link opens (functions/directory/api/handlers/open-portal-link.ts).
    ['open.ts', 'open.js'],
  ]) {
    buildSync({
      entryPoints: [join(CONSOLE_DIR, 'src', entry!)],
      bundle: true,
      format: 'esm',
      target: 'es2022',
      minify: true,
      outfile: join(out, name!),
      logLevel: 'silent',
    });
  }
  for (const name of ['index.html', 'connected.html', 'console.css']) {
    cpSync(join(CONSOLE_DIR, 'public', name), join(out, name));
  }
  return root;
}

export interface ConsoleHostingProps {
  stage: StageConfig;
  restApi: RestApi;
  /** The distribution's web ACL (scope CLOUDFRONT, lib/firewall.ts). */
  webAclArn?: string;
  /** Headers CloudFront adds to what it sends the API (the web ACL's origin-verify header). */
  apiOriginHeaders?: Record<string, string>;
}

export class ConsoleHosting extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;

  constructor(scope: Construct, id: string, props: ConsoleHostingProps) {
    super(scope, id);
    const logs = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // CloudFront standard logging writes through ACLs.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: props.stage.removalPolicy,
      autoDeleteObjects: props.stage.autoDeleteObjects,
    });
    this.bucket = new Bucket(this, 'Assets', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true,
      serverAccessLogsBucket: logs,
      serverAccessLogsPrefix: 's3/',
      removalPolicy: props.stage.removalPolicy,
      autoDeleteObjects: props.stage.autoDeleteObjects,
    });

    // /console and /console/ are the page; /console/connected is where the connect flow comes back.
    const paths = new CloudFrontFunction(this, 'ConsolePaths', {
      code: FunctionCode.fromInline(CONSOLE_PATHS_CODE),
      runtime: FunctionRuntime.JS_2_0,
    });
    // The console's session cookie becomes the bearer on the API behaviours (lib/console-edge.ts).
    const session = new CloudFrontFunction(this, 'ConsoleSession', {
      comment: 'Console session cookie to bearer, only with X-Console-Request: 1',
      code: FunctionCode.fromInline(CONSOLE_SESSION_CODE),
      runtime: FunctionRuntime.JS_2_0,
    });
    const headers = new ResponseHeadersPolicy(this, 'ConsoleHeaders', {
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: CSP, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(365),
          includeSubdomains: true,
          override: true,
        },
      },
    });
    const api = {
      origin: new RestApiOrigin(props.restApi, { customHeaders: props.apiOriginHeaders }),
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      // Everything but Host (API Gateway routes on its own host): the Authorization header included.
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    };
    // The routes the console calls with its session; /openapi.json is public and carries none.
    const apiWithSession = {
      ...api,
      functionAssociations: [{ function: session, eventType: FunctionEventType.VIEWER_REQUEST }],
    };
    // With its own domain: TLS 1.2 or later (TLSv1.2_2021). On *.cloudfront.net CloudFront's default
    // certificate decides, and it still accepts TLS 1.0 and 1.1 (docs/decisions.md, "CloudFront TLS").
    const domain = props.stage.consoleDomain;
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Console and API on one origin',
      webAclId: props.webAclArn,
      ...(domain
        ? {
            domainNames: [domain.domainName],
            certificate: Certificate.fromCertificateArn(this, 'Certificate', domain.certificateArn),
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      enableLogging: true,
      logBucket: logs,
      logFilePrefix: 'cloudfront/',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        responseHeadersPolicy: headers,
        functionAssociations: [{ function: paths, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        '/webhooks/*': apiWithSession,
        '/connectors/*': apiWithSession,
        '/openapi.json': api,
      },
    });
  }
}
