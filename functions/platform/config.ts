// Environment configuration: every variable is read through here, once, and a missing one fails
// loudly as a ConfigurationError (a generic 500 at the edge). Nothing else in functions/ reads
// process.env but the compositions and the development runtime (eslint no-restricted-properties,
// eslint.config.js).
import { ConfigurationError } from './errors';

/**
 * The variable trimmed, '' when unset: what Powertools' getStringFromEnv did, without its module, which
 * imports @aws/lambda-invoke-store and sets up its global store at init (2.6 KB and work in
 * every bundle for a one-line read).
 */
const readEnv = (name: string): string => process.env[name]?.trim() ?? '';

const cache = new Map<string, string>();

/** An empty variable counts as unset (CloudFormation cannot omit a variable conditionally). */
export function getStringFromEnv(name: string, options: { default?: string } = {}): string {
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  const raw = readEnv(name);
  const value = raw === '' ? options.default : raw;
  if (value === undefined) {
    throw new ConfigurationError(`Missing required environment variable ${name}`);
  }
  cache.set(name, value);
  return value;
}

/**
 * A setting that may be absent (undefined then, never an empty string), read each time it is asked
 * for: the switches of the runtime itself (Lambda's own variables, the emulator endpoints, the
 * development server's public URL, which it learns only once it listens).
 */
export function getOptionalStringFromEnv(name: string): string | undefined {
  const raw = readEnv(name);
  return raw === '' ? undefined : raw;
}

export function getNumberFromEnv(name: string, options: { default?: number } = {}): number {
  const text = getStringFromEnv(
    name,
    options.default === undefined ? {} : { default: String(options.default) },
  );
  const value = Number(text);
  if (!Number.isFinite(value)) throw new ConfigurationError(`Environment variable ${name} must be a number`);
  return value;
}

export type Stage = 'local' | 'dev' | 'prod';

export function stage(): Stage {
  const value = getStringFromEnv('STAGE', { default: 'local' });
  if (value !== 'local' && value !== 'dev' && value !== 'prod') {
    throw new ConfigurationError(`STAGE must be local, dev or prod, not ${value}`);
  }
  return value;
}

/** Loopback callback and receiver URLs (http://localhost) are accepted everywhere but production. */
export function loopbackAllowed(): boolean {
  return stage() !== 'prod';
}

/** Where the AWS runtime finds the Secrets Manager secret holding a secret setting: `<NAME>_ARN`. */
export const secretArnEnv = (name: string): string => `${name}_ARN`;

/** Test hook: forget what was read so a test can change the environment. */
export function resetConfigCache(): void {
  cache.clear();
}
