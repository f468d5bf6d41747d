// Synthesizes the service stack for CDK assertion tests. Bundling is skipped unless asked for
// (it is the slow part, and wiring assertions do not need the code).
import { Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import type { ServiceStack } from '../../lib/service-stack';
import type { ServiceFunction } from '../../lib/service-function';

export { flattened, synthStack } from '../../lib/synthesize';
export { roleIdOf, statementsOfRole } from '../../lib/emulated-functions';
import { roleIdOf, statementsOfRole } from '../../lib/emulated-functions';

/** A template's JSON as a test edits it. */
export type TemplateJson = {
  Resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;
};
/** A policy document of a template, for a test to edit in place. */
export type PolicyDocument = { Statement: { Action: string | string[] }[] };

/** The policy documents of a role in a template's JSON (its inline policies and attached ones), to edit. */
export function policyDocumentsOfRole(json: TemplateJson, roleId: string): PolicyDocument[] {
  return [
    ...((json.Resources[roleId]!.Properties.Policies ?? []) as { PolicyDocument: PolicyDocument }[]).map(
      (p) => p.PolicyDocument,
    ),
    ...Object.values(json.Resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.Roles).includes(roleId))
      .map((r) => r.Properties.PolicyDocument as PolicyDocument),
  ];
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
