// Admin CLI: `npm run admin -- <command> [options]`, JSON on stdout.
// --target local (default): the local server's data directory (DATA_DIR, default .data/).
// --target aws: a deployed stage, through TABLE_PLATFORM and the usual AWS credentials and region.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { awsTables } from '../functions/adapters/aws';
import { createLocalDeps } from '../functions/adapters/local';
import { systemClock } from '../functions/platform/clock';
import { Directory } from '../functions/directory/directory';
import { AppError } from '../functions/platform/errors';
import { PERMISSIONS } from '../functions/platform/permissions';

const USAGE = `usage: npm run admin -- <command> [--target local|aws] [options]
  create-org   --name NAME
  create-key   --org ORG_ID --name NAME --permissions p1,p2|all [--system]
  list-keys    --org ORG_ID
  revoke-key   --key KEY_ID
  create-app   --org ORG_ID --name NAME
  list-apps    --org ORG_ID
permissions: ${PERMISSIONS.join(', ')}`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    target: { type: 'string', default: 'local' },
    name: { type: 'string' },
    org: { type: 'string' },
    key: { type: 'string' },
    permissions: { type: 'string' },
    system: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

function required(name: keyof typeof values): string {
  const value = values[name];
  if (typeof value !== 'string' || !value) throw new UsageError(`--${name} is required`);
  return value;
}

class UsageError extends Error {}

function directory(): Directory {
  if (values.target === 'aws') return new Directory(awsTables().platform, systemClock);
  if (values.target !== 'local') throw new UsageError('--target must be local or aws');
  const dataDir = resolve(process.env.DATA_DIR ?? '.data');
  return new Directory(createLocalDeps({ dataDir, owner: false }).tables.platform, systemClock);
}

async function run(command: string | undefined): Promise<unknown> {
  switch (command) {
    case 'create-org':
      return directory().createOrganization(required('name'));
    case 'create-key': {
      const list = required('permissions');
      const permissions =
        list === 'all'
          ? [...PERMISSIONS]
          : list
              .split(',')
              .map((p) => p.trim())
              .filter(Boolean);
      return directory().createApiKey({
        organizationId: required('org'),
        name: required('name'),
        permissions,
        system: values.system,
      });
    }
    case 'list-keys':
      return { data: await directory().listApiKeys(required('org')) };
    case 'revoke-key':
      return directory().revokeApiKey(required('key'));
    case 'create-app':
      return directory().createApplication(required('org'), required('name'));
    case 'list-apps':
      return { data: await directory().listApplications(required('org')) };
    default:
      throw new UsageError(command ? `unknown command ${command}` : 'a command is required');
  }
}

if (values.help) {
  console.log(USAGE);
} else {
  run(positionals[0]).then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      if (error instanceof UsageError) console.error(`${error.message}\n${USAGE}`);
      else if (error instanceof AppError)
        console.error(JSON.stringify({ error: { code: error.code, message: error.message } }));
      else console.error(error instanceof Error ? error.message : String(error));
      process.exit(error instanceof UsageError ? 2 : 1);
    },
  );
}
