// The console's hosting: a private bucket read only by CloudFront through origin access control, the
// API on the same distribution with the Authorization header forwarded and nothing cached.
import { Match } from 'aws-cdk-lib/assertions';
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
});
