// A WAF web ACL on the API stage (prod): refuses addresses on AWS's reputation list and requests
// carrying known exploit patterns, and caps the requests one address may make, before an authorizer
// or route Lambda runs. The per-key limit (functions/platform/rate-limit.ts) stays the customer-facing one.
import { Stack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import { CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';

export interface ApiFirewallProps {
  restApi: RestApi;
  requestsPerAddressPer5Minutes: number;
}

const visibility = (metricName: string) => ({
  cloudWatchMetricsEnabled: true,
  sampledRequestsEnabled: true,
  metricName,
});

export class ApiFirewall extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: ApiFirewallProps) {
    super(scope, id);
    // The common rule set is left out on purpose: its body-size and XSS rules refuse ordinary JSON
    // (event payloads up to 64 KiB, document text); request bodies are validated by each route.
    const managed = (name: string, priority: number) => ({
      name,
      priority,
      overrideAction: { none: {} },
      statement: { managedRuleGroupStatement: { vendorName: 'AWS', name } },
      visibilityConfig: visibility(name),
    });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name: `${Stack.of(this).stackName}-api`,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('api'),
      customResponseBodies: {
        rateLimited: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify({
            error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Too many requests from this address' },
          }),
        },
      },
      rules: [
        managed('AWSManagedRulesAmazonIpReputationList', 0),
        managed('AWSManagedRulesKnownBadInputsRuleSet', 1),
        {
          name: 'PerAddressRate',
          priority: 2,
          action: {
            block: { customResponse: { responseCode: 429, customResponseBodyKey: 'rateLimited' } },
          },
          statement: {
            rateBasedStatement: {
              limit: props.requestsPerAddressPer5Minutes,
              evaluationWindowSec: 300,
              aggregateKeyType: 'IP',
            },
          },
          visibilityConfig: visibility('PerAddressRate'),
        },
        {
          // Console traffic reaches the stage through CloudFront: its source address is an edge's,
          // shared by many people. CloudFront appends the viewer's address to X-Forwarded-For, so this
          // rule caps each client by it. The header's first address is the client's to write, so the
          // rule above (on the connecting address, edges included) stays the bound nobody can dodge.
          name: 'PerForwardedAddressRate',
          priority: 3,
          action: {
            block: { customResponse: { responseCode: 429, customResponseBodyKey: 'rateLimited' } },
          },
          statement: {
            rateBasedStatement: {
              limit: props.requestsPerAddressPer5Minutes,
              evaluationWindowSec: 300,
              aggregateKeyType: 'FORWARDED_IP',
              forwardedIpConfig: { headerName: 'X-Forwarded-For', fallbackBehavior: 'NO_MATCH' },
            },
          },
          visibilityConfig: visibility('PerForwardedAddressRate'),
        },
      ],
    });
    new CfnWebACLAssociation(this, 'Association', {
      resourceArn: props.restApi.deploymentStage.stageArn,
      webAclArn: this.webAcl.attrArn,
    });
  }
}
