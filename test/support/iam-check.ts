// IAM, recorded: checks the SDK calls the emulated AWS runtime recorded per function
// (functions/dev-runtime/emulated-aws/iam-recorder.ts) against that function's role policy in the
// synthesized template. A call no statement of the role allows is a violation naming the function, the
// action and the resource. Resources meet by the stack's names: a statement's Fn::GetAtt / Ref of a
// table, queue, key, bucket or state machine is that resource (ARN suffixes such as /index/* included);
// a statement naming no resource of the stack (`*`, a literal ARN such as an imported secret's) allows
// the action on any resource of its service.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
import type { RecordedCall } from '../../functions/dev-runtime/emulated-aws/iam-recorder';
import { AWS_CALLS_FILE } from '../../functions/dev-runtime/emulated-aws/iam-recorder';
import { PROVIDER_IDS } from '../../functions/connectors/domain/providers';
import type { ServiceStack } from '../../lib/service-stack';
import { functionsOfStack, refsOf, resourceNamesOf } from '../../lib/emulated-functions';
import { roleIdOf, statementsOfRole, synthStack } from './synth';

interface Grant {
  actions: string[];
  /** The stack's names of the resources the statement points at; empty: any resource of its service. */
  resources: string[];
}

export type Grants = Map<string, Grant[]>;

const ROOT = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..');

const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : [String(value)]);

/** Each function's grants, from the template (or one a test has edited). */
export function grantsOf(stack: ServiceStack, template: Template): Grants {
  const names = resourceNamesOf(stack);
  const grants: Grants = new Map();
  for (const [id, fn] of functionsOfStack(stack)) {
    grants.set(
      id,
      statementsOfRole(template, roleIdOf(stack, fn))
        .filter((s) => (s as { Effect?: string }).Effect !== 'Deny')
        .map((s) => ({
          actions: list(s.Action),
          resources: refsOf(s.Resource).flatMap((ref) => (names.has(ref) ? [names.get(ref)!] : [])),
        })),
    );
  }
  return grants;
}

const matches = (pattern: string, value: string) =>
  new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i').test(value);

/** The calls no statement of their function's role allows, each as one readable line. */
export function violations(calls: RecordedCall[], grants: Grants): string[] {
  const found: string[] = [];
  for (const call of calls) {
    const statements = grants.get(call.function);
    if (!statements) {
      found.push(`${call.function}: not a function of the template (${call.action} on ${call.resource})`);
      continue;
    }
    const allowed = statements.some(
      (s) =>
        s.actions.some((a) => matches(a, call.action)) &&
        (s.resources.length === 0 || s.resources.includes(call.resource)),
    );
    if (!allowed) {
      found.push(
        `${call.function} called ${call.action} on ${call.resource}: its role in the template does not allow it`,
      );
    }
  }
  return found;
}

/** A digest of what the template is made from (lib/ and functions/), naming the cached grants. */
function sourceDigest(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) hash.update(path).update(readFileSync(path));
    }
  };
  hash.update(readFileSync(join(ROOT, 'test', 'support', 'iam-check.ts')));
  walk(join(ROOT, 'lib'));
  walk(join(ROOT, 'functions'));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The context of the template the emulated runtime runs (dev stage): every provider configured (the
 * runtime points each at the sandbox), so the functions that read client secrets are bound to them as
 * a deployment with providers is.
 */
export function localStageContext(): Record<string, string> {
  const providers = Object.fromEntries(
    PROVIDER_IDS.map((id) => [
      id,
      {
        authorizeUrl: `https://${id}.sandbox.test/oauth/authorize`,
        tokenUrl: `https://${id}.sandbox.test/oauth/token`,
        revokeUrl: `https://${id}.sandbox.test/oauth/revoke`,
        accountUrl: `https://${id}.sandbox.test/api/v1/me`,
        clientId: `sandbox-${id}`,
      },
    ]),
  );
  return { connectors: JSON.stringify({ providers }) };
}

/**
 * The grants of the template `cdk synth` makes (dev stage). Synthesizing takes ~20 s, so the grants
 * are kept under the temporary directory by a digest of the sources, for the tier's other files.
 */
export function templateGrants(): Grants {
  const cached = join(tmpdir(), `ces-iam-grants-${sourceDigest()}.json`);
  if (existsSync(cached)) {
    return new Map(JSON.parse(readFileSync(cached, 'utf8')) as [string, Grant[]][]);
  }
  const { stack, template } = synthStack({ context: localStageContext() });
  const grants = grantsOf(stack, template);
  writeFileSync(cached, JSON.stringify([...grants]));
  return grants;
}

/** The calls a server recorded under its data directory. */
export function recordedCalls(dataDir: string): RecordedCall[] {
  const file = join(dataDir, AWS_CALLS_FILE);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RecordedCall);
}
