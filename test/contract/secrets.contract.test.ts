// The Secrets port: a secret setting read by name at run time. Locally it is the environment variable of
// that name; on AWS the Secrets Manager secret whose ARN is in <NAME>_ARN (moto here), read through
// GetSecretValue with a cache, so a rotated value arrives within the cache's age, no deploy.
import {
  CreateSecretCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { randomBytes } from 'node:crypto';
import { awsSecrets } from '../../functions/adapters/aws';
import { EnvSecrets } from '../../functions/adapters/local/env-secrets';
import { resetConfigCache, secretArnEnv } from '../../functions/platform/config';
import { ConfigurationError } from '../../functions/platform/errors';
import type { Secrets } from '../../functions/platform/ports';
import { requireEmulators } from '../support/emulators';

const uniqueName = () => `CONTRACT_SECRET_${randomBytes(4).toString('hex').toUpperCase()}`;

function setEnv(values: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfigCache();
}

interface Harness {
  secrets: Secrets;
  /** Gives the setting a value the way its runtime's operator would. */
  put(name: string, value: string): Promise<void>;
}

const localHarness = async (): Promise<Harness> => ({
  secrets: new EnvSecrets(),
  put: async (name, value) => setEnv({ [name]: value }),
});

async function awsHarness(maxAgeSeconds?: number): Promise<Harness & { client: SecretsManagerClient }> {
  requireEmulators();
  const client = new SecretsManagerClient({});
  const arns = new Map<string, string>();
  return {
    client,
    secrets: awsSecrets(maxAgeSeconds),
    put: async (name, value) => {
      const known = arns.get(name);
      if (known) {
        await client.send(new PutSecretValueCommand({ SecretId: known, SecretString: value }));
        return;
      }
      const { ARN } = await client.send(
        new CreateSecretCommand({ Name: `contract/${name}`, SecretString: value }),
      );
      arns.set(name, ARN!);
      setEnv({ [secretArnEnv(name)]: ARN! });
    },
  };
}

afterAll(() => resetConfigCache());

describe.each([
  ['local (environment)', () => localHarness()],
  ['aws (Secrets Manager)', () => awsHarness(0)],
])('Secrets port: %s', (_name, make) => {
  it('reads a setting by name', async () => {
    const harness = await make();
    const name = uniqueName();
    await harness.put(name, 'client-secret-value-1');
    expect(await harness.secrets.get(name)).toBe('client-secret-value-1');
  });

  it('reads a changed value (no cache here)', async () => {
    const harness = await make();
    const name = uniqueName();
    await harness.put(name, 'before');
    expect(await harness.secrets.get(name)).toBe('before');
    await harness.put(name, 'after');
    resetConfigCache(); // the environment is read once per process, like a Lambda's configuration
    expect(await harness.secrets.get(name)).toBe('after');
  });

  it('names the missing setting, never a value, when it has none', async () => {
    const harness = await make();
    const name = uniqueName();
    const error = await harness.secrets.get(name).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toContain(name);
  });
});

describe('Secrets port: aws (Secrets Manager) caching and fallbacks', () => {
  it('keeps a value for its cache age, then reads the rotated one', async () => {
    const name = uniqueName();
    const cached = await awsHarness(300);
    await cached.put(name, 'current');
    expect(await cached.secrets.get(name)).toBe('current');
    await cached.put(name, 'rotated');
    expect(await cached.secrets.get(name)).toBe('current'); // within the cache age: no call
    const fresh = awsSecrets(0); // as a container after the cache age
    expect(await fresh.get(name)).toBe('rotated');
  });

  it('uses a value given directly in the environment when no secret is named', async () => {
    const name = uniqueName();
    setEnv({ [name]: 'from-the-environment', [secretArnEnv(name)]: undefined });
    expect(await awsSecrets(0).get(name)).toBe('from-the-environment');
  });

  it('fails on a secret that does not exist, without quoting its value', async () => {
    const name = uniqueName();
    setEnv({
      [secretArnEnv(name)]: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:contract/absent-AbCdEf',
    });
    await expect(awsSecrets(0).get(name)).rejects.toThrow();
  });
});
