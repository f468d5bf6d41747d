// Synthesizes the service stack for CDK assertion tests. Bundling is skipped unless asked for
// (it is the slow part, and wiring assertions do not need the code).
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ServiceStack } from '../../lib/service-stack';
import { stageConfig } from '../../lib/stage-config';

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
  return { app, stack, template: Template.fromStack(stack) };
}

type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;

/** The IAM actions granted to the role of the function a route-table entry (or the authorizer) made. */
export function actionsOf(template: Template, stack: ServiceStack, functionId: string): string[] {
  const fn = functionId === 'authorizer' ? stack.api.authorizerFunction : stack.api.functions.get(functionId);
  if (!fn) throw new Error(`no function ${functionId}`);
  const roleId = stack.getLogicalId(fn.fn.role!.node.defaultChild as never);
  const policies = template.findResources('AWS::IAM::Policy') as Resources;
  const actions = Object.values(policies)
    .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap((p) => (p.Properties.PolicyDocument as { Statement: { Action: string | string[] }[] }).Statement)
    .flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));
  return [...new Set(actions)].sort();
}

/** The logical ids of the resources a function's policy statements point at, per action prefix. */
export function resourcesOf(
  template: Template,
  stack: ServiceStack,
  functionId: string,
  actionPrefix: string,
): string[] {
  const fn = functionId === 'authorizer' ? stack.api.authorizerFunction : stack.api.functions.get(functionId);
  const roleId = stack.getLogicalId(fn!.fn.role!.node.defaultChild as never);
  const policies = template.findResources('AWS::IAM::Policy') as Resources;
  const refs = new Set<string>();
  for (const p of Object.values(policies)) {
    if (!(p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId)) continue;
    for (const s of (
      p.Properties.PolicyDocument as { Statement: { Action: string | string[]; Resource: unknown }[] }
    ).Statement) {
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
  }
  return [...refs].sort();
}
