// Real resources for the schemathesis run (scripts/schemathesis.sh), made through the public API and the
// admin CLI of the server under test: their ids go into scripts/schemathesis.toml, so the generated
// requests reach the handlers' logic instead of a 404 for an id that never existed. Each destructive
// operation gets resources of its own (a deleted endpoint must not be the one every other route reads);
// one-shot ones (delete, spend a link) get a dictionary of many, so more than the first request lands.
// Usage: tsx scripts/schemathesis-fixtures.ts <base url> <data dir>; prints KEY=value lines to source and
// writes the dictionaries (<name>.dict, libFuzzer format) into the data directory.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectThroughSandbox } from '../test/support/connect';

const [baseUrl, dataDir] = process.argv.slice(2);
if (!baseUrl || !dataDir) throw new Error('usage: schemathesis-fixtures.ts <base url> <data dir>');
const ROOT = join(import.meta.dirname, '..');

const credentials = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')) as {
  organizationId: string;
  apiKey: string;
  systemKey: string;
  consoleToken: string;
};

async function call(
  method: string,
  path: string,
  body?: unknown,
  token = credentials.apiKey,
): Promise<unknown> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

function admin(...args: string[]): { id?: string; key?: { id: string } } {
  const run = spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'bin', 'admin.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, AWS_ENDPOINT_URL: '' },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`admin ${args[0]} failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as { id?: string; key?: { id: string } };
}

/**
 * A receiver that answers at once: the local server itself (a 404 there is a failed delivery, no retry),
 * by address, so the synchronous test attempt needs no DNS lookup (the run's endpoints at generated host
 * names keep the resolver busy).
 */
const RECEIVER = `${baseUrl.replace('//localhost:', '//127.0.0.1:')}/schemathesis-receiver`;

async function endpoint(): Promise<string> {
  const created = (await call('POST', '/webhooks/v1/endpoints', {
    url: RECEIVER,
    eventTypeFilters: ['*'],
  })) as {
    endpoint: { id: string };
  };
  return created.endpoint.id;
}

async function connection(): Promise<{ id: string; token: string }> {
  const created = (await call('POST', '/connectors/v1/connections', {
    provider: 'practice',
    return_url: 'https://example.com/return',
  })) as { connection_id: string; connect_url: string };
  return { id: created.connection_id, token: created.connect_url.split('/').pop()! };
}

/** Polls until fan-out has recorded the event's delivery to the endpoint (the workers run in the server). */
async function deliveryTo(endpointId: string): Promise<string> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const page = (await call('GET', `/webhooks/v1/endpoints/${endpointId}/deliveries`)) as {
      data: { id: string }[];
    };
    if (page.data[0]) return page.data[0].id;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no delivery recorded within 10 s');
}

const endpointId = await endpoint();
await call(
  'POST',
  '/webhooks/v1/events',
  {
    organizationId: credentials.organizationId,
    type: 'matter.created',
    data: { matterId: 'mat_st', name: 'St' },
  },
  credentials.systemKey,
);
const job = (await call('POST', `/webhooks/v1/endpoints/${endpointId}/recover`, {
  since: new Date(Date.now() - 3600_000).toISOString(),
})) as { id: string };
const purged = await connection();
const purge = (await call('DELETE', `/connectors/v1/connections/${purged.id}?purge=true`)) as { id: string };
const application = admin('create-app', '--org', credentials.organizationId, '--name', 'schemathesis');
const key = admin(
  'create-key',
  '--org',
  credentials.organizationId,
  '--name',
  'schemathesis binding',
  '--permissions',
  'connectors:read',
);
// Bound before the run, so the unbind operation has a binding to remove whichever runs first.
await call(
  'PUT',
  `/connectors/v1/applications/${application.id}/keys/${key.key!.id}`,
  undefined,
  credentials.consoleToken,
);

// A healthy connection through the sandbox's consent flow (the server's own sandbox provider), with an
// import link that has run once, so the import and export operations reach the provider.
const connectCall = (path: string, init: RequestInit = {}) =>
  fetch(`${baseUrl}${path}`, {
    ...init,
    headers: {
      Authorization: `Bearer ${credentials.apiKey}`,
      'Content-Type': 'application/json',
      ...init.headers,
    },
  });
const { connectionId: healthyConnection } = await connectThroughSandbox(connectCall, {
  account: 'acct-schemathesis',
});
const matterId = (
  (await call('GET', `/connectors/v1/connections/${healthyConnection}/sources?limit=1`)) as {
    data: { id: string }[];
  }
).data[0]!.id;
const importLink = (await call('POST', `/connectors/v1/connections/${healthyConnection}/links`, {
  vault_id: 'vlt_schemathesis',
  source: { id: matterId },
})) as { id: string };
const importRun = (await call('POST', `/connectors/v1/links/${importLink.id}/runs`)) as { id: string };
for (let attempt = 0; attempt < 200; attempt++) {
  const run = (await call('GET', `/connectors/jobs/${importRun.id}`)) as { status: string };
  if (run.status !== 'processing') break;
  await new Promise((resolve) => setTimeout(resolve, 50));
}
/** Links to delete, each from a container of its own (a second link of one source into one vault is 409). */
async function deletableLinks(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const link = (await call('POST', `/connectors/v1/connections/${healthyConnection}/links`, {
      vault_id: `vlt_schemathesis_${i}`,
      source: { id: matterId },
    })) as { id: string };
    ids.push(link.id);
  }
  return ids;
}

/** One value per line, quoted: the libFuzzer dictionary format schemathesis reads. */
function dictionary(name: string, values: string[]): void {
  writeFileSync(join(dataDir!, `${name}.dict`), values.map((v) => JSON.stringify(v)).join('\n') + '\n');
}

/** Every container the healthy connection's account has (the provider's real ids, for link sources and export destinations). */
async function containers(): Promise<string[]> {
  const ids: string[] = [];
  let token: string | undefined;
  do {
    const page = (await call(
      'GET',
      `/connectors/v1/connections/${healthyConnection}/sources?limit=100${token ? `&page_token=${encodeURIComponent(token)}` : ''}`,
    )) as { data: { id: string }[]; next_page_token?: string | null };
    ids.push(...page.data.map((source) => source.id));
    token = page.next_page_token ?? undefined;
  } while (token && ids.length < 500);
  return ids;
}

const ONE_SHOT = 25;
dictionary('containers', await containers());
dictionary('deletable-endpoints', await Promise.all(Array.from({ length: ONE_SHOT }, endpoint)));
dictionary('deletable-links', await deletableLinks(ONE_SHOT));
dictionary(
  'connect-tokens',
  await Promise.all(Array.from({ length: ONE_SHOT }, async () => (await connection()).token)),
);

// The run publishes into an organization of its own: its events would otherwise fan out to every
// endpoint the run creates (hundreds, at generated host names) and bury the server in delivery attempts.
const publishTarget = admin('create-org', '--name', 'schemathesis publishing target');

const fixtures: Record<string, string> = {
  ST_API_KEY: credentials.apiKey,
  ST_SYSTEM_KEY: credentials.systemKey,
  ST_CONSOLE_TOKEN: credentials.consoleToken,
  ST_PUBLISH_ORGANIZATION_ID: publishTarget.id!,
  ST_ENDPOINT_ID: endpointId,
  ST_UPDATE_ENDPOINT_ID: await endpoint(),
  ST_TEST_ENDPOINT_ID: await endpoint(),
  ST_DELIVERY_ID: await deliveryTo(endpointId),
  ST_WEBHOOK_JOB_ID: job.id,
  ST_CONNECTION_ID: (await connection()).id,
  ST_DELETE_CONNECTION_ID: (await connection()).id,
  ST_SHOW_TOKEN: (await connection()).token,
  ST_CONNECTOR_JOB_ID: purge.id,
  ST_APPLICATION_ID: application.id!,
  ST_BOUND_KEY_ID: key.key!.id,
  ST_HEALTHY_CONNECTION_ID: healthyConnection,
  ST_LINK_ID: importLink.id,
  ST_SYNC_JOB_ID: importRun.id,
};
for (const [name, value] of Object.entries(fixtures)) console.log(`${name}=${value}`);
