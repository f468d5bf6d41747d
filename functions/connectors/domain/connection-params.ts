// A connection's params: what its provider must know before the consent (NetDocuments' region, an
// iManage Work server), declared by the provider's definition. Pure: the values a customer's server or
// the connect page gives are checked here, completed with the definition's defaults, and turned into
// the `{name}` placeholders of the provider's endpoint templates.
import { isIP } from 'node:net';
import type { ConnectionParamSpec, ProviderDefinition } from './provider-definition';

/** A connection's params by name, as stored with it (every declared param, defaults filled in). */
export type ConnectionParams = Record<string, string>;

const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Why a host param's value is not a DNS host name we would connect to, or undefined: lower case
 * letters, digits and inner hyphens per label, at least two labels, no address literal, no port, no
 * scheme or path (the service adds https:// itself: the value names a host, not a URL).
 */
export function hostParamProblem(value: string): string | undefined {
  if (value !== value.trim() || value === '') return 'must be a host name such as work.firm.example';
  if (/[/:@?#\s]/.test(value)) return 'must be a host name alone (no scheme, port or path)';
  if (isIP(value.replace(/^\[|\]$/g, ''))) return 'must be a DNS host name, not an address';
  const name = value.toLowerCase().replace(/\.$/, '');
  const labels = name.split('.');
  if (name.length > 253 || labels.length < 2 || !labels.every((label) => DNS_LABEL.test(label)))
    return 'must be a DNS host name (letters, digits and hyphens, dot-separated, with a domain)';
  if (/^[0-9]+$/.test(labels.at(-1)!)) return 'must be a DNS host name, not an address';
  return undefined;
}

/** A param's value as stored: a host in lower case without the trailing dot. */
const canonical = (spec: ConnectionParamSpec, value: string): string =>
  spec.kind === 'host' ? value.toLowerCase().replace(/\.$/, '') : value;

/** Why `value` is not one `spec` takes, or undefined. */
export function paramProblem(spec: ConnectionParamSpec, value: string): string | undefined {
  if (spec.kind === 'host') return hostParamProblem(value);
  if (!Object.hasOwn(spec.choices, value)) return `must be one of ${Object.keys(spec.choices).join(', ')}`;
  return undefined;
}

export class ParamsError extends Error {
  constructor(
    readonly param: string,
    readonly problem: string,
  ) {
    super(`${param} ${problem}`);
    this.name = 'ParamsError';
  }
}

type Definition = Pick<ProviderDefinition, 'id' | 'params'>;

/** The declared params, by name (none for most providers). */
export const paramSpecs = (definition: Definition): [string, ConnectionParamSpec][] =>
  Object.entries(definition.params ?? {});

/**
 * The given params checked against the definition: an unknown name or a refused value throws
 * ParamsError; what is given is returned canonical (hosts lower-cased). Missing ones are not filled:
 * `missingParams` says which the connect page must still ask for.
 */
export function checkParams(definition: Definition, given: Record<string, string> = {}): ConnectionParams {
  const specs = definition.params ?? {};
  const out: ConnectionParams = {};
  for (const [name, value] of Object.entries(given)) {
    const spec = Object.hasOwn(specs, name) ? specs[name] : undefined;
    if (!spec) {
      const known = Object.keys(specs);
      throw new ParamsError(
        name,
        known.length
          ? `is not a param of ${definition.id}; known: ${known.join(', ')}`
          : `is not a param of ${definition.id}, which takes none`,
      );
    }
    const problem = paramProblem(spec, value);
    if (problem) throw new ParamsError(name, problem);
    out[name] = canonical(spec, value);
  }
  return out;
}

/** The declared params `params` does not give yet (the connect page asks for these). */
export const missingParams = (definition: Definition, params: ConnectionParams = {}): string[] =>
  paramSpecs(definition)
    .filter(([name]) => !Object.hasOwn(params, name))
    .map(([name]) => name);

/**
 * Every declared param: those given, the rest their defaults. A param with no default and no value
 * throws ParamsError (required).
 */
export function completeParams(definition: Definition, params: ConnectionParams = {}): ConnectionParams {
  const out: ConnectionParams = { ...params };
  for (const [name, spec] of paramSpecs(definition)) {
    if (Object.hasOwn(out, name)) continue;
    if (spec.default === undefined) throw new ParamsError(name, 'is required');
    out[name] = spec.default;
  }
  return out;
}

/**
 * The `{name}` placeholders of a connection's endpoints: each param's own value, and the vars of each
 * chosen choice. `params` must be complete (completeParams).
 */
export function paramVars(definition: Definition, params: ConnectionParams): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [name, spec] of paramSpecs(definition)) {
    const value = params[name];
    if (value === undefined) continue;
    vars[name] = value;
    if (spec.kind === 'choice') Object.assign(vars, spec.choices[value]?.vars ?? {});
  }
  return vars;
}

/** The settings suffix of the connection's chosen values (a region's own client), if any. */
export function settingsSuffix(definition: Definition, params: ConnectionParams): string | undefined {
  for (const [name, spec] of paramSpecs(definition)) {
    if (spec.kind !== 'choice') continue;
    const suffix = spec.choices[params[name] ?? '']?.settingsSuffix;
    if (suffix) return suffix;
  }
  return undefined;
}

/**
 * A template with its `{name}` placeholders filled; a placeholder without a var is left as is and
 * reported by `unfilled` (configuration that names a param the provider does not declare).
 */
export function fillTemplate(template: string, vars: Record<string, string>): string {
  return template.replace(/\{([a-z][a-z0-9_]*)\}/g, (whole, name: string) =>
    Object.hasOwn(vars, name) ? encodeURIComponent(vars[name]!) : whole,
  );
}

/** The placeholders a filled template still holds. */
export const unfilled = (value: string): string[] =>
  [...value.matchAll(/\{([a-z][a-z0-9_]*)\}/g)].map((found) => found[1]!);

/**
 * Whether the connection's API host comes from a param (a customer's own server): then requests to it,
 * bearer and all, go through the address guard as any provider-supplied URL does.
 */
export const apiHostFromParams = (definition: Definition): boolean =>
  paramSpecs(definition).some(([, spec]) => spec.kind === 'host');

/**
 * The identity a connection's account is held under: the provider's account id, qualified by the
 * params that choose another host (the same user id on two servers is two accounts), so a reconnect
 * through another host never takes over a connection of the first.
 */
export function accountKey(definition: Definition, params: ConnectionParams, externalId: string): string {
  const scoped = paramSpecs(definition)
    .map(([name]) => `${name}=${params[name] ?? ''}`)
    .join('&');
  return scoped ? `${scoped}#${externalId}` : externalId;
}
