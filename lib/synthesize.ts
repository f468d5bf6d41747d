// Synthesizes the service stack in memory, as one template: what the CDK tests assert on and what the
// emulated AWS runtime runs (lib/emulated-app.ts). Bundling is skipped unless asked for (it is the slow
// part; the emulated runtime builds its bundles itself, with the same esbuild options).
import type { CfnResource } from 'aws-cdk-lib';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ServiceStack } from './service-stack';
import { stageConfig } from './stage-config';

export function synthStack(
  options: {
    stage?: 'dev' | 'prod';
    bundle?: boolean;
    context?: Record<string, unknown>;
    /** The stack's region (eu-west-1 unless given): us-east-1 changes where the console's web ACL is made. */
    region?: string;
  } = {},
) {
  const app = new App({
    // CDK's built-in CloudFormation schema check only warns, and was a quarter of each synthesis the
    // tests make dozens of; `cdk synth` (CI's prod step, every deploy) still runs it.
    builtinCloudFormationValidation: false,
    context: {
      stage: options.stage ?? 'dev',
      'aws:cdk:bundling-stacks': options.bundle ? ['**'] : [],
      ...options.context,
    },
  });
  const stack = new ServiceStack(app, 'TestStack', {
    stage: stageConfig(app.node),
    env: { account: '123456789012', region: options.region ?? 'eu-west-1' },
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
