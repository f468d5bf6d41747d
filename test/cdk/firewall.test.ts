// The production web ACLs (lib/firewall.ts): each rate rule counts an address the client cannot write.
// The console distribution has its own ACL (CloudFront scope, so in us-east-1: in the stack when it is
// there, else the edge stack's, given by ARN); the API's ACL leaves the distribution's requests, known
// by the origin-verify value only the two share, to it. Both log, without credentials.
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { RemovalPolicy } from 'aws-cdk-lib';
import { ConsoleEdgeStack, ORIGIN_VERIFY_HEADER } from '../../lib/firewall';
import { synthStack } from '../support/synth';

type Resource = { Properties: Record<string, unknown> };
const EDGE_ACL =
  'arn:aws:wafv2:us-east-1:123456789012:global/webacl/ConnectorEventService-prod-edge-console/0a1b2c3d-4e5f';

const aclsOf = (template: Template) =>
  Object.values(template.findResources('AWS::WAFv2::WebACL') as Record<string, Resource>);
const rulesOf = (acl: Resource) =>
  acl.Properties.Rules as { Name: string; Statement: Record<string, unknown> }[];
const distributionOf = (template: Template) =>
  Object.values(template.findResources('AWS::CloudFront::Distribution') as Record<string, Resource>)[0]!
    .Properties.DistributionConfig as {
    WebACLId?: unknown;
    Origins: {
      Id: string;
      CustomOriginConfig?: unknown;
      OriginCustomHeaders?: { HeaderName: string; HeaderValue: unknown }[];
    }[];
  };

describe('production web ACLs, the edge one given by ARN (a stack outside us-east-1)', () => {
  const { stack, template } = synthStack({ stage: 'prod', context: { consoleWebAclArn: EDGE_ACL } });
  const [api] = aclsOf(template);
  const distribution = distributionOf(template);

  it('attaches the edge web ACL to the console distribution', () => {
    expect(distribution.WebACLId).toBe(EDGE_ACL);
    expect(aclsOf(template)).toHaveLength(1); // the API's; the edge one is the edge stack's
  });

  it("counts at the API every request by its connecting address, except the distribution's, which carry the origin-verify value", () => {
    const headers = distribution.Origins.flatMap((o) => o.OriginCustomHeaders ?? []);
    const verify = headers.find((h) => h.HeaderName === ORIGIN_VERIFY_HEADER);
    expect(verify).toBeDefined();
    // A dynamic reference CloudFormation resolves at deployment: the value is not in the template.
    expect(JSON.stringify(verify!.HeaderValue)).toMatch(/\{\{resolve:secretsmanager:/);
    const rate = rulesOf(api!).find((r) => r.Name === 'PerAddressRate')!;
    expect(rate.Statement).toEqual({
      RateBasedStatement: {
        Limit: 10000,
        EvaluationWindowSec: 300,
        AggregateKeyType: 'IP',
        ScopeDownStatement: {
          NotStatement: {
            Statement: {
              ByteMatchStatement: {
                FieldToMatch: { SingleHeader: { Name: ORIGIN_VERIFY_HEADER } },
                PositionalConstraint: 'EXACTLY',
                SearchString: verify!.HeaderValue,
                TextTransformations: [{ Priority: 0, Type: 'NONE' }],
              },
            },
          },
        },
      },
    });
  });

  it('trusts no forwarded address: no rule keys on X-Forwarded-For, which the client writes', () => {
    expect(JSON.stringify(template.toJSON()).includes('FORWARDED_IP')).toBe(false);
  });

  it('logs the API web ACL to an aws-waf-logs- group, without credentials, query strings or paths', () => {
    template.hasResourceProperties('AWS::WAFv2::LoggingConfiguration', {
      RedactedFields: Match.arrayWith([
        { SingleHeader: { Name: 'authorization' } },
        { SingleHeader: { Name: 'cookie' } },
        { SingleHeader: { Name: ORIGIN_VERIFY_HEADER } },
        { QueryString: {} },
        { UriPath: {} },
      ]),
    });
    template.hasResourceProperties('AWS::Logs::LogGroup', {
      LogGroupName: Match.stringLikeRegexp('^aws-waf-logs-'),
      RetentionInDays: 90,
    });
    expect(Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('no web ACL'))).toHaveLength(
      0,
    );
  });
});

describe('production web ACLs in us-east-1', () => {
  const { template } = synthStack({ stage: 'prod', region: 'us-east-1' });

  it("makes the distribution's CloudFront-scope web ACL in the stack, counting viewers by their own address", () => {
    const edge = aclsOf(template).find((a) => a.Properties.Scope === 'CLOUDFRONT')!;
    expect(edge).toBeDefined();
    const rate = rulesOf(edge).find((r) => r.Name === 'PerAddressRate')!;
    expect(rate.Statement).toEqual({
      RateBasedStatement: { Limit: 10000, EvaluationWindowSec: 300, AggregateKeyType: 'IP' },
    });
    expect(distributionOf(template).WebACLId).toEqual({ 'Fn::GetAtt': [expect.any(String), 'Arn'] });
    template.resourceCountIs('AWS::WAFv2::LoggingConfiguration', 2);
  });
});

describe('production without the edge web ACL (outside us-east-1, no ARN given)', () => {
  const { stack, template } = synthStack({ stage: 'prod' });

  it('says so at synthesis, and the API counts every request by connecting address', () => {
    Annotations.fromStack(stack).hasWarning(
      '*',
      Match.stringLikeRegexp('console distribution has no web ACL'),
    );
    expect(distributionOf(template).WebACLId).toBeUndefined();
    const [api] = aclsOf(template);
    const rate = rulesOf(api!).find((r) => r.Name === 'PerAddressRate')!;
    expect(rate.Statement).toEqual({
      RateBasedStatement: { Limit: 10000, EvaluationWindowSec: 300, AggregateKeyType: 'IP' },
    });
    expect(distributionOf(template).Origins.flatMap((o) => o.OriginCustomHeaders ?? [])).toEqual([]);
  });

  it('says at synthesis that without a console domain the distribution accepts TLS 1.0 and 1.1', () => {
    Annotations.fromStack(stack).hasWarning('*', Match.stringLikeRegexp('TLS 1.0 and 1.1'));
  });

  it('refuses an ARN that is not a CloudFront web ACL', () => {
    expect(() =>
      synthStack({
        stage: 'prod',
        context: { consoleWebAclArn: 'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/x/1' },
      }),
    ).toThrow(/consoleWebAclArn/);
  });
});

describe('the edge stack', () => {
  it('is in us-east-1 and outputs the ARN the service stack is given', () => {
    const app = new App();
    const edge = new ConsoleEdgeStack(app, 'ConnectorEventService-prod-edge', {
      env: { account: '123456789012' },
      settings: {
        requestsPerAddressPer5Minutes: 10_000,
        logRetention: RetentionDays.THREE_MONTHS,
        removalPolicy: RemovalPolicy.RETAIN,
      },
    });
    expect(edge.region).toBe('us-east-1');
    const template = Template.fromStack(edge);
    template.hasResourceProperties('AWS::WAFv2::WebACL', { Scope: 'CLOUDFRONT' });
    template.resourceCountIs('AWS::WAFv2::LoggingConfiguration', 1);
    template.hasOutput('ConsoleWebAclArn', {});
  });
});

describe('dev', () => {
  it('has no web ACL, no origin-verify header and no warning about either', () => {
    const { stack, template } = synthStack({ stage: 'dev' });
    template.resourceCountIs('AWS::WAFv2::WebACL', 0);
    expect(JSON.stringify(template.toJSON())).not.toContain(ORIGIN_VERIFY_HEADER);
    expect(
      Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('web ACL|TLS 1.0')),
    ).toHaveLength(0);
  });
});
