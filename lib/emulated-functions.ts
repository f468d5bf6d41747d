// What the emulated AWS runtime needs to run the synthesized application's functions as Lambda runs
// them: each function of the template with its handler module, memory, timeout and
// environment variables as the template sets them, and its bundle built with the same esbuild options
// `cdk synth` uses (lambdaBuildOptions). A variable the template sets to a reference to a resource
// of the stack is named by the stack's name of that resource (table:platform, queue:events,
// key:envelope, ...), the vocabulary the IAM check uses too, for the runtime to resolve to what it
// provisioned at the emulator.
import type { CfnResource } from 'aws-cdk-lib';
import { Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { build } from 'esbuild';
import { dirname } from 'node:path';
import { STATE_KEY_ENV } from '../functions/connectors';
import { clientSecretName } from '../functions/connectors/infra/config';
import type { ProviderId } from '../functions/connectors/domain/providers';
import { QUEUE_NAMES, QUEUE_WORKERS } from '../functions/platform/workers';
import { TABLE_NAMES } from '../functions/platform/tables';
import type { TemplateValue } from '../functions/dev-runtime/emulated-aws/function-pool';
import type {
  ApiMethodSpec,
  EventSourceSpec,
  FunctionSpec,
  PermissionSpec,
  ProvisionedType,
  ResourceSpec,
  ResourceValue,
  ScheduleSpec,
} from '../functions/dev-runtime/emulated-aws/application';
import { PROVISIONED_TYPES, bundleFileOf } from '../functions/dev-runtime/emulated-aws/application';

export type { ApiMethodSpec, EventSourceSpec, FunctionSpec, PermissionSpec, ResourceSpec, ScheduleSpec };
export { bundleFileOf };
import type { ServiceFunction } from './service-function';
import { GRANTS_POLICY, lambdaBuildOptions } from './service-function';
import type { ServiceStack } from './service-stack';

/**
 * A deployment parameter in the template: the emulated runtime synthesizes with these placeholders
 * where a deployment's context names its own endpoints (the sandbox's URLs, the console's identity
 * provider, the public base URL), so one synthesized template serves every start, and gives each its
 * value when it starts a function, as CloudFormation gives a parameter's value at deploy time.
 */
export const PARAMETER_ORIGIN = 'https://parameter.invalid';
export const parameterPlaceholder = (name: string): string => `${PARAMETER_ORIGIN}/${name}`;
const parameterOf = (value: string): string | undefined =>
  value.startsWith(`${PARAMETER_ORIGIN}/`) ? value.slice(PARAMETER_ORIGIN.length + 1) : undefined;

/** A construct's logical id in its own stack (the parent's, or its area's nested stack). */
const logicalIdOf = (element: { node: { defaultChild?: unknown } } | CfnResource): string => {
  const resource = (
    'node' in element && 'defaultChild' in element.node ? element.node.defaultChild : element
  ) as CfnResource;
  return Stack.of(resource).getLogicalId(resource);
};

/** Every function the runtimes invoke, by the id they invoke it as. */
export function functionsOfStack(stack: ServiceStack): Map<string, ServiceFunction> {
  const fns = new Map<string, ServiceFunction>(stack.api.functions);
  fns.set('apiKeyAuthorizer', stack.api.authorizerFunction);
  if (stack.api.consoleAuthorizerFunction) fns.set('consoleAuthorizer', stack.api.consoleAuthorizerFunction);
  for (const name of QUEUE_NAMES) fns.set(QUEUE_WORKERS[name].id, stack.queueWorkers.functions[name]);
  for (const [id, fn] of stack.scheduledWorkers.functions) fns.set(id, fn);
  for (const [id, fn] of Object.entries(stack.purge.taskFunctions)) fns.set(id, fn as ServiceFunction);
  return fns;
}

type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;
type Statement = { Effect?: string; Action: string | string[]; Resource: unknown };
type InlinePolicy = { PolicyName: string; PolicyDocument: { Statement: Statement[] } };

/** A function's execution role, by its logical id. */
export const roleIdOf = (_stack: ServiceStack, fn: ServiceFunction): string =>
  Stack.of(fn).getLogicalId(fn.fn.role!.node.defaultChild as never);

/**
 * The grants of a role, by the role's logical id: its policy resources, and the inline policy a
 * function role keeps its grants in (lib/service-function.ts). Not the function's log-group statement.
 */
export function statementsOfRole(template: Template, roleId: string): Statement[] {
  const role = (template.findResources('AWS::IAM::Role') as Resources)[roleId];
  const inline = ((role?.Properties.Policies ?? []) as InlinePolicy[])
    .filter((p) => p.PolicyName === GRANTS_POLICY)
    .flatMap((p) => p.PolicyDocument.Statement);
  const attached = Object.values(template.findResources('AWS::IAM::Policy') as Resources)
    .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
  return [...inline, ...attached];
}

/** The stack's names of its resources (table:platform, queue:events, ...), by logical id. */
export function resourceNamesOf(stack: ServiceStack): Map<string, string> {
  const names = new Map<string, string>();
  const add = (construct: { node: { defaultChild?: unknown } }, name: string) => {
    // A resource imported by ARN (a secret managed elsewhere) has none: its statements name a literal ARN.
    if (construct.node.defaultChild) names.set(logicalIdOf(construct), name);
  };
  for (const table of TABLE_NAMES) add(stack.data.tables[table], `table:${table}`);
  for (const queue of QUEUE_NAMES) {
    add(stack.messaging.queues[queue].queue, `queue:${queue}`);
    add(stack.messaging.queues[queue].deadLetterQueue, `dlq:${queue}`);
  }
  add(stack.data.key, 'key:envelope');
  add(stack.data.vaultBucket, 'bucket:vault-content');
  add(stack.purge.stateMachine, 'workflow:purge');
  add(stack.connectors.stateKey, `secret:${STATE_KEY_ENV}`);
  for (const [provider, secret] of Object.entries(stack.connectors.clientSecrets)) {
    add(secret, `secret:${clientSecretName(provider as ProviderId)}`);
  }
  for (const [name, secret] of Object.entries(stack.connectors.valueClientSecrets))
    add(secret, `secret:${name}`);
  return names;
}

/** The logical ids a template value refers to (Ref, Fn::GetAtt), in order. */
export function refsOf(value: unknown): string[] {
  const refs: string[] = [];
  JSON.stringify(value).replace(
    /"Fn::GetAtt":\["([A-Za-z0-9]+)"|"Ref":"([A-Za-z0-9]+)"/g,
    (_m, a: string | undefined, b: string | undefined) => {
      refs.push((a ?? b)!);
      return '';
    },
  );
  return refs;
}

type FunctionResource = {
  Properties: {
    MemorySize?: number;
    Timeout?: number;
    Environment?: { Variables?: Record<string, unknown> };
  };
};

/**
 * Each function as the (flattened) template defines it. A reference to one resource of the stack
 * (`Ref`, `Fn::GetAtt ... Arn`) becomes that resource's name; anything else stays unresolved, for the
 * runtime to refuse by name rather than guess.
 */
export function functionSpecs(stack: ServiceStack, template: Template): FunctionSpec[] {
  const names = resourceNamesOf(stack);
  const resources = template.findResources('AWS::Lambda::Function') as Record<string, FunctionResource>;
  return [...functionsOfStack(stack)].map(([id, fn]) => {
    const resource = resources[logicalIdOf(fn.fn)];
    if (!resource) throw new Error(`the template has no function ${id}`);
    const environment: Record<string, TemplateValue> = {};
    for (const [name, value] of Object.entries(resource.Properties.Environment?.Variables ?? {})) {
      const refs = refsOf(value);
      const parameter = typeof value === 'string' ? parameterOf(value) : undefined;
      environment[name] = parameter
        ? { parameter }
        : typeof value === 'string'
          ? value
          : refs.length === 1 && names.has(refs[0]!)
            ? { resource: names.get(refs[0]!)! }
            : { unresolved: JSON.stringify(value) };
    }
    return {
      id,
      handlerModule: fn.handlerModule,
      memorySize: resource.Properties.MemorySize ?? 128,
      timeoutSeconds: resource.Properties.Timeout ?? 3,
      environment,
    };
  });
}

type Props = { Properties: Record<string, unknown> };

/** The function ids by their logical ids in the (flattened) template. */
function functionIdsByLogicalId(stack: ServiceStack): Map<string, string> {
  return new Map([...functionsOfStack(stack)].map(([id, fn]) => [logicalIdOf(fn.fn), id]));
}

/** The template's SQS event source mappings, as the emulated runtime's event sources run them. */
export function eventSourceSpecs(stack: ServiceStack, template: Template): EventSourceSpec[] {
  const functions = functionIdsByLogicalId(stack);
  const names = resourceNamesOf(stack);
  const byId = functionsOfStack(stack);
  return Object.values(
    template.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Props>,
  ).map(({ Properties: p }) => {
    const [fnRef] = refsOf(p.FunctionName);
    const [queueRef] = refsOf(p.EventSourceArn);
    const functionId = fnRef && functions.get(fnRef);
    const queue = queueRef && names.get(queueRef);
    if (!functionId || !queue)
      throw new Error(`an event source mapping the runtime cannot resolve: ${JSON.stringify(p)}`);
    const scaling = p.ScalingConfig as { MaximumConcurrency?: number } | undefined;
    const statements = statementsOfRole(template, roleIdOf(stack, byId.get(functionId)!));
    return {
      functionId,
      queue,
      roleLacks: SQS_POLLER_ACTIONS.filter((action) => !allows(statements, action, queueRef)),
      batchSize: (p.BatchSize as number | undefined) ?? 10,
      batchingWindowSeconds: (p.MaximumBatchingWindowInSeconds as number | undefined) ?? 0,
      ...(scaling?.MaximumConcurrency ? { maxConcurrency: scaling.MaximumConcurrency } : {}),
      reportBatchItemFailures: ((p.FunctionResponseTypes as string[] | undefined) ?? []).includes(
        'ReportBatchItemFailures',
      ),
    };
  });
}

/**
 * What Lambda's SQS poller calls with the function's execution role (the mapping has no resource
 * policy of its own): without each of them on the queue, Lambda refuses the mapping at deployment.
 */
export const SQS_POLLER_ACTIONS = ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'];

/** Whether an Allow statement (and no Deny) grants `action` on the resource of logical id `resourceId`. */
function allows(statements: Statement[], action: string, resourceId: string): boolean {
  const list = (v: string | string[]) => (Array.isArray(v) ? v : [v]);
  const actionMatches = (s: Statement) =>
    list(s.Action).some((a) => new RegExp(`^${a.replace(/\*/g, '.*')}$`, 'i').test(action));
  const onResource = (s: Statement) => s.Resource === '*' || refsOf(s.Resource).includes(resourceId);
  const matching = statements.filter((s) => actionMatches(s) && onResource(s));
  return matching.some((s) => s.Effect !== 'Deny') && !matching.some((s) => s.Effect === 'Deny');
}

/** `rate(5 minutes)` in minutes; other expressions are refused by name. */
function rateMinutesOf(expression: string): number {
  const match = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/.exec(expression);
  if (!match) throw new Error(`the emulated runtime runs rate() schedules only, not ${expression}`);
  const unit = match[2]!.startsWith('minute') ? 1 : match[2]!.startsWith('hour') ? 60 : 1440;
  return Number(match[1]) * unit;
}

/** The template's schedule rules that target a function, with that function's asynchronous retries. */
export function scheduleSpecs(stack: ServiceStack, template: Template): ScheduleSpec[] {
  const functions = functionIdsByLogicalId(stack);
  const names = provisionedNamesOf(stack, template);
  const byId = functionsOfStack(stack);
  const retries = new Map<string, number>();
  const onFailure = new Map<string, { queue: string; roleLacksSend: boolean }>();
  for (const { Properties: p } of Object.values(
    template.findResources('AWS::Lambda::EventInvokeConfig') as Record<string, Props>,
  )) {
    const [fnRef] = refsOf(p.FunctionName);
    if (!fnRef) continue;
    retries.set(fnRef, (p.MaximumRetryAttempts as number | undefined) ?? 2);
    const destination = (p.DestinationConfig as { OnFailure?: { Destination: unknown } } | undefined)
      ?.OnFailure;
    const [queueRef] = destination ? refsOf(destination.Destination) : [];
    const functionId = functions.get(fnRef);
    if (queueRef && names.has(queueRef) && functionId) {
      const statements = statementsOfRole(template, roleIdOf(stack, byId.get(functionId)!));
      onFailure.set(fnRef, {
        queue: names.get(queueRef)!,
        roleLacksSend: !allows(statements, 'sqs:SendMessage', queueRef),
      });
    }
  }
  return Object.entries(template.findResources('AWS::Events::Rule') as Record<string, Props>).flatMap(
    ([ruleId, { Properties: p }]) => {
      if (typeof p.ScheduleExpression !== 'string' || p.State === 'DISABLED') return [];
      const targets =
        (p.Targets as { Arn: unknown; DeadLetterConfig?: { Arn: unknown } }[] | undefined) ?? [];
      return targets.flatMap((target) => {
        const [fnRef] = refsOf(target.Arn);
        const [queueRef] = target.DeadLetterConfig ? refsOf(target.DeadLetterConfig.Arn) : [];
        const deadLetterQueue = queueRef && names.get(queueRef);
        const functionId = fnRef && functions.get(fnRef);
        if (!functionId) return [];
        return [
          {
            functionId,
            ruleArn: arnOf(stack, template, { 'Fn::GetAtt': [ruleId, 'Arn'] }),
            rateMinutes: rateMinutesOf(p.ScheduleExpression as string),
            // Lambda's default for an asynchronous invocation without an EventInvokeConfig is 2.
            retryAttempts: retries.get(fnRef) ?? 2,
            ...(deadLetterQueue ? { deadLetterQueue } : {}),
            ...(onFailure.has(fnRef) ? { onFailure: onFailure.get(fnRef)! } : {}),
          },
        ];
      });
    },
  );
}

/**
 * Builds each handler module's bundle as `cdk synth` does (index.mjs, its chunks and their source maps:
 * the AWS SDK included), in a directory of its own under `outDir`.
 */
export async function bundleFunctions(handlerModules: string[], outDir: string): Promise<void> {
  await Promise.all(
    [...new Set(handlerModules)].map((module) =>
      build(lambdaBuildOptions(module, dirname(bundleFileOf(outDir, module)), 'beside')),
    ),
  );
}

type ApiResource = { Properties: { ParentId: unknown; PathPart: string } };
type ApiMethod = {
  Properties: {
    HttpMethod: string;
    ResourceId: unknown;
    AuthorizationType?: string;
    AuthorizerId?: unknown;
    Integration?: { Type?: string; Uri?: unknown; TimeoutInMillis?: number };
  };
};
type ApiAuthorizer = {
  Properties: { AuthorizerUri: unknown; AuthorizerResultTtlInSeconds?: number; IdentitySource?: string };
};

/**
 * The REST API's methods as the template defines them: each method's path (its resource's chain of
 * path parts up to the root), its Lambda proxy integration's function and timeout, and its REQUEST
 * authorizer's function, result TTL and identity header. A method whose integration or authorizer the
 * runtime cannot resolve is refused by name.
 */
export function apiMethodSpecs(stack: ServiceStack, template: Template): ApiMethodSpec[] {
  const functions = functionIdsByLogicalId(stack);
  const resources = template.findResources('AWS::ApiGateway::Resource') as Record<string, ApiResource>;
  const authorizers = template.findResources('AWS::ApiGateway::Authorizer') as Record<string, ApiAuthorizer>;
  const restApi = restApiOf(stack, template);
  const pathOf = (ref: unknown): string => {
    const [id] = refsOf(ref);
    const resource = id ? resources[id] : undefined;
    // The root resource (Fn::GetAtt RestApi.RootResourceId) has no path part.
    return resource ? `${pathOf(resource.Properties.ParentId)}/${resource.Properties.PathPart}` : '';
  };
  const functionOf = (ref: unknown, what: string): string => {
    const id = refsOf(ref).find((r) => functions.has(r));
    if (!id) throw new Error(`the template's ${what} names no function of the stack`);
    return functions.get(id)!;
  };
  return Object.values(template.findResources('AWS::ApiGateway::Method') as Record<string, ApiMethod>)
    .filter(({ Properties: p }) => p.Integration?.Type === 'AWS_PROXY')
    .map(({ Properties: p }) => {
      const path = pathOf(p.ResourceId) || '/';
      const [authorizerId] = p.AuthorizationType === 'CUSTOM' ? refsOf(p.AuthorizerId) : [];
      const authorizer = authorizerId ? authorizers[authorizerId] : undefined;
      if (authorizerId && !authorizer)
        throw new Error(`${p.HttpMethod} ${path}: no authorizer ${authorizerId}`);
      return {
        method: p.HttpMethod,
        path,
        functionId: functionOf(p.Integration!.Uri, `${p.HttpMethod} ${path} integration`),
        integrationTimeoutSeconds: (p.Integration!.TimeoutInMillis ?? 29_000) / 1000,
        ...(authorizer
          ? {
              authorizer: {
                functionId: functionOf(
                  authorizer.Properties.AuthorizerUri,
                  `${p.HttpMethod} ${path} authorizer`,
                ),
                ttlSeconds: authorizer.Properties.AuthorizerResultTtlInSeconds ?? 300,
                identityHeader: (
                  authorizer.Properties.IdentitySource ?? 'method.request.header.Authorization'
                ).replace(/^method\.request\.header\./, ''),
                // The source API Gateway calls an authorizer from: the API's authorizer by its id.
                sourceArn: `${restApi.arn}/authorizers/${authorizerId}`,
              },
            }
          : {}),
      };
    });
}

/**
 * An ARN of the template as a deployment resolves it: the pseudo parameters, a REST API's id (its
 * logical id stands for it), a stage's name, an authorizer's id, a rule's ARN; joined. The API Gateway
 * and EventBridge sources the runtime computes use the same ids, so the two meet.
 */
export function arnOf(stack: Stack, template: Template, value: unknown): string {
  const resources = template.toJSON().Resources as Record<
    string,
    { Type: string; Properties?: Props['Properties'] }
  >;
  const render = (v: unknown): string => {
    if (typeof v === 'string') return v;
    const node = v as Record<string, unknown>;
    if (Array.isArray(node['Fn::Join'])) {
      const [separator, parts] = node['Fn::Join'] as [string, unknown[]];
      return parts.map(render).join(separator);
    }
    if (typeof node.Ref === 'string') {
      const pseudo: Record<string, string> = {
        'AWS::Partition': 'aws',
        'AWS::Region': stack.region,
        'AWS::AccountId': stack.account,
        'AWS::URLSuffix': 'amazonaws.com',
      };
      if (pseudo[node.Ref]) return pseudo[node.Ref]!;
      const resource = resources[node.Ref];
      if (resource?.Type === 'AWS::ApiGateway::Stage') return String(resource.Properties?.StageName);
      if (resource) return node.Ref;
    }
    const getAtt = node['Fn::GetAtt'] as [string, string] | undefined;
    if (getAtt?.[1] === 'Arn' && resources[getAtt[0]]?.Type === 'AWS::Events::Rule') {
      return `arn:aws:events:${stack.region}:${stack.account}:rule/${getAtt[0]}`;
    }
    throw new Error(`an ARN the emulated runtime cannot resolve: ${JSON.stringify(v)}`);
  };
  return render(value);
}

/** The REST API's ARN prefix, as API Gateway names its sources, and its one stage's name. */
export function restApiOf(stack: Stack, template: Template): { arn: string; stage: string } {
  const [apiId] = Object.keys(template.findResources('AWS::ApiGateway::RestApi'));
  const stages = Object.values(template.findResources('AWS::ApiGateway::Stage') as Record<string, Props>);
  if (!apiId || stages.length !== 1)
    throw new Error('the emulated runtime serves one REST API with one stage');
  return {
    arn: `arn:aws:execute-api:${stack.region}:${stack.account}:${apiId}`,
    stage: String(stages[0]!.Properties.StageName),
  };
}

/** The functions' resource policies: each AWS::Lambda::Permission of the template on a function of the stack. */
export function permissionSpecs(stack: ServiceStack, template: Template): PermissionSpec[] {
  const functions = functionIdsByLogicalId(stack);
  return Object.values(template.findResources('AWS::Lambda::Permission') as Record<string, Props>).flatMap(
    ({ Properties: p }) => {
      const functionId = refsOf(p.FunctionName)
        .map((ref) => functions.get(ref))
        .find(Boolean);
      if (!functionId) return [];
      return [
        {
          functionId,
          action: String(p.Action),
          principal: String(p.Principal),
          ...(p.SourceArn !== undefined ? { sourceArn: arnOf(stack, template, p.SourceArn) } : {}),
          ...(p.SourceAccount !== undefined
            ? { sourceAccount: arnOf(stack, template, p.SourceAccount) }
            : {}),
        },
      ];
    },
  );
}

/** The kind of a provisioned type, the first part of the stack's name of a resource of it. */
const KIND_OF: Record<ProvisionedType, string> = {
  'AWS::DynamoDB::GlobalTable': 'table',
  'AWS::DynamoDB::Table': 'table',
  'AWS::SQS::Queue': 'queue',
  'AWS::KMS::Key': 'key',
  'AWS::S3::Bucket': 'bucket',
  'AWS::StepFunctions::StateMachine': 'workflow',
};

/**
 * The stack's name of every resource the runtime provisions, by logical id: the names the functions'
 * variables and the IAM check use (resourceNamesOf), and for the others (a schedules' failure queue, the
 * console's buckets) one made from the logical id: its kind and the id's words without CDK's hash,
 * `SchedulesFailuresA71BED24` → `queue:schedules-failures`.
 */
export function provisionedNamesOf(stack: ServiceStack, template: Template): Map<string, string> {
  const known = resourceNamesOf(stack);
  const names = new Map<string, string>();
  const resources = template.toJSON().Resources as Record<string, { Type: string }>;
  for (const [id, { Type }] of Object.entries(resources)) {
    const kind = KIND_OF[Type as ProvisionedType];
    if (!kind) continue;
    const words = id
      .replace(/[0-9A-F]{8}$/, '')
      .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
      .toLowerCase();
    names.set(id, known.get(id) ?? `${kind}:${words}`);
  }
  const seen = new Map<string, string>();
  for (const [id, name] of names) {
    if (seen.has(name))
      throw new Error(`two resources of the template are both ${name}: ${seen.get(name)}, ${id}`);
    seen.set(name, id);
  }
  return names;
}

/**
 * A value of the template as the runtime provisions it (ResourceValue): the pseudo parameters, a
 * rule's ARN as arnOf has it, a provisioned resource's Ref and Arn by its name,
 * a function's Arn by its id; Fn::Join and Fn::Sub joined where every part is a literal.
 */
export function resourceValueOf(
  stack: ServiceStack,
  template: Template,
  names: Map<string, string>,
): (value: unknown) => ResourceValue {
  const functions = functionIdsByLogicalId(stack);
  const types = template.toJSON().Resources as Record<string, { Type: string }>;
  const pseudo: Record<string, string> = {
    'AWS::Partition': 'aws',
    'AWS::Region': stack.region,
    'AWS::AccountId': stack.account,
    'AWS::URLSuffix': 'amazonaws.com',
    'AWS::StackName': stack.stackName,
  };
  const joined = (parts: ResourceValue[]): ResourceValue => {
    const flat = parts.flatMap((p) =>
      typeof p === 'object' && p !== null && !Array.isArray(p) && 'parts' in p && Array.isArray(p.parts)
        ? p.parts
        : [p],
    );
    return flat.every((p) => typeof p === 'string') ? flat.join('') : { parts: flat };
  };
  const reference = (id: string, attribute: string): ResourceValue => {
    if (attribute === 'Ref' && pseudo[id]) return pseudo[id]!;
    const name = names.get(id);
    if (name) return attribute === 'Ref' ? { ref: name } : attribute === 'Arn' ? { arn: name } : unresolved();
    const fn = functions.get(id);
    if (fn && attribute === 'Arn') return { arn: `function:${fn}` };
    // A rule's ARN as EventBridge names the source it calls from (the schedules' invoker uses the same).
    if (types[id]?.Type === 'AWS::Events::Rule' && attribute === 'Arn') {
      return arnOf(stack, template, { 'Fn::GetAtt': [id, 'Arn'] });
    }
    return unresolved();
    function unresolved(): ResourceValue {
      return { unresolved: attribute === 'Ref' ? `Ref ${id}` : `Fn::GetAtt ${id}.${attribute}` };
    }
  };
  const render = (value: unknown): ResourceValue => {
    if (value === null || typeof value !== 'object') return value as ResourceValue;
    if (Array.isArray(value)) return value.map(render);
    const node = value as Record<string, unknown>;
    const keys = Object.keys(node);
    if (keys.length === 1 && typeof node.Ref === 'string') return reference(node.Ref, 'Ref');
    if (keys.length === 1 && Array.isArray(node['Fn::GetAtt'])) {
      const [id, attribute] = node['Fn::GetAtt'] as [string, string];
      return reference(id, attribute);
    }
    if (keys.length === 1 && Array.isArray(node['Fn::Join'])) {
      const [separator, parts] = node['Fn::Join'] as [string, unknown[]];
      return joined(parts.map(render).flatMap((p, i) => (i ? [separator, p] : [p])));
    }
    if (keys.length === 1 && node['Fn::Sub'] !== undefined) {
      const [text, variables = {}] = (
        Array.isArray(node['Fn::Sub']) ? node['Fn::Sub'] : [node['Fn::Sub']]
      ) as [string, Record<string, unknown>?];
      const parts = text.split(/(\$\{[^}]+\})/).map((part): ResourceValue => {
        const variable = /^\$\{([^}]+)\}$/.exec(part)?.[1];
        if (!variable) return part;
        if (variable in variables) return render(variables[variable]);
        const [id, attribute] = variable.split('.') as [string, string?];
        return reference(id, attribute ?? 'Ref');
      });
      return joined(parts);
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, render(v)]));
  };
  return render;
}

/**
 * Every resource of a type the emulators provision, as the (flattened) template declares it, with its
 * properties rendered (resourceValueOf); a queue with the statements of its queue policies.
 */
export function resourceSpecs(stack: ServiceStack, template: Template): ResourceSpec[] {
  const names = provisionedNamesOf(stack, template);
  const render = resourceValueOf(stack, template, names);
  const resources = template.toJSON().Resources as Record<string, { Type: string; Properties?: unknown }>;
  const policies = new Map<string, ResourceValue[]>();
  for (const { Type, Properties } of Object.values(resources)) {
    if (Type !== 'AWS::SQS::QueuePolicy') continue;
    const p = Properties as { Queues: unknown[]; PolicyDocument: { Statement: unknown[] } };
    for (const queue of p.Queues) {
      const [id] = refsOf(queue);
      if (!id) continue;
      policies.set(id, [...(policies.get(id) ?? []), ...p.PolicyDocument.Statement.map(render)]);
    }
  }
  return Object.entries(resources)
    .filter(([, r]) => (PROVISIONED_TYPES as readonly string[]).includes(r.Type))
    .map(([logicalId, r]) => ({
      type: r.Type as ProvisionedType,
      name: names.get(logicalId)!,
      logicalId,
      properties: render(r.Properties ?? {}) as Record<string, ResourceValue>,
      ...(policies.has(logicalId)
        ? { policy: { Version: '2012-10-17', Statement: policies.get(logicalId)! } }
        : {}),
    }));
}

/** Each function's execution role's ARN, as the template names the role (its RoleName). */
export function roleArnsOf(stack: ServiceStack, template: Template): Record<string, string> {
  const roles = template.findResources('AWS::IAM::Role') as Record<string, Props>;
  const arns: Record<string, string> = {};
  for (const [id, fn] of functionsOfStack(stack)) {
    const role = roles[roleIdOf(stack, fn)];
    const name = role?.Properties.RoleName;
    if (typeof name === 'string') arns[id] = `arn:aws:iam::${stack.account}:role/${name}`;
  }
  return arns;
}
