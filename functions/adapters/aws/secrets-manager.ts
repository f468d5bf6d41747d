// Secrets port on AWS Secrets Manager: a secret setting NAME is the secret whose ARN is in NAME_ARN,
// read at run time through Powertools Parameters' SecretsProvider and cached per container, so a
// value put with `put-secret-value` reaches every function within the cache's age, without a deploy.
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { getStringFromEnv, secretArnEnv } from '../../platform/config';
import { ConfigurationError } from '../../platform/errors';
import type { Secrets } from '../../platform/ports';
import type { ClientRef } from './clients';

/** How long a value read is used before it is read again: the longest a rotation takes to arrive. */
export const SECRET_CACHE_SECONDS = 300;

export class SecretsManagerSecrets implements Secrets {
  private provider: Promise<SecretsProvider> | undefined;

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
    const value = await (await this.secrets()).get(arn, { maxAge: this.maxAgeSeconds });
    // Never the value, nor the ARN's secret part, in the message: only the setting's name.
    if (typeof value !== 'string' || value === '') {
      throw new ConfigurationError(`Secret ${name} is empty or not a string`);
    }
    return value;
  }

  /** Imported on first use, like the SDK clients: a function that reads no secret never loads them. */
  private secrets(): Promise<SecretsProvider> {
    this.provider ??= Promise.all([import('@aws-lambda-powertools/parameters/secrets'), this.client]).then(
      ([{ SecretsProvider }, client]) => new SecretsProvider({ awsSdkV3Client: client }),
    );
    return this.provider;
  }
}
