#!/usr/bin/env node
// CDK app: `npx cdk synth` (offline) / `npx cdk deploy -c stage=dev|prod`.
import { App } from 'aws-cdk-lib';
import { ServiceStack } from '../lib/service-stack';
import { stageConfig } from '../lib/stage-config';

const app = new App();
const stage = stageConfig(app.node);
new ServiceStack(app, `ConnectorEventService-${stage.stage}`, {
  stage,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  description: 'Connectors (hosted OAuth) and signed event delivery',
});
