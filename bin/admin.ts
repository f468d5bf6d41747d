// Admin CLI: `npm run admin -- <command> [options]`, JSON on stdout.
// --target local (default): the local server's data directory (DATA_DIR, default .data/).
// --target aws: a deployed stage, through TABLE_PLATFORM and the usual AWS credentials and region; or
// the emulated AWS runtime, with its DATA_DIR/aws.env sourced (`set -a; . .data-aws/aws.env; set +a`).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createAwsDeps } from '../functions/compose/aws';
import { createLocalDeps } from '../functions/compose/local';
import { systemClock } from '../functions/platform/clock';
import { KeyBindings } from '../functions/directory';
import { Directory, directoryRepositories } from '../functions/directory';
import { CONSOLE_ROLES } from '../functions/platform/console-sessions';
import type { ConsoleRole } from '../functions/platform/console-sessions';
import { AppError, NotFoundError } from '../functions/platform/errors';
import type { Table } from '../functions/platform/ports';
import {
  loadDevConsoleIdentityProvider,
  mintConsoleSession,
} from '../functions/dev-runtime/identity/dev-console-idp';
import { AWS_ENV_FILE } from '../functions/dev-runtime/emulated-aws/aws-env';
import { PERMISSIONS } from '../functions/platform/permissions';

const USAGE = `usage: npm run admin -- <command> [--target local|aws] [options]
  create-org   --name NAME [--platform]         --platform: the organization that holds system keys
  create-key   --org ORG_ID --name NAME --permissions p1,p2|all [--system [--org-bound]]
               --system needs a platform organization, or --org-bound: a system key that
               publishes into its own (customer) organization only
  list-keys    --org ORG_ID
  revoke-key   --key KEY_ID
  create-app   --org ORG_ID --name NAME
  list-apps    --org ORG_ID
  list-app-keys --app APP_ID                  the API keys bound to an application
  unbind-key   --app APP_ID --key KEY_ID      remove a key binding (rotation; also DELETE .../keys/{keyId})
  mint-session --org ORG_ID --user USER_ID --role owner|admin|member [--ttl SECONDS]
               a console session from the development identity provider of DATA_DIR (the local
               server's, or with --target aws the emulated AWS runtime's)
  portal-link  --org ORG_ID --role ROLE [--kind console|portal] [--sections webhooks,connections]
               [--user NAME] [--console-url URL]
               a one-time sign-in link, minted through the API (POST /connectors/v1/portal/links) with
               the system key in ADMIN_API_KEY: --kind console (default) opens the full console as
               owner|admin|member (an operator's sign-in), --kind portal the portal as read-only|manage.
               --console-url: the deployment's ConsoleUrl output; locally the server's own URL and
               system key (DATA_DIR/credentials.json) are the defaults
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
    platform: { type: 'boolean', default: false },
    'org-bound': { type: 'boolean', default: false },
    app: { type: 'string' },
    user: { type: 'string' },
    role: { type: 'string' },
    ttl: { type: 'string', default: '3600' },
    kind: { type: 'string', default: 'console' },
    sections: { type: 'string' },
    'console-url': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

function required(name: keyof typeof values): string {
  const value = values[name];
  if (typeof value !== 'string' || !value) throw new UsageError(`--${name} is required`);
  return value;
}

class UsageError extends Error {}

const dataDir = () => resolve(process.env.DATA_DIR ?? '.data');

let table: Table | undefined;
function platformTable(): Table {
  if (values.target === 'aws') return (table ??= createAwsDeps(systemClock).tables.platform);
  if (values.target !== 'local') throw new UsageError('--target must be local or aws');
  return (table ??= createLocalDeps({ dataDir: dataDir(), owner: false }).tables.platform);
}

const directory = () =>
  new Directory(directoryRepositories({ tables: { platform: platformTable() } }), systemClock);
const bindings = () =>
  new KeyBindings(directoryRepositories({ tables: { platform: platformTable() } }), systemClock);

async function listAppKeys(applicationId: string): Promise<unknown> {
  const application = await directory().getApplication(applicationId);
  if (!application) throw new NotFoundError('Application not found');
  const bound = await bindings().listForApplication(applicationId);
  const data = await Promise.all(
    bound.map(async (b) => ({ ...b, key: await directory().getApiKey(b.apiKeyId) })),
  );
  return { application, data };
}

async function mintSession(): Promise<unknown> {
  // The development identity provider lives in DATA_DIR: the local server's, or the emulated AWS
  // runtime's (its DATA_DIR holds aws.env). A deployed stage trusts a real identity provider instead.
  const emulated = values.target === 'aws' && existsSync(join(dataDir(), AWS_ENV_FILE));
  if (values.target !== 'local' && !emulated)
    throw new UsageError(
      'mint-session works on the local server or the emulated AWS runtime (DATA_DIR) only',
    );
  const role = required('role');
  if (!CONSOLE_ROLES.includes(role as ConsoleRole))
    throw new UsageError(`--role must be one of ${CONSOLE_ROLES.join(', ')}`);
  const ttlSeconds = Number(values.ttl);
  if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1)
    throw new UsageError('--ttl must be a positive integer');
  const organizationId = required('org');
  if (!(await directory().getOrganization(organizationId))) throw new NotFoundError('Organization not found');
  const claims = { organizationId, userId: required('user'), role: role as ConsoleRole };
  const idp = await loadDevConsoleIdentityProvider(dataDir());
  return { ...claims, ...(await mintConsoleSession(idp, claims, { ttlSeconds, nowMs: systemClock.now() })) };
}

/**
 * A sign-in link from the API itself (the same route a customer's server calls), so it works against a
 * deployment with nothing but its URL and a system key. Through the console's URL the link is on the
 * console's origin (the distribution's edge tells the API its origin).
 */
async function portalLink(): Promise<unknown> {
  // The local server's or the emulated AWS runtime's own URL and system key, when DATA_DIR holds them.
  const local = existsSync(join(dataDir(), 'credentials.json'))
    ? (JSON.parse(readFileSync(join(dataDir(), 'credentials.json'), 'utf8')) as {
        baseUrl: string;
        systemKey: string;
      })
    : undefined;
  const base = (values['console-url'] ?? local?.baseUrl)?.replace(/\/+$/, '');
  if (!base) throw new UsageError('--console-url is required (the ConsoleUrl output of the stack)');
  const apiKey = process.env.ADMIN_API_KEY ?? local?.systemKey;
  if (!apiKey) throw new UsageError('ADMIN_API_KEY must hold a system key with portal:write');
  const response = await fetch(`${base}/connectors/v1/portal/links`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      kind: values.kind,
      organization_id: required('org'),
      role: required('role'),
      ...(values.sections ? { sections: values.sections.split(',') } : {}),
      ...(values.user ? { user: values.user } : {}),
    }),
  });
  const body = (await response.json().catch(() => undefined)) as unknown;
  if (!response.ok) throw new Error(`the API answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

async function run(command: string | undefined): Promise<unknown> {
  switch (command) {
    case 'create-org':
      return directory().createOrganization(required('name'), { platform: values.platform });
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
        orgBound: values['org-bound'],
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
    case 'list-app-keys':
      return listAppKeys(required('app'));
    case 'unbind-key':
      await bindings().remove(required('app'), required('key'));
      return { unbound: { application_id: values.app, api_key_id: values.key } };
    case 'mint-session':
      return mintSession();
    case 'portal-link':
      return portalLink();
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
