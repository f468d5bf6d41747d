// What the emulated AWS runtime needs to run the synthesized application's functions as Lambda runs
// them (issue 25 item 1): each function of the template with its handler module, memory, timeout and
// environment variables as the template sets them, and its bundle built with the same esbuild options
// NodejsFunction uses (lambdaBuildOptions). A variable the template sets to a reference to a resource
// of the stack is named by the stack's name of that resource (table:platform, queue:events,
// key:envelope, ...), the vocabulary the IAM check uses too, for the runtime to resolve to what it
// provisioned at the emulator.
import type { CfnResource } from 'aws-cdk-lib';
import { Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { build } from 'esbuild';
import { join } from 'node:path';
import { STATE_KEY_ENV } from '../functions/connectors';
import { clientSecretName } from '../functions/connectors/infra/config';
import type { ProviderId } from '../functions/connectors/domain/providers';
import { QUEUE_NAMES, QUEUE_WORKERS } from '../functions/platform/workers';
import { TABLE_NAMES } from '../functions/platform/tables';
import type { TemplateValue } from '../functions/dev-runtime/emulated-aws/function-pool';
import type { ServiceFunction } from './service-function';
import { LAMBDA_BUNDLING, lambdaBuildOptions } from './service-function';
import type { ServiceStack } from './service-stack';

export interface FunctionSpec {
  /** The id the runtimes invoke it by (route id, worker id, task id, apiKeyAuthorizer). */
  id: string;
  handlerModule: string;
  memorySize: number;
  timeoutSeconds: number;
  environment: Record<string, TemplateValue>;
}

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
      environment[name] =
        typeof value === 'string'
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

/** The bundle file of a handler module under `outDir`. */
export const bundleFileOf = (outDir: string, handlerModule: string): string =>
  join(outDir, handlerModule.split('/').join('--'), 'index.mjs');

/**
 * Builds each handler module's bundle as `cdk synth` does (index.mjs and its source map), under
 * `outDir`; inside the repository, so the modules left out of the bundle (@aws-sdk/*) resolve.
 */
export async function bundleFunctions(handlerModules: string[], outDir: string): Promise<void> {
  await Promise.all(
    [...new Set(handlerModules)].map((module) =>
      build({
        ...lambdaBuildOptions(module),
        outfile: bundleFileOf(outDir, module),
        sourcemap: LAMBDA_BUNDLING.sourceMap,
        sourcesContent: LAMBDA_BUNDLING.sourcesContent,
        logLevel: 'silent',
      }),
    ),
  );
}
