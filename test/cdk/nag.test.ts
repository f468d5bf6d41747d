// cdk-nag's AwsSolutions pack over the synthesized stack, both stages: no finding may be left that is
// not acknowledged with a reason (lib/nag.ts), and the acknowledgements stay narrow.
import { Validations } from 'aws-cdk-lib';
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
        { Name: 'PerForwardedAddressRate' },
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
