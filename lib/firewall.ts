// WAF web ACLs (prod): one on the API stage (REGIONAL) and one on the console distribution
// (CLOUDFRONT). Each refuses addresses on AWS's reputation list and requests carrying known exploit
// patterns, and caps the requests one address may make, before an authorizer or route Lambda runs.
// The per-key limit (functions/platform/rate-limit.ts) stays the customer-facing one.
//
// Where each address is counted: a rate rule keys on the connecting address, the one address a client
// cannot write. At the distribution that is the viewer's; at the API stage, for console traffic, it is a
// CloudFront edge's, shared by everyone behind it, and X-Forwarded-For's first entry is the client's own
// text. So console traffic is counted at the edge, and the API's rule counts every request except those
// carrying the distribution's origin-verify header, whose value only the distribution and this ACL know.
import type { StackProps } from 'aws-cdk-lib';
import type { RemovalPolicy } from 'aws-cdk-lib';
import { ArnFormat, CfnOutput, Stack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { CfnLoggingConfiguration, CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';

/** The header CloudFront adds to every request it sends the API (an origin custom header). */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

export interface FirewallSettings {
  requestsPerAddressPer5Minutes: number;
  /** How long the ACL's request logs are kept. */
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
}

const visibility = (metricName: string) => ({
  cloudWatchMetricsEnabled: true,
  sampledRequestsEnabled: true,
  metricName,
});

const RATE_LIMITED_BODY = {
  rateLimited: {
    contentType: 'APPLICATION_JSON',
    content: JSON.stringify({
      error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Too many requests from this address' },
    }),
  },
};

// The common rule set is left out on purpose: its body-size and XSS rules refuse ordinary JSON
// (event payloads up to 64 KiB, document text); request bodies are validated by each route.
const managed = (name: string, priority: number): CfnWebACL.RuleProperty => ({
  name,
  priority,
  overrideAction: { none: {} },
  statement: { managedRuleGroupStatement: { vendorName: 'AWS', name } },
  visibilityConfig: visibility(name),
});

/** The cap per connecting address; `scopeDownStatement` narrows which requests it counts. */
const perAddressRate = (
  limit: number,
  scopeDownStatement?: CfnWebACL.StatementProperty,
): CfnWebACL.RuleProperty => ({
  name: 'PerAddressRate',
  priority: 2,
  action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: 'rateLimited' } } },
  statement: {
    rateBasedStatement: {
      limit,
      evaluationWindowSec: 300,
      aggregateKeyType: 'IP',
      ...(scopeDownStatement ? { scopeDownStatement } : {}),
    },
  },
  visibilityConfig: visibility('PerAddressRate'),
});

/**
 * Request logs to CloudWatch Logs (the group's name must start with `aws-waf-logs-`), without what
 * carries credentials or one-time values: the bearer, the console cookie, the origin-verify value, the
 * query string (OAuth `code` and `state`) and the path (connect-link tokens).
 */
function logRequests(scope: Construct, acl: CfnWebACL, name: string, settings: FirewallSettings): LogGroup {
  const logGroupName = `aws-waf-logs-${name}`;
  const group = new LogGroup(scope, 'Logs', {
    logGroupName,
    retention: settings.logRetention,
    removalPolicy: settings.removalPolicy,
  });
  const logging = new CfnLoggingConfiguration(scope, 'Logging', {
    resourceArn: acl.attrArn,
    // WAF takes the group's ARN without the `:*` that LogGroup.logGroupArn carries.
    logDestinationConfigs: [
      Stack.of(scope).formatArn({
        service: 'logs',
        resource: 'log-group',
        resourceName: logGroupName,
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      }),
    ],
    redactedFields: [
      { singleHeader: { Name: 'authorization' } },
      { singleHeader: { Name: 'cookie' } },
      { singleHeader: { Name: ORIGIN_VERIFY_HEADER } },
      { queryString: {} },
      { uriPath: {} },
    ],
  });
  logging.node.addDependency(group);
  return group;
}

export interface ApiFirewallProps extends FirewallSettings {
  restApi: RestApi;
  /** Whether the console distribution has a web ACL of its own that counts its viewers. */
  edgeCounted: boolean;
}

export class ApiFirewall extends Construct {
  readonly webAcl: CfnWebACL;
  /**
   * The origin-verify value the distribution sends the API, when console traffic is counted at the
   * edge: a dynamic reference, resolved by CloudFormation at deployment, never in the template.
   */
  readonly originVerify?: string;

  constructor(scope: Construct, id: string, props: ApiFirewallProps) {
    super(scope, id);
    let exceptFromDistribution: CfnWebACL.StatementProperty | undefined;
    if (props.edgeCounted) {
      const secret = new Secret(this, 'OriginVerify', {
        description:
          'Sent by the console distribution to the API (x-origin-verify): the API web ACL leaves such requests to the distribution ACL, which counted them by viewer address',
        generateSecretString: { excludePunctuation: true, passwordLength: 48 },
        removalPolicy: props.removalPolicy,
      });
      this.originVerify = secret.secretValue.unsafeUnwrap();
      exceptFromDistribution = {
        notStatement: {
          statement: {
            byteMatchStatement: {
              fieldToMatch: { singleHeader: { Name: ORIGIN_VERIFY_HEADER } },
              positionalConstraint: 'EXACTLY',
              searchString: this.originVerify,
              textTransformations: [{ priority: 0, type: 'NONE' }],
            },
          },
        },
      };
    }
    const name = `${Stack.of(this).stackName}-api`;
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('api'),
      customResponseBodies: RATE_LIMITED_BODY,
      rules: [
        managed('AWSManagedRulesAmazonIpReputationList', 0),
        managed('AWSManagedRulesKnownBadInputsRuleSet', 1),
        perAddressRate(props.requestsPerAddressPer5Minutes, exceptFromDistribution),
      ],
    });
    new CfnWebACLAssociation(this, 'Association', {
      resourceArn: props.restApi.deploymentStage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
    logRequests(this, this.webAcl, name, props);
  }
}

/**
 * The console distribution's web ACL. CloudFront reads web ACLs of scope CLOUDFRONT from us-east-1
 * only, so this construct must be in a stack deployed there: the service stack itself when it is in
 * us-east-1, otherwise ConsoleEdgeStack (bin/app.ts), whose output the service stack is given.
 */
export class EdgeFirewall extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: FirewallSettings & { name: string }) {
    super(scope, id);
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: props.name,
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('console'),
      customResponseBodies: RATE_LIMITED_BODY,
      rules: [
        managed('AWSManagedRulesAmazonIpReputationList', 0),
        managed('AWSManagedRulesKnownBadInputsRuleSet', 1),
        // At the edge the connecting address is the viewer's own.
        perAddressRate(props.requestsPerAddressPer5Minutes),
      ],
    });
    logRequests(this, this.webAcl, props.name, props);
  }
}

/** The region CloudFront reads web ACLs (and certificates) from. */
export const CLOUDFRONT_REGION = 'us-east-1';

/**
 * The console distribution's web ACL, for a service stack in another region: deployed first, its
 * `ConsoleWebAclArn` output given to the service stack as `-c consoleWebAclArn=...` (docs/deploy.md).
 */
export class ConsoleEdgeStack extends Stack {
  readonly firewall: EdgeFirewall;

  constructor(scope: Construct, id: string, props: StackProps & { settings: FirewallSettings }) {
    super(scope, id, { ...props, env: { ...props.env, region: CLOUDFRONT_REGION } });
    this.firewall = new EdgeFirewall(this, 'Firewall', { ...props.settings, name: `${id}-console` });
    new CfnOutput(this, 'ConsoleWebAclArn', {
      value: this.firewall.webAcl.attrArn,
      description: `Give it to the service stack: -c consoleWebAclArn=<value>`,
    });
  }
}
