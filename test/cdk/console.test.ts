// The console's hosting: a private bucket read only by CloudFront through origin access control, the
// API on the same distribution with the Authorization header forwarded and nothing cached.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Match } from 'aws-cdk-lib/assertions';
import { CONSOLE_SESSION_CODE } from '../../lib/console-edge';
import { buildConsoleAssets } from '../../lib/console-hosting';
import { ROUTES } from '../../functions/routes';
import { synthStack } from '../support/synth';

describe('console hosting', () => {
  const { template } = synthStack();

  it('keeps the assets bucket private, encrypted, TLS-only and logged', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      VersioningConfiguration: { Status: 'Enabled' },
      LoggingConfiguration: Match.objectLike({ LogFilePrefix: 's3/' }),
    });
  });

  it('lets only the distribution read the bucket (origin access control)', () => {
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: 's3:GetObject',
            Principal: { Service: 'cloudfront.amazonaws.com' },
            Condition: { StringEquals: { 'AWS:SourceArn': Match.anyValue() } },
          }),
        ]),
      },
    });
  });

  it('routes /webhooks/*, /connectors/* and /openapi.json to the API uncached, forwarding every header but Host', () => {
    const distribution = template.findResources('AWS::CloudFront::Distribution');
    const config = (
      Object.values(distribution)[0] as { Properties: { DistributionConfig: Record<string, unknown> } }
    ).Properties.DistributionConfig as {
      CacheBehaviors: {
        PathPattern: string;
        AllowedMethods: string[];
        CachePolicyId: string;
        OriginRequestPolicyId: string;
      }[];
      DefaultCacheBehavior: { ViewerProtocolPolicy: string; FunctionAssociations: unknown[] };
      Logging: unknown;
    };
    expect(config.CacheBehaviors.map((b) => b.PathPattern).sort()).toEqual([
      '/connectors/*',
      '/openapi.json',
      '/webhooks/*',
    ]);
    for (const behavior of config.CacheBehaviors) {
      expect(behavior.AllowedMethods).toEqual(expect.arrayContaining(['POST', 'PATCH', 'PUT', 'DELETE']));
      expect(behavior.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad'); // CachingDisabled
      expect(behavior.OriginRequestPolicyId).toBe('b689b0a8-53d0-40ab-baf2-68738e2966ac'); // AllViewerExceptHostHeader
    }
    expect(config.DefaultCacheBehavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(config.DefaultCacheBehavior.FunctionAssociations).toHaveLength(1);
    expect(config.Logging).toMatchObject({
      Bucket: { 'Fn::GetAtt': [expect.any(String), 'RegionalDomainName'] },
    });
  });

  it("turns the console's session cookie into the bearer on /webhooks/* and /connectors/* only", () => {
    const functions = template.findResources('AWS::CloudFront::Function');
    const [sessionId, session] = Object.entries(functions).find(
      ([, f]) =>
        (f as { Properties: { FunctionCode: string } }).Properties.FunctionCode === CONSOLE_SESSION_CODE,
    ) as [string, { Properties: { FunctionConfig: { Runtime: string } } }];
    expect(session.Properties.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    const config = (
      Object.values(template.findResources('AWS::CloudFront::Distribution'))[0] as {
        Properties: {
          DistributionConfig: {
            CacheBehaviors: {
              PathPattern: string;
              FunctionAssociations?: { EventType: string; FunctionARN: unknown }[];
            }[];
          };
        };
      }
    ).Properties.DistributionConfig;
    const associations = Object.fromEntries(
      config.CacheBehaviors.map((b) => [b.PathPattern, b.FunctionAssociations ?? []]),
    );
    const viewerRequest = [
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [sessionId, 'FunctionARN'] } },
    ];
    expect(associations).toEqual({
      '/webhooks/*': viewerRequest,
      '/connectors/*': viewerRequest,
      '/openapi.json': [],
    });
  });

  it('sends the console strict security headers (no inline script, no framing)', () => {
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: {
        SecurityHeadersConfig: Match.objectLike({
          ContentSecurityPolicy: {
            ContentSecurityPolicy: Match.stringLikeRegexp("script-src 'self';"),
            Override: true,
          },
          FrameOptions: { FrameOption: 'DENY', Override: true },
        }),
      },
    });
  });

  it("keeps the console's script under 30 KB gzip, as built for the bucket", () => {
    const out = join(buildConsoleAssets(), 'console');
    const gzipped = (name: string) => gzipSync(readFileSync(join(out, name)), { level: 9 }).length;
    expect(gzipped('console.js')).toBeLessThan(30 * 1024);
    expect(gzipped('connected.js')).toBeLessThan(2 * 1024);
    // The page a sign-in link opens: its own small script, uploaded with the rest.
    expect(gzipped('open.js')).toBeLessThan(2 * 1024);
  });

  it('sends the sign-in paths (link page, exchange, session read, sign-out, portal page) to their own functions through the API, with the session edge', () => {
    const { stack } = synthStack();
    const sessionRoutes = ROUTES.filter((r) => r.path.startsWith('/connectors/v1/session'));
    expect(sessionRoutes.map((r) => r.id).sort()).toEqual(
      ['exchangePortalLink', 'openPortalLink', 'readSession', 'showPortal', 'signOut'].sort(),
    );
    const config = (
      Object.values(template.findResources('AWS::CloudFront::Distribution'))[0] as {
        Properties: {
          DistributionConfig: { CacheBehaviors: { PathPattern: string; FunctionAssociations?: unknown[] }[] };
        };
      }
    ).Properties.DistributionConfig;
    const glob = (pattern: string) => new RegExp(`^${pattern.replace(/[.]/g, '\\.').replace(/\*/g, '.*')}$`);
    for (const route of sessionRoutes) {
      const behavior = config.CacheBehaviors.find((b) => glob(b.PathPattern).test(route.path));
      expect({
        route: route.id,
        pattern: behavior?.PathPattern,
        edge: behavior?.FunctionAssociations?.length,
      }).toEqual({ route: route.id, pattern: '/connectors/*', edge: 1 });
      expect(stack.api.functions.get(route.id)).toBeDefined();
    }
  });
});
