// Where the emulated AWS runtime's resources are, for a person's shell and the admin CLI: a file under
// its data directory. Kept apart from ./emulated-aws.ts so the admin CLI does not load the runtime.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file under the data directory that says where the emulated runtime's resources are. */
export const AWS_ENV_FILE = 'aws.env';

/**
 * Writes `<dataDir>/aws.env` (mode 600): export lines for the provisioned resources' names and the
 * endpoint, so the admin CLI (`--target aws`) and a person's shell reach the same stack:
 * `set -a; . .data-aws/aws.env; set +a`. Credentials only when they are the emulators' dummy ones.
 */
export function writeAwsEnv(dataDir: string, environment: Record<string, string>): void {
  const passed = Object.keys(process.env).filter(
    (name) => name.startsWith('AWS_ENDPOINT_URL') || name === 'AWS_REGION' || name === 'AWS_DEFAULT_REGION',
  );
  const dummyCredentials = process.env.EMULATORS ? ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'] : [];
  const values: Record<string, string> = {};
  for (const name of [...passed, ...dummyCredentials]) {
    if (process.env[name]) values[name] = process.env[name]!;
  }
  Object.assign(values, environment);
  const lines = Object.entries(values).map(([name, value]) => `export ${name}=${shellQuote(value)}`);
  writeFileSync(
    join(dataDir, AWS_ENV_FILE),
    ['# Written by the emulated AWS runtime at start: where its resources are.', ...lines, ''].join('\n'),
    { mode: 0o600 },
  );
}

const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
