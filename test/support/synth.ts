// Synthesizes the service stack for CDK assertion tests. Bundling is skipped unless asked for
// (it is the slow part, and wiring assertions do not need the code).
import type { CfnResource } from 'aws-cdk-lib';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ServiceStack } from '../../lib/service-stack';
import { stageConfig } from '../../lib/stage-config';
import type { ServiceFunction } from '../../lib/service-function';
import { GRANTS_POLICY } from '../../lib/service-function';

export function synthStack(
  options: { stage?: 'dev' | 'prod'; bundle?: boolean; context?: Record<string, unknown> } = {},
) {
  const app = new App({
    context: {
      stage: options.stage ?? 'dev',
      'aws:cdk:bundling-stacks': options.bundle ? ['**'] : [],
      ...options.context,
    },
  });
  const stack = new ServiceStack(app, 'TestStack', {
    stage: stageConfig(app.node),
    env: { account: '123456789012', region: 'eu-west-1' },
  });
  const parent = Template.fromStack(stack);
  return { app, stack, parent, template: flattened(stack, parent) };
}

type Json = unknown;
type TemplateJson = {
  Resources: Record<string, Json>;
  Outputs?: Record<string, { Value: Json }>;
  Parameters?: Record<string, Json>;
};

/** Replaces every `{ Ref: <name> }` of a parameter by its value, and every nested output by its value. */
function substitute(
  value: Json,
  refs: (ref: string) => Json | undefined,
  outputs: (res: string, attr: string) => Json | undefined,
): Json {
  if (Array.isArray(value)) return value.map((v) => substitute(v, refs, outputs));
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, Json>);
    if (entries.length === 1) {
      const [key, arg] = entries[0]!;
      if (key === 'Ref' && typeof arg === 'string') {
        const found = refs(arg);
        if (found !== undefined) return found;
      }
      if (
        key === 'Fn::GetAtt' &&
        Array.isArray(arg) &&
        typeof arg[1] === 'string' &&
        arg[1].startsWith('Outputs.')
      ) {
        const found = outputs(arg[0] as string, arg[1].slice('Outputs.'.length));
        if (found !== undefined) return found;
      }
    }
    return Object.fromEntries(entries.map(([k, v]) => [k, substitute(v, refs, outputs)]));
  }
  return value;
}

/**
 * The service as one template, as the single stack was before the split into a stack per area: each
 * area's nested stack's resources merged into the parent's, a reference across stacks (a nested
 * stack's parameter, a parent's use of a nested output) replaced by what it stands for. Assertions
 * about grants, wiring and alarms then read the same whichever stack a resource is in; a logical id
 * used in two stacks fails it.
 */
export function flattened(stack: ServiceStack, parent: Template = Template.fromStack(stack)): Template {
  const root = parent.toJSON() as TemplateJson;
  const nested = new Map<string, { template: TemplateJson; parameters: Record<string, Json> }>();
  for (const area of stack.areas.all()) {
    const resourceId = stack.getLogicalId(area.nestedStackResource as CfnResource);
    const resource = root.Resources[resourceId] as { Properties: { Parameters?: Record<string, Json> } };
    nested.set(resourceId, {
      template: Template.fromStack(area).toJSON() as TemplateJson,
      parameters: resource.Properties.Parameters ?? {},
    });
  }
  const outputOf = (res: string, attr: string): Json | undefined => {
    const n = nested.get(res);
    const out = n?.template.Outputs?.[attr];
    return (
      out &&
      substitute(
        out.Value,
        (ref) => n!.parameters[ref],
        () => undefined,
      )
    );
  };
  const resources: Record<string, Json> = {};
  for (const [id, r] of Object.entries(root.Resources)) {
    if (nested.has(id)) continue;
    resources[id] = substitute(r, () => undefined, outputOf);
  }
  for (const { template, parameters } of nested.values()) {
    for (const [id, r] of Object.entries(template.Resources)) {
      if (id in resources) throw new Error(`logical id ${id} is used in two stacks`);
      resources[id] = substitute(r, (ref) => parameters[ref], outputOf);
    }
  }
  return Template.fromJSON({ ...root, Resources: resources }, { skipCyclicalDependenciesCheck: true });
}

type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;
type Statement = { Action: string | string[]; Resource: unknown };

type InlinePolicy = { PolicyName: string; PolicyDocument: { Statement: Statement[] } };

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

/** Every IAM action granted to a role, sorted, once each. */
export function actionsOfRole(template: Template, roleId: string): string[] {
  const actions = statementsOfRole(template, roleId).flatMap((s) =>
    Array.isArray(s.Action) ? s.Action : [s.Action],
  );
  return [...new Set(actions)].sort();
}

/** The logical ids of the resources a role's statements with an action of this prefix point at. */
export function targetsOfRole(template: Template, roleId: string, actionPrefix: string): string[] {
  const refs = new Set<string>();
  for (const s of statementsOfRole(template, roleId)) {
    const actions = Array.isArray(s.Action) ? s.Action : [s.Action];
    if (!actions.some((a) => a.startsWith(actionPrefix))) continue;
    JSON.stringify(s.Resource).replace(
      /"Fn::GetAtt":\["([A-Za-z0-9]+)"|"Ref":"([A-Za-z0-9]+)"/g,
      (_m, a: string, b: string) => {
        refs.add(a ?? b);
        return '';
      },
    );
  }
  return [...refs].sort();
}

/** The logical id of a function's execution role. */
export const roleIdOf = (_stack: ServiceStack, fn: ServiceFunction): string =>
  Stack.of(fn).getLogicalId(fn.fn.role!.node.defaultChild as never);

/** The function a route-table entry made, or the API-key authorizer for 'authorizer'. */
function routeFunction(stack: ServiceStack, functionId: string): ServiceFunction {
  const fn = functionId === 'authorizer' ? stack.api.authorizerFunction : stack.api.functions.get(functionId);
  if (!fn) throw new Error(`no function ${functionId}`);
  return fn;
}

/** The IAM actions granted to the role of the function a route-table entry (or the authorizer) made. */
export const actionsOf = (template: Template, stack: ServiceStack, functionId: string): string[] =>
  actionsOfRole(template, roleIdOf(stack, routeFunction(stack, functionId)));

/** The logical ids of the resources a route function's policy statements point at, per action prefix. */
export const resourcesOf = (
  template: Template,
  stack: ServiceStack,
  functionId: string,
  actionPrefix: string,
): string[] => targetsOfRole(template, roleIdOf(stack, routeFunction(stack, functionId)), actionPrefix);

/** A construct's logical id in its own stack (the parent's, or its area's nested stack). */
export const logicalIdOf = (element: never): string =>
  Stack.of(element as unknown as Stack).getLogicalId(element);
