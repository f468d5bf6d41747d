// The service stack: composes the bounded contexts; no business logic here.
import type { StackProps } from 'aws-cdk-lib';
import { Annotations, Aspects, CfnOutput, Stack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { TABLE_DEFINITIONS, TABLE_NAMES, WORKFLOW_ARN_ENV } from '../functions/platform/tables';
import { Api } from './api';
import { AreaStacks } from './area-stacks';
import { ConnectorSettings, connectorContext } from './connectors';
import { ConsoleHosting } from './console-hosting';
import { DataStores } from './data';
import { ApiFirewall, CLOUDFRONT_REGION, EdgeFirewall, ORIGIN_VERIFY_HEADER } from './firewall';
import { Messaging } from './messaging';
import { NagAcknowledgements } from './nag';
import { Observability } from './observability';
import { PurgeWorkflow } from './purge';
import type { StageConfig } from './stage-config';
import { QueueWorkers, ScheduledWorkers } from './workers';

export interface ServiceStackProps extends StackProps {
  stage: StageConfig;
}

export class ServiceStack extends Stack {
  readonly data: DataStores;
  readonly messaging: Messaging;
  readonly api: Api;
  readonly connectors: ConnectorSettings;
  readonly queueWorkers: QueueWorkers;
  readonly scheduledWorkers: ScheduledWorkers;
  readonly purge: PurgeWorkflow;
  /** One nested stack per area: its route and worker functions, roles, schedules and alarms. */
  readonly areas: AreaStacks;

  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, props);
    this.data = new DataStores(this, 'Data', props.stage);
    this.messaging = new Messaging(this, 'Messaging');
    this.connectors = new ConnectorSettings(this, 'Connectors', {
      stage: props.stage,
      context: connectorContext(this.node.tryGetContext('connectors')),
    });
    this.areas = new AreaStacks(this);
    // The worker table's queue consumers and schedules (functions/platform/workers.ts).
    const workers = {
      functionScope: (handler: string) => this.areas.scopeFor(handler),
      stage: props.stage,
      data: this.data,
      messaging: this.messaging,
      environmentFor: this.connectors.environmentFor,
      bindSecrets: this.connectors.bindSecrets,
    };
    this.queueWorkers = new QueueWorkers(this, 'Workers', workers);
    this.api = new Api(this, 'Api', {
      stage: props.stage,
      data: this.data,
      messaging: this.messaging,
      environmentFor: this.connectors.environmentFor,
      bindSecrets: this.connectors.bindSecrets,
      functionScope: (route) => this.areas.scopeFor(route.handler),
    });
    const purge = (this.purge = new PurgeWorkflow(this, 'Purge', {
      stage: props.stage,
      data: this.data,
      messaging: this.messaging,
      functionScope: (handler) => this.areas.scopeFor(handler, 'workflow'),
    }).bindRoutes(this.api.functions));
    const firewall = this.firewalls(props.stage);
    Aspects.of(this).add(new NagAcknowledgements());
    this.scheduledWorkers = new ScheduledWorkers(this, 'Schedules', workers);
    // Last: it finds every function, queue, state machine and schedule made above.
    new Observability(this, 'Observability', {
      stage: props.stage,
      restApi: this.api.restApi,
      messaging: this.messaging,
    });

    const console = new ConsoleHosting(this, 'Console', {
      stage: props.stage,
      restApi: this.api.restApi,
      webAclArn: firewall?.consoleWebAclArn,
      apiOriginHeaders: firewall?.api.originVerify
        ? { [ORIGIN_VERIFY_HEADER]: firewall.api.originVerify }
        : undefined,
    });
    if (props.stage.stage === 'prod' && !props.stage.consoleDomain) {
      Annotations.of(this).addWarning(
        'No consoleDomainName/consoleCertificateArn: the console answers on *.cloudfront.net, whose default certificate still accepts TLS 1.0 and 1.1 (docs/deploy.md, "Context")',
      );
    }

    new CfnOutput(this, 'ApiUrl', { value: this.api.restApi.url });
    new CfnOutput(this, 'ConsoleUrl', {
      value: `https://${console.distribution.distributionDomainName}/console/`,
      description: 'The console; the API is served on the same origin',
    });
    new CfnOutput(this, 'ConsoleBucket', {
      value: console.bucket.bucketName,
      description: 'npm run console:build && aws s3 sync dist/console s3://<value>/console',
    });
    new CfnOutput(this, 'KmsKeyId', { value: this.data.key.keyArn });
    new CfnOutput(this, 'VaultBucket', {
      value: this.data.vaultBucket.bucketName,
      description: "The vault stand-in's document content (VAULT_BUCKET)",
    });
    new CfnOutput(this, 'StateMachinePurgeArn', {
      value: purge.stateMachine.stateMachineArn,
      description: `export ${WORKFLOW_ARN_ENV.purge}=<value> for the integration tier on a deployed stack`,
    });
    for (const name of TABLE_NAMES) {
      new CfnOutput(this, `${TABLE_DEFINITIONS[name].envVar.replace(/_/g, '')}`, {
        value: this.data.tables[name].tableName,
        description: `export ${TABLE_DEFINITIONS[name].envVar}=<value> for the admin CLI`,
      });
    }
  }

  /**
   * The production web ACLs: the API stage's here, and the console distribution's, which CloudFront
   * reads from us-east-1 only: made here when the stack is there, otherwise by the edge stack
   * (bin/app.ts) and given as `consoleWebAclArn`. Without it, synthesis warns and the API's rule counts
   * console traffic by edge address, as before the distribution had an ACL.
   */
  private firewalls(stage: StageConfig) {
    if (!stage.firewall) return undefined;
    const settings = {
      requestsPerAddressPer5Minutes: stage.firewall.requestsPerAddressPer5Minutes,
      logRetention: stage.logRetention,
      removalPolicy: stage.removalPolicy,
    };
    let consoleWebAclArn = stage.firewall.consoleWebAclArn;
    if (!consoleWebAclArn && this.region === CLOUDFRONT_REGION) {
      consoleWebAclArn = new EdgeFirewall(this, 'EdgeFirewall', {
        ...settings,
        name: `${this.stackName}-console`,
      }).webAcl.attrArn;
    }
    if (!consoleWebAclArn) {
      Annotations.of(this).addWarning(
        `The console distribution has no web ACL: deploy ${this.stackName}-edge (us-east-1) first and pass its ConsoleWebAclArn output as -c consoleWebAclArn=... (docs/deploy.md); until then the API's rate rule counts console users by CloudFront edge address`,
      );
    }
    const api = new ApiFirewall(this, 'Firewall', {
      restApi: this.api.restApi,
      ...settings,
      edgeCounted: consoleWebAclArn !== undefined,
    });
    return { api, consoleWebAclArn };
  }
}
