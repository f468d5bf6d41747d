// A provider whose client secret is still the stack's placeholder is refused where it is first read:
// the functions' first read on AWS (the Secrets port), and the local server's start.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CLIENT_SECRET_PLACEHOLDER,
  clientSecretName,
  connectorConfig,
} from '../../functions/connectors/infra/config';
import { ConfigurationError } from '../../functions/platform/errors';

const ROOT = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..');
const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ConnectorsDriveClientSecret-AbCdEf';

describe('a placeholder client secret', () => {
  const secretsHolding = (value: string) => connectorConfig({ get: async () => value });

  afterEach(() => {
    delete process.env[`${clientSecretName('drive')}_ARN`];
  });

  it("is refused at the function's first read, naming the provider and the secret to put it in", async () => {
    process.env[`${clientSecretName('drive')}_ARN`] = ARN;
    const refused = secretsHolding(CLIENT_SECRET_PLACEHOLDER).client('drive');
    await expect(refused).rejects.toThrow(ConfigurationError);
    await expect(refused).rejects.toThrow(
      new RegExp(`drive provider's client secret is still the placeholder.*put .* in the secret ${ARN}`),
    );
  });

  it('names the variable to set where the secret comes from the environment', async () => {
    await expect(secretsHolding(` ${CLIENT_SECRET_PLACEHOLDER}\n`).client('drive')).rejects.toThrow(
      /set PROVIDER_DRIVE_CLIENT_SECRET to the client secret the provider issued/,
    );
  });

  it('lets any other value through', async () => {
    expect((await secretsHolding('s3cr3t-from-the-provider').client('drive')).clientSecret).toBe(
      's3cr3t-from-the-provider',
    );
  });

  it('stops the local server at start with a message naming the provider and the variable', async () => {
    const child = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), ['bin/local-server.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        AWS_ENDPOINT_URL: '',
        PORT: '0',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'placeholder-')),
        [clientSecretName('drive')]: CLIENT_SECRET_PLACEHOLDER,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect({ code, output }).toEqual({
      code: 1,
      output: expect.stringContaining(
        'Cannot start: The drive provider\'s client secret is still the placeholder "set-me": set PROVIDER_DRIVE_CLIENT_SECRET',
      ),
    });
    expect(output).not.toContain('listening');
  }, 60_000);
});
