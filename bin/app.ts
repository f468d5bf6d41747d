#!/usr/bin/env node
// CDK app: `npx cdk synth` (offline) / `npx cdk deploy -c stage=dev|prod`.
import { App } from 'aws-cdk-lib';
import { ConsoleEdgeStack } from '../lib/firewall';
import { ServiceStack } from '../lib/service-stack';
import { stageConfig } from '../lib/stage-config';

const app = new App();
const stage = stageConfig(app.node);
const name = `ConnectorEventService-${stage.stage}`;
const account = process.env.CDK_DEFAULT_ACCOUNT;
new ServiceStack(app, name, {
  stage,
  env: { account, region: process.env.CDK_DEFAULT_REGION },
  description: 'Connectors (hosted OAuth) and signed event delivery',
});
// The console distribution's web ACL lives in us-east-1 (CloudFront reads it only there): deployed on
// its own, before the service stack, which is given its ARN (docs/deploy.md).
if (stage.firewall) {
  new ConsoleEdgeStack(app, `${name}-edge`, {
    env: { account },
    description: "The console distribution's web ACL (us-east-1)",
    settings: {
      requestsPerAddressPer5Minutes: stage.firewall.requestsPerAddressPer5Minutes,
      logRetention: stage.logRetention,
      removalPolicy: stage.removalPolicy,
    },
  });
}
