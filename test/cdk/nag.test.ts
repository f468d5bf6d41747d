// cdk-nag's AwsSolutions pack over the synthesized stack, both stages: no finding may be left that is
// not acknowledged with a reason (lib/nag.ts), and the acknowledgements stay narrow.
import type { CfnResource } from 'aws-cdk-lib';
import { Stack, Validations } from 'aws-cdk-lib';
import { CfnStage } from 'aws-cdk-lib/aws-apigateway';
import { CfnDistribution } from 'aws-cdk-lib/aws-cloudfront';
import { CfnRule } from 'aws-cdk-lib/aws-events';
import { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { CfnSecret } from 'aws-cdk-lib/aws-secretsmanager';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { API_GATEWAY_LOGS_POLICY } from '../../lib/nag';
import { synthStack } from '../support/synth';

const CONSOLE = {
  consoleIssuer: 'https://idp.example.com/',
  consoleAudience: 'connector-event-service',
  consoleJwksUrl: 'https://idp.example.com/.well-known/jwks.json',
};

/** Both providers configured: the stack then makes their client secrets too. */
const PROVIDERS = JSON.stringify({
  providers: Object.fromEntries(
    ['practice', 'drive'].map((id) => [
      id,
      {
        authorizeUrl: `https://${id}.example/authorize`,
        tokenUrl: `https://${id}.example/token`,
        revokeUrl: `https://${id}.example/revoke`,
        accountUrl: `https://${id}.example/me`,
        clientId: `${id}-client`,
      },
    ]),
  ),
});

function findings(options: Parameters<typeof synthStack>[0]) {
  const { stack } = synthStack(options); // synthesis runs the acknowledgement aspect
  // AwsSolutions and the Serverless pack, each finding acknowledged with a reason.
  const reports = [new AwsSolutionsChecks(stack), new ServerlessChecks(stack)].map((pack) =>
    pack.validateScope(stack),
  );
  return {
    stack,
    violations: reports.flatMap((report) =>
      report.violations.map((v) => ({
        rule: v.ruleName,
        resources: v.violatingResources.map((r) => r.constructPath),
      })),
    ),
  };
}

function acknowledgements(stack: ReturnType<typeof synthStack>['stack']) {
  return stack.node
    .findAll()
    .flatMap((c) => c.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY))
    .flatMap((m) => Object.entries(m.data as Record<string, string>));
}

describe('cdk-nag AwsSolutions and Serverless', () => {
  it.each([
    ['dev', { stage: 'dev' as const }],
    [
      'prod with alarms, a console identity provider and both providers',
      {
        stage: 'prod' as const,
        context: { alarmEmail: 'ops@example.com', ...CONSOLE, connectors: PROVIDERS },
      },
    ],
  ])('leaves no unacknowledged finding on the %s stack', (_name, options) => {
    expect(findings(options).violations).toEqual([]);
  });

  it('gives every acknowledgement a reason a reviewer can check', () => {
    const { stack } = findings({ stage: 'prod', context: { alarmEmail: 'ops@example.com' } });
    const acks = acknowledgements(stack);
    expect(acks.length).toBeGreaterThan(0);
    for (const [id, reason] of acks) {
      expect({ id, reason: reason.length > 60 }).toEqual({ id, reason: true });
    }
  });

  it.each([
    ['dev', { stage: 'dev' as const }],
    [
      'prod in us-east-1 with both providers',
      { stage: 'prod' as const, region: 'us-east-1', context: { connectors: PROVIDERS } },
    ],
    ['prod without the edge web ACL', { stage: 'prod' as const }],
  ])('gives each acknowledgement on the %s stack the reason that fits its resource', (_name, options) => {
    const { stack } = synthStack(options);
    const all = stack.node.findAll();
    // Acknowledged rule ids are recorded as `Annotation::<id>`.
    const acksOf = (c: CfnResource): Record<string, string> =>
      Object.fromEntries(
        c.node.metadata
          .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
          .flatMap((m) => Object.entries(m.data as Record<string, string>))
          .map(([id, reason]) => [id.replace(/^annotation::/i, ''), reason]),
      );
    // What the template says of each resource, read from its own properties, not from the code that acknowledged.
    const scheduled = new Set(
      all
        .filter((c): c is CfnRule => c instanceof CfnRule)
        .flatMap(
          (rule) =>
            JSON.stringify(Stack.of(rule).resolve(rule.targets)).match(/"Fn::GetAtt":\["[A-Za-z0-9]+"/g) ??
            [],
        )
        .map((ref) => ref.slice('"Fn::GetAtt":["'.length, -1)),
    );
    const hasStageAcl = all.some((c) => c instanceof CfnWebACLAssociation);
    const hasAnyAcl = all.some((c) => c instanceof CfnWebACL);
    const checked = new Set<string>();
    for (const c of all) {
      const acks = acksOf(c as CfnResource);
      if (c instanceof CfnFunction) {
        const sweep = scheduled.has(Stack.of(c).getLogicalId(c));
        expect({
          fn: c.node.path,
          sweep: acks['Serverless-LambdaDLQ']?.startsWith('A scheduled sweep, invoked asynchronously'),
        }).toEqual({ fn: c.node.path, sweep });
        checked.add(sweep ? 'sweep' : 'synchronous');
      } else if (c instanceof CfnSecret) {
        const reason = acks['AwsSolutions-SMG4']!;
        const kind =
          c.node.scope!.node.id === 'OriginVerify'
            ? 'origin'
            : c.generateSecretString
              ? 'generated'
              : 'provider';
        expect({ secret: c.node.path, reason }).toEqual({
          secret: c.node.path,
          reason: expect.stringMatching(
            kind === 'origin'
              ? /^The value the console distribution sends/
              : kind === 'generated'
                ? /^The generated OAuth state-signing key/
                : /^Holds an OAuth client secret issued by a provider/,
          ),
        });
        checked.add(kind);
      } else if (c instanceof CfnDistribution) {
        const config = Stack.of(c).resolve(c.distributionConfig) as { webAclId?: string };
        const reason = acks['AwsSolutions-CFR2'];
        if (config.webAclId) expect(reason).toBeUndefined();
        else
          expect(reason).toMatch(
            hasAnyAcl ? /^Production without a CloudFront web ACL/ : /^Development stage/,
          );
        checked.add(config.webAclId ? 'distribution with acl' : 'distribution without');
      } else if (c instanceof CfnStage) {
        expect(acks['AwsSolutions-APIG3'] !== undefined).toBe(!hasStageAcl);
      }
    }
    // The kinds this stack has were all met (a matcher that found nothing would prove nothing).
    expect([...checked].sort()).toEqual(
      (options.stage === 'dev'
        ? ['distribution without', 'generated', 'sweep', 'synchronous']
        : 'region' in options
          ? ['distribution with acl', 'generated', 'origin', 'provider', 'sweep', 'synchronous']
          : ['distribution without', 'generated', 'sweep', 'synchronous']
      ).sort(),
    );
  });

  it('acknowledges no managed policy but API Gateway logging, and no wildcard beyond X-Ray, log delivery, table indexes, executions, task versions and vault content objects', () => {
    const { stack } = findings({ stage: 'prod' });
    const ids = [...new Set(acknowledgements(stack).map(([id]) => id.replace(/^annotation::/i, '')))];
    expect(ids.filter((id) => id.startsWith('AwsSolutions-IAM4'))).toEqual([
      `AwsSolutions-IAM4[Policy::${API_GATEWAY_LOGS_POLICY}]`,
    ]);
    // The parent names its own resources by logical id; an area's nested stack names the parent's
    // through a parameter (referenceto<unique id><attribute>), the parent a nested one's through an output.
    for (const id of ids.filter((i) => i.startsWith('AwsSolutions-IAM5'))) {
      expect(id).toMatch(
        /^AwsSolutions-IAM5\[Resource::(\*|<(Data[A-Za-z]+Table[A-Z0-9]+\.Arn|referencetoTestStackData[A-Za-z]+Table[A-Z0-9]+Arn)>\/index\/\*|arn:.*:states:.*:execution:.*:\*|<(Purge[A-Za-z0-9]+\.Arn|[A-Za-z0-9]+\.Outputs\.TestStackConnectorsWorkflowArea(PurgePage|FinishPurge)Function[A-Z0-9]+Arn)>:\*|<(DataVaultContent[A-Za-z0-9]+\.Arn|referencetoTestStackDataVaultContent[A-Z0-9]+Arn)>\/\*)\]$/,
      );
    }
    // The areas' grants are among them (the rules above reach into the nested stacks).
    expect(ids.some((i) => i.includes('<referencetoTestStackDataWebhooksTable'))).toBe(true);
  });

  it('puts a WAF web ACL in front of the production API only', () => {
    const prod = synthStack({ stage: 'prod' }).template;
    prod.resourceCountIs('AWS::WAFv2::WebACLAssociation', 1);
    prod.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'REGIONAL',
      DefaultAction: { Allow: {} },
      Rules: [
        { Name: 'AWSManagedRulesAmazonIpReputationList' },
        { Name: 'AWSManagedRulesKnownBadInputsRuleSet' },
        {
          Name: 'PerAddressRate',
          Action: { Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: 'rateLimited' } } },
          Statement: {
            RateBasedStatement: { Limit: 10000, AggregateKeyType: 'IP', EvaluationWindowSec: 300 },
          },
        },
      ].map((rule) => Match.objectLike(rule)),
    });
    synthStack({ stage: 'dev' }).template.resourceCountIs('AWS::WAFv2::WebACL', 0);
  });

  it('attaches no managed policy (no AWSLambdaBasicExecutionRole) but to the API Gateway account logging role', () => {
    const { template } = synthStack();
    const roles = template.findResources('AWS::IAM::Role') as Record<
      string,
      { Properties: Record<string, unknown> }
    >;
    const accountRole = (
      Object.values(template.findResources('AWS::ApiGateway::Account'))[0]!.Properties as {
        CloudWatchRoleArn: { 'Fn::GetAtt': [string] };
      }
    ).CloudWatchRoleArn['Fn::GetAtt'][0];
    for (const [id, role] of Object.entries(roles)) {
      // Dev only: CDK's provider that empties the buckets on `cdk destroy`.
      const autoDelete = id.startsWith('CustomS3AutoDeleteObjectsCustomResourceProviderRole');
      expect({ id, managed: JSON.stringify(role.Properties.ManagedPolicyArns) }).toEqual({
        id,
        managed:
          id === accountRole
            ? expect.stringContaining('AmazonAPIGatewayPushToCloudWatchLogs')
            : autoDelete
              ? expect.stringContaining('AWSLambdaBasicExecutionRole')
              : undefined,
      });
    }
  });
});
