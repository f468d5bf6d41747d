// Secrets port on AWS Secrets Manager: a secret setting NAME is the secret whose ARN is in NAME_ARN,
// read at run time with GetSecretValue and cached per container, so a value put with
// `put-secret-value` reaches every function within the cache's age, without a deploy. (Powertools
// Parameters did the same read and cache with ~7 KB more in every bundle.)
import type { SecretsManagerClient } from './sdk/secrets-manager';
import { getStringFromEnv, secretArnEnv } from '../../platform/config';
import { ConfigurationError } from '../../platform/errors';
import type { Secrets } from '../../platform/ports';
import type { ClientRef } from './clients';

/** How long a value read is used before it is read again: the longest a rotation takes to arrive. */
export const SECRET_CACHE_SECONDS = 300;

export class SecretsManagerSecrets implements Secrets {
  /** ARN → the value's read (a promise, so concurrent first reads share one call) and when it expires. */
  private readonly cache = new Map<string, { value: Promise<string | undefined>; expires: number }>();

  constructor(
    private readonly client: ClientRef<SecretsManagerClient>,
    private readonly maxAgeSeconds = SECRET_CACHE_SECONDS,
  ) {}

  async get(name: string): Promise<string> {
    const arn = getStringFromEnv(secretArnEnv(name), { default: '' });
    if (!arn) {
      // No secret named: a value given directly in the environment (the emulated runtime's), or none.
      const direct = getStringFromEnv(name, { default: '' });
      if (direct) return direct;
      throw new ConfigurationError(`Missing required environment variable ${secretArnEnv(name)}`);
    }
    const value = await this.read(arn);
    // Never the value, nor the ARN's secret part, in the message: only the setting's name.
    if (typeof value !== 'string' || value === '') {
      throw new ConfigurationError(`Secret ${name} is empty or not a string`);
    }
    return value;
  }

  private read(arn: string): Promise<string | undefined> {
    const cached = this.cache.get(arn);
    // A cache age is a duration: the monotonic clock, which no clock change moves.
    if (cached && cached.expires > performance.now()) return cached.value;
    const value = this.fetch(arn);
    this.cache.set(arn, { value, expires: performance.now() + this.maxAgeSeconds * 1000 });
    // A failed read is not kept: the next call tries again.
    value.catch(() => {
      if (this.cache.get(arn)?.value === value) this.cache.delete(arn);
    });
    return value;
  }

  /** The command's module is the client's own (./sdk/secrets-manager), imported on first use like the client. */
  private async fetch(arn: string): Promise<string | undefined> {
    const [{ GetSecretValueCommand }, client] = await Promise.all([
      import('./sdk/secrets-manager'),
      this.client,
    ]);
    const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: arn }));
    return SecretString;
  }
}
