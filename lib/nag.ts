// cdk-nag (AwsSolutions) acknowledgements, each with the reason it is accepted. Findings are matched
// narrowly: a wildcard is acknowledged only for the resource and actions named here, so a new one
// fails test/cdk/nag.test.ts until someone decides about it.
import type { IAspect } from 'aws-cdk-lib';
import { CfnResource, Names, Stack, Validations } from 'aws-cdk-lib';
import { CfnMethod, CfnRestApi, CfnStage, RestApi } from 'aws-cdk-lib/aws-apigateway';
import { CfnDistribution } from 'aws-cdk-lib/aws-cloudfront';
import { CfnTable, CfnGlobalTable } from 'aws-cdk-lib/aws-dynamodb';
import { CfnPolicy, CfnRole } from 'aws-cdk-lib/aws-iam';
import { CfnSecret } from 'aws-cdk-lib/aws-secretsmanager';
import { CfnStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
// The flattening cdk-nag itself uses to name a finding, so an acknowledgement names exactly that.
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import type { IConstruct } from 'constructs';
import { ROUTES } from '../functions/routes';

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** Wildcard resources we accept, by the actions a statement carries on them. */
const WILDCARDS: {
  why: string;
  resource: (finding: string, tables: string[]) => boolean;
  actions: RegExp;
}[] = [
  {
    why: 'X-Ray trace and sampling APIs (PutTraceSegments, PutTelemetryRecords, GetSampling*) have no resource-level permissions; active tracing needs them on *',
    resource: (finding) => finding === '*',
    actions: /^xray:(PutTraceSegments|PutTelemetryRecords|GetSamplingRules|GetSamplingTargets)$/,
  },
  {
    why: 'Step Functions log delivery (CreateLogDelivery, DescribeLogGroups, ...) has no resource-level permissions; the state machine logs to its own group',
    resource: (finding) => finding === '*',
    actions:
      /^logs:(CreateLogDelivery|GetLogDelivery|UpdateLogDelivery|DeleteLogDelivery|ListLogDeliveries|PutResourcePolicy|DescribeResourcePolicies|DescribeLogGroups)$/,
  },
  {
    why: "Query on the service's own table's secondary indexes (gsi1, gsi2), which the Table port reads; the table itself is named",
    resource: (finding, tables) =>
      tables.some((t) => finding === `<${t}.Arn>/index/*` || finding === `<referenceto${t}Arn>/index/*`),
    actions:
      /^dynamodb:(GetItem|Query|PutItem|UpdateItem|DeleteItem|ConditionCheckItem|BatchGetItem|Scan|GetRecords|GetShardIterator|DescribeTable)$/,
  },
  {
    why: 'DescribeExecution on executions of our own purge state machine: execution names are job ids, made at run time',
    resource: (finding) => /:execution:.*:\*$/.test(finding),
    actions: /^states:DescribeExecution$/,
  },
  {
    why: 'InvokeFunction on the versions and aliases (":*") of the two purge task functions, which the state machine names',
    resource: (finding) =>
      /^<(Purge[A-Za-z0-9]+Function[A-Za-z0-9]+\.Arn|[A-Za-z0-9]+\.Outputs\.[A-Za-z0-9]+WorkflowArea(PurgePage|FinishPurge)Function[A-Za-z0-9]+Arn)>:\*$/.test(
        finding,
      ),
    actions: /^lambda:InvokeFunction$/,
  },
  {
    why: "Objects of the vault stand-in's own content bucket: keys are organization/vault/document/version, made at run time; the bucket itself is named",
    resource: (finding) =>
      /^<(DataVaultContent[A-Za-z0-9]+\.Arn|referenceto[A-Za-z0-9]*DataVaultContent[A-Za-z0-9]+Arn)>\/\*$/.test(
        finding,
      ),
    actions: /^s3:(GetObject|PutObject|DeleteObject|AbortMultipartUpload)$/,
  },
];

/** Why each public route (no authorizer) is public; a new public route needs its own line here. */
const PUBLIC_ROUTES: Record<string, string> = {
  showConnectLink:
    "Opened by the end user's browser: shows a page for a one-time 256-bit connect token, read-only, spends nothing",
  openConnectLink:
    "Opened by the end user's browser: the connect link is a one-time 256-bit token, only its hash stored, consumed with a conditional write",
  oauthCallback:
    "The provider redirects the user's browser here: the HMAC-signed state, the browser-binding cookie and PKCE authenticate the flow",
  getOpenApi: 'The API description is public documentation: the function touches no table, key or queue',
  openPortalLink:
    "Opened by a sign-in link in the user's browser: a page that holds nothing; the link's secret stays in the fragment",
  exchangePortalLink:
    'The sign-in link is a one-time 256-bit token, only its hash stored, consumed with a conditional write; only from the console page (custom header, JSON, same origin)',
  readSession:
    "Reads the browser's own console session (the bearer the edge makes of its cookie): answers 401 without one",
  signOut: "Ends the browser's own console session; only from the console page (custom header, same origin)",
  showPortal:
    "The console page for a session id (not a secret): holds nothing; framing limited to the organization's allowed origins",
};

/** The one AWS managed policy the stack attaches, and only to API Gateway's account-level logging role. */
export const API_GATEWAY_LOGS_POLICY =
  'arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs';

/** The role RestApi makes for the account's API Gateway logging setting (`cloudWatchRole: true`). */
const isApiGatewayAccountRole = (node: CfnResource): boolean =>
  node instanceof CfnRole &&
  node.node.scope?.node.id === 'CloudWatchRole' &&
  node.node.scope.node.scope instanceof RestApi;

/** CDK's custom-resource provider for `autoDeleteObjects`: its role and function (CfnResource, not L2). */
const isAutoDeleteProvider = (node: CfnResource): boolean =>
  node.node.scope?.node.id === 'Custom::S3AutoDeleteObjectsCustomResourceProvider';

/** A queue no other queue redrives into: the dead-letter queues and the scheduled runs' failures queue. */
const isEndOfRedrive = (node: CfnResource): boolean =>
  node.node.scope?.node.id === 'Dlq' || node.node.scope?.node.id === 'Failures';

/**
 * Why a function has no Lambda dead-letter queue (DeadLetterConfig applies to asynchronous
 * invocations). The scheduled sweeps are the functions with an asynchronous-invocation configuration
 * (EventBridge invokes them asynchronously; lib/workers.ts sets their on-failure destination).
 */
function lambdaDlqReason(node: CfnResource): string {
  const scheduled = node.node.scope?.node.tryFindChild('EventInvokeConfig') !== undefined;
  return scheduled
    ? "A scheduled sweep, invoked asynchronously by EventBridge: its failures go to an on-failure destination (the scheduled runs' Failures queue, alarmed), which records the error with the event, unlike a DeadLetterConfig; Lambda retries are 0 by design (the next run finds everything still due)"
    : 'Invoked synchronously (API Gateway, an SQS event source, Step Functions, CloudFormation): a Lambda dead-letter queue applies to asynchronous invocations only; failures return to the caller, the queue redrive or the state machine Catch';
}

/** Why a secret has no rotation schedule: what it holds decides how it is rotated. */
function secretRotationReason(node: CfnSecret): string {
  if (node.node.scope?.node.id === 'OriginVerify')
    return 'The value the console distribution sends the API and the API web ACL matches (lib/firewall.ts): both read it at deployment through a dynamic reference, so rotating it is a put-secret-value followed by a deploy (docs/deploy.md); a rotation Lambda would change it under both without updating either';
  if (node.generateSecretString !== undefined)
    return 'The generated OAuth state-signing key: rotated by hand (put-secret-value of 64 random characters, docs/deploy.md), which ends the consent flows in progress; the functions read it at run time, so a scheduled rotation would gain nothing but those interruptions';
  return "Holds an OAuth client secret issued by a provider: it is rotated at the provider, then put with put-secret-value (the functions read it at run time, docs/deploy.md); no rotation Lambda can mint a provider's client secret";
}

/** Why the console distribution has no web ACL: a dev stack has none; prod without one warns at synthesis. */
function distributionWithoutAclReason(node: CfnResource): string {
  const stack = Stack.of(node);
  return stack.node.tryFindChild('Firewall')
    ? "Production without a CloudFront web ACL: the edge stack's ConsoleWebAclArn was not given and the stack is not in us-east-1, so synthesis warns and the API's regional web ACL counts console traffic by edge address until it is (docs/deploy.md)"
    : 'Development stage: no web ACL on the distribution or the API (a production cost, lib/stage-config.ts firewall); the API keeps its per-key rate limits and API Gateway throttling';
}

const AUTHORIZED_ROUTE =
  'API keys (hashed, per organization) and console sessions (the console identity provider JWTs) are checked by Lambda authorizers; there is no Cognito user pool in this design';

/**
 * A policy as CloudFormation will read it once references across stacks are wired (the areas' nested
 * stacks, lib/area-stacks.ts), which is how cdk-nag names its findings: at the time aspects run, a
 * reference to another stack's resource still resolves to that resource's own logical id. A nested
 * stack reads a parent's resource through a parameter (`referenceto<unique id><attribute>`); the parent
 * reads a nested stack's resource through an output of the nested stack's resource.
 */
function acrossStacks(stack: Stack, resolved: unknown): unknown {
  const { owners, mine } = resourcesAround(stack);
  const foreign = (id: unknown): CfnResource | undefined => {
    if (typeof id !== 'string' || mine.has(id)) return undefined;
    const owner = owners.get(id);
    return owner && Stack.of(owner) !== stack ? owner : undefined;
  };
  const wired = (target: CfnResource, attribute: string): unknown => {
    const name = `${Names.nodeUniqueId(target.node)}${attribute}`;
    const from = Stack.of(target);
    if (from.nestedStackParent === stack && from.nestedStackResource) {
      return {
        'Fn::GetAtt': [stack.getLogicalId(from.nestedStackResource as CfnResource), `Outputs.${name}`],
      };
    }
    return { Ref: `referenceto${name}` };
  };
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== 'object') return value;
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 1) {
      const [key, arg] = entries[0]!;
      const ref = key === 'Ref' ? foreign(arg) : undefined;
      if (ref) return wired(ref, 'Ref');
      if (key === 'Fn::GetAtt' && Array.isArray(arg)) {
        const target = foreign(arg[0]);
        if (target) return wired(target, String(arg[1]));
      }
    }
    return Object.fromEntries(entries.map(([k, v]) => [k, walk(v)]));
  };
  return walk(resolved);
}

/**
 * Every resource of the application by logical id, and the logical ids of one stack's own, found once
 * per stack: aspects run after every construct exists, and finding them again for each policy made
 * this aspect a fifth of a synthesis.
 */
const resourcesByStack = new WeakMap<Stack, { owners: Map<string, CfnResource>; mine: Set<string> }>();
const resourcesByRoot = new WeakMap<Stack, Map<string, CfnResource>>();
function resourcesAround(stack: Stack): { owners: Map<string, CfnResource>; mine: Set<string> } {
  let found = resourcesByStack.get(stack);
  if (found) return found;
  const root = rootOf(stack);
  let owners = resourcesByRoot.get(root);
  if (!owners) {
    owners = new Map();
    // A logical id can repeat across stacks; the map keeps every stack's under its own id, the first
    // one seen first, and `foreign` above re-checks the owner is another stack's.
    for (const c of root.node.findAll()) {
      if (c instanceof CfnResource) {
        const id = Stack.of(c).getLogicalId(c);
        if (!owners.has(id)) owners.set(id, c);
      }
    }
    resourcesByRoot.set(root, owners);
  }
  const mine = new Set(
    stack.node
      .findAll()
      .filter((c): c is CfnResource => c instanceof CfnResource && Stack.of(c) === stack)
      .map((c) => stack.getLogicalId(c)),
  );
  found = { owners, mine };
  resourcesByStack.set(stack, found);
  return found;
}

/** The service's tables: by logical id in the parent, by unique id where an area's stack reads them. */
const tablesByRoot = new WeakMap<Stack, string[]>();
function tablesOf(root: Stack): string[] {
  let tables = tablesByRoot.get(root);
  if (!tables) {
    tables = root.node
      .findAll()
      .filter((c) => c instanceof CfnGlobalTable || c instanceof CfnTable)
      .flatMap((c) => [root.getLogicalId(c as CfnResource), Names.nodeUniqueId(c.node)]);
    tablesByRoot.set(root, tables);
  }
  return tables;
}

const rootOf = (stack: Stack): Stack => {
  let root = stack;
  while (root.nestedStackParent) root = root.nestedStackParent;
  return root;
};

/** Adds the acknowledgements to the stack's resources at synthesis (after every construct exists). */
export class NagAcknowledgements implements IAspect {
  visit(node: IConstruct): void {
    if (!(node instanceof CfnResource)) return;
    const ack = (id: string, reason: string) => Validations.of(node).acknowledge({ id, reason });
    if (node instanceof CfnPolicy) this.wildcards(node, [node.policyDocument], ack);
    else if (node instanceof CfnRole && !isApiGatewayAccountRole(node)) {
      // Function roles keep their grants inline (lib/service-function.ts).
      const inline = (Stack.of(node).resolve(node.policies) ?? []) as { policyDocument: unknown }[];
      const reasons = this.wildcards(
        node,
        inline.map((p) => p.policyDocument),
        ack,
      );
      // The Serverless pack's view of the same wildcards: accepted only when each one was, above.
      if (reasons?.length) ack('Serverless-LambdaStarPermissions', reasons.join('; '));
    } else if (isApiGatewayAccountRole(node)) {
      ack(
        `AwsSolutions-IAM4[Policy::${API_GATEWAY_LOGS_POLICY}]`,
        "API Gateway's account-level logging role (AWS::ApiGateway::Account) serves every REST API of the account and region, so it cannot be scoped to this stack's log groups; AWS maintains this policy for exactly this role",
      );
    } else if (node instanceof CfnRestApi) {
      ack(
        'AwsSolutions-APIG2',
        'Every route validates its body, query and path with the zod schemas of the route table (functions/*/schemas.ts) and answers the common error body; a gateway model would duplicate them',
      );
    } else if (node instanceof CfnStage && !Stack.of(node).node.tryFindChild('Firewall')) {
      ack(
        'AwsSolutions-APIG3',
        'Development stage: the web ACL is a production cost (lib/stage-config.ts firewall); per-key rate limits and API Gateway throttling still apply',
      );
    } else if (node instanceof CfnMethod) {
      const route = ROUTES.find((r) => r.id === node.operationName);
      const publicReason = route?.auth === 'public' ? PUBLIC_ROUTES[route.id] : undefined;
      if (publicReason) {
        ack('AwsSolutions-APIG4', publicReason);
        ack('AwsSolutions-COG4', `No authorizer at all. ${publicReason}`);
      } else if (route && route.auth !== 'public') ack('AwsSolutions-COG4', AUTHORIZED_ROUTE);
    } else if (node instanceof CfnSecret) {
      ack('AwsSolutions-SMG4', secretRotationReason(node));
    } else if (node instanceof CfnDistribution) {
      // The console's distribution (lib/console-hosting.ts): public static files plus the API.
      ack(
        'AwsSolutions-CFR1',
        'The console serves customers wherever they are; access is decided by console sessions and API keys, not by country',
      );
      const config = Stack.of(node).resolve(node.distributionConfig) as {
        viewerCertificate?: { acmCertificateArn?: string };
        webAclId?: string;
      };
      if (!config.webAclId) ack('AwsSolutions-CFR2', distributionWithoutAclReason(node));
      if (!config.viewerCertificate?.acmCertificateArn)
        ack(
          'AwsSolutions-CFR4',
          'No custom domain given (context consoleDomainName): the default *.cloudfront.net certificate fixes the TLS floor and CloudFront ignores a minimum protocol with it; with a domain the distribution sets TLSv1.2_2021 (lib/console-hosting.ts)',
        );
    } else if (node instanceof CfnStateMachine) {
      ack(
        'AwsSolutions-SF1',
        'The purge workflow logs ALL events with their data in dev, and ERROR events without execution data in prod (its inputs are ids and counts); the full history of every execution stays in Step Functions for 90 days',
      );
    }
    if (node.cfnResourceType === 'AWS::Lambda::Function') {
      const runtime =
        'nodejs22.x is the runtime chosen for the service (docs/decisions.md, bundles target node22) and is supported by Lambda; moving to a newer one is a deliberate upgrade with its own test run';
      ack('AwsSolutions-L1', runtime);
      ack('Serverless-LambdaLatestVersion', runtime);
      ack('Serverless-LambdaDLQ', lambdaDlqReason(node));
    }
    if (isAutoDeleteProvider(node)) this.autoDeleteProvider(node, ack);
    else if (node.cfnResourceType === 'AWS::Lambda::EventSourceMapping') {
      ack(
        'Serverless-LambdaEventSourceMappingDestination',
        "An SQS event source takes no on-failure destination: a message that keeps failing returns to its queue and after maxReceiveCount moves to the queue's dead-letter queue (functions/platform/workers.ts), which is alarmed",
      );
    } else if (node.cfnResourceType === 'AWS::SQS::Queue' && isEndOfRedrive(node)) {
      const end =
        'A dead-letter queue (of a work queue, or of the scheduled runs that failed): the end of the redrive, alarmed when anything lands in it and inspected by an operator (docs/runbook.md)';
      ack('Serverless-SQSRedrivePolicy', end);
      if (node.node.scope?.node.id === 'Failures') ack('AwsSolutions-SQS3', end);
    } else if (node.cfnResourceType === 'AWS::SNS::Subscription') {
      ack(
        'Serverless-SNSRedrivePolicy',
        "The alarm topic's e-mail subscription: SNS retries an e-mail delivery itself, and an alarm that did not reach the inbox stays in ALARM on the dashboard; a dead-letter queue for alarm e-mails would need its own alarm",
      );
    }
  }

  /** CDK's provider behind `autoDeleteObjects` (dev only): empties the buckets when the stack is deleted. */
  private autoDeleteProvider(node: CfnResource, ack: (id: string, reason: string) => void): void {
    const why =
      "CDK's own auto-delete provider (dev stage only, lib/stage-config.ts autoDeleteObjects), which empties the buckets when the stack is deleted so `cdk destroy -c stage=dev` goes through; CDK owns its role and function";
    if (node.cfnResourceType === 'AWS::IAM::Role') {
      ack(
        `AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]`,
        why,
      );
    } else {
      for (const rule of [
        'Serverless-LambdaDefaultMemorySize',
        'Serverless-LambdaDefaultTimeout',
        'Serverless-LambdaTracing',
        'Serverless-LambdaLogLevel',
        'Serverless-LambdaLogging',
        'Serverless-LambdaConcurrency',
      ])
        ack(rule, why);
    }
  }

  /** Acknowledges each accepted wildcard; returns the reasons when every wildcard was accepted. */
  private wildcards(
    node: CfnResource,
    documents: unknown[],
    ack: (id: string, reason: string) => void,
  ): string[] | undefined {
    const stack = Stack.of(node);
    const tables = tablesOf(rootOf(stack));
    const statements = documents.flatMap(
      (d) =>
        (acrossStacks(stack, stack.resolve(d)) as { Statement?: Statement[] } | undefined)?.Statement ?? [],
    );
    // Each wildcard resource, flattened as cdk-nag names it, with the actions granted on it.
    const granted = new Map<string, string[]>();
    for (const statement of statements.filter((s) => s.Effect === 'Allow')) {
      for (const resource of list(statement.Resource).map(flattenCfnReference)) {
        if (resource.includes('*'))
          granted.set(resource, [...(granted.get(resource) ?? []), ...list(statement.Action)]);
      }
    }
    const all = new Set<string>();
    let everyAccepted = true;
    for (const [resource, actions] of granted) {
      // Every action granted on the wildcard must be accepted by one of the rules naming it.
      const fitting = WILDCARDS.filter((w) => w.resource(resource, tables));
      const reasons = new Set<string>();
      const accepted = actions.every((a) => {
        const rule = fitting.find((w) => w.actions.test(a));
        if (rule) reasons.add(rule.why);
        return rule !== undefined;
      });
      if (accepted && reasons.size) ack(`AwsSolutions-IAM5[Resource::${resource}]`, [...reasons].join('; '));
      if (!accepted) everyAccepted = false;
      for (const reason of reasons) all.add(reason);
    }
    return everyAccepted ? [...all] : undefined;
  }
}
