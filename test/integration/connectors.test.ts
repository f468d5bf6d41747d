// The connect flow's core on DynamoDB Local and moto KMS, with the sandbox provider in process: tokens
// are stored only as ciphertext bound to {organization, connection}, single use holds on DynamoDB.
import { awsKeys, awsSecrets, awsVault, awsWorkflows } from '../../functions/adapters/aws';
import { LocalQueue } from '../../functions/adapters/local/local-queue';
import type { ConnectorConfig } from '../../functions/connectors/infra/config';
import { completeConnection, openConnectLink } from '../../functions/connectors/app/connect-flow';
import {
  createConnection,
  disconnect,
  getConnection,
  tokenContext,
} from '../../functions/connectors/app/connections';
import type { TokenItem } from '../../functions/connectors/infra/repositories/connections';
import { startSandboxProvider } from '../../sandbox';
import type { SandboxProvider } from '../../sandbox';
import { ManualClock } from '../../functions/platform/clock';
import type { Deps } from '../../functions/platform/ports';
import { open } from '../../functions/platform/envelope';
import { Logger } from '../../functions/platform/logger';
import { createAwsTables, createKmsKey } from '../support/emulators';
import { approveAtSandbox, sandboxConnectorConfig } from '../support/sandbox';

const BASE_URL = 'https://api.test.example';
const ORG = 'org_integrationaaaaaaaaaa';
const log = new Logger({ test: 'connectors' }, 'error');

let sandbox: SandboxProvider;
let deps: Deps & { queues: { events: LocalQueue; deliveries: LocalQueue; syncs: LocalQueue } };
let config: ConnectorConfig;

beforeAll(async () => {
  const clock = new ManualClock(Date.now());
  sandbox = await startSandboxProvider({ clock });
  config = sandboxConnectorConfig(sandbox, BASE_URL);
  const tables = await createAwsTables('connectors');
  deps = {
    tables,
    keys: awsKeys(await createKmsKey()),
    queues: {
      events: new LocalQueue('events'),
      deliveries: new LocalQueue('deliveries'),
      syncs: new LocalQueue('syncs'),
    },
    clock,
    // Not used by these use cases; built lazily, so they need no resource here.
    workflows: awsWorkflows(),
    vault: awsVault(tables, clock),
    secrets: awsSecrets(),
  };
});

afterAll(async () => {
  await sandbox?.close();
});

async function connect(
  account: string,
): Promise<{ pendingId: string; connectionId: string; location: string }> {
  const created = await createConnection(
    deps,
    ORG,
    { provider: 'practice', return_url: 'https://app.example.com/back?t=1' },
    BASE_URL,
  );
  const token = created.connect_url.split('/').pop()!;
  const opened = await openConnectLink(deps, config, { token, baseUrl: BASE_URL });
  const cookie = opened.cookie!.split(';')[0]!;
  const { code, state } = await approveAtSandbox(opened.location, account);
  const done = await completeConnection(
    deps,
    config,
    { provider: 'practice', query: { code, state }, cookieHeader: cookie, baseUrl: BASE_URL },
    log,
  );
  return { pendingId: created.connection_id, connectionId: done.connectionId, location: done.location };
}

describe('connect flow on DynamoDB and KMS', () => {
  it('stores the tokens as ciphertext only, bound to the organization and the connection', async () => {
    const { connectionId, location } = await connect('acct-int-1');
    expect(location).toBe(`https://app.example.com/back?t=1&connection_id=${connectionId}`);
    expect(await getConnection(deps, ORG, connectionId)).toMatchObject({
      status: 'healthy',
      account: { external_id: 'acct-int-1' },
    });

    const item = (await deps.tables.connectors.get<TokenItem>({ pk: `CONN#${connectionId}`, sk: 'TOKENS' }))!;
    expect(item).toMatchObject({
      tokenVersion: 1,
      tokenType: 'Bearer',
      scopes: ['matters.read', 'documents.read', 'contacts.read', 'documents.write'],
    });
    const issued = sandbox.issued();
    const raw = JSON.stringify(item);
    for (const secret of [...issued.accessTokens, ...issued.refreshTokens, ...issued.codes])
      expect(raw).not.toContain(secret);
    expect(raw).not.toMatch(/sbx_(at|rt|code)_/);

    const plain = JSON.parse(await open(deps.keys, item.sealed, tokenContext(ORG, connectionId))) as {
      access_token: string;
      refresh_token: string;
    };
    expect(issued.accessTokens).toContain(plain.access_token);
    expect(issued.refreshTokens).toContain(plain.refresh_token);
    await expect(
      open(deps.keys, item.sealed, tokenContext(ORG, 'conn_anotheraaaaaaaaaaaaa')),
    ).rejects.toThrow();
    await expect(open(deps.keys, item.sealed, tokenContext('org_other', connectionId))).rejects.toThrow();
  });

  it('keeps the PKCE verifier sealed and out of the state', async () => {
    const created = await createConnection(
      deps,
      ORG,
      { provider: 'drive', return_url: 'https://app.example.com/' },
      BASE_URL,
    );
    const opened = await openConnectLink(deps, config, {
      token: created.connect_url.split('/').pop()!,
      baseUrl: BASE_URL,
    });
    const state = new URL(opened.location).searchParams.get('state')!;
    const payload = JSON.parse(Buffer.from(state.split('.')[0]!, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    expect(Object.keys(payload).sort()).toEqual(['c', 'e', 'n', 'p', 't']);
    const flow = await deps.tables.connectors.get({ pk: `FLOW#${payload.n as string}`, sk: 'FLOW' });
    expect(flow).toMatchObject({
      connectionId: created.connection_id,
      verifier: { v: 1, ciphertext: expect.any(String) },
    });
  });

  it('lets exactly one of several concurrent opens of a link through', async () => {
    const created = await createConnection(
      deps,
      ORG,
      { provider: 'practice', return_url: 'https://app.example.com/' },
      BASE_URL,
    );
    const token = created.connect_url.split('/').pop()!;
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => openConnectLink(deps, config, { token, baseUrl: BASE_URL })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
      expect(r.reason).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('reconnects onto the existing connection with new tokens, version-fenced', async () => {
    const first = await connect('acct-int-2');
    const second = await connect('acct-int-2');
    expect(second.connectionId).toBe(first.connectionId);
    expect(second.pendingId).not.toBe(first.connectionId);
    const item = (await deps.tables.connectors.get<TokenItem>({
      pk: `CONN#${first.connectionId}`,
      sk: 'TOKENS',
    }))!;
    expect(item.tokenVersion).toBe(2);
    expect((await getConnection(deps, ORG, second.pendingId)).status).toBe('revoked');
  });

  it('reconnects a reauth_required connection back to healthy under the same id', async () => {
    const first = await connect('acct-int-reauth');
    await deps.tables.connectors.update(
      { pk: `CONN#${first.connectionId}`, sk: 'CONN' },
      { set: { status: 'reauth_required' } },
    );
    const second = await connect('acct-int-reauth');
    expect(second.connectionId).toBe(first.connectionId);
    expect((await getConnection(deps, ORG, first.connectionId)).status).toBe('healthy');
  });

  it('disconnects: revokes at the provider, deletes the tokens, publishes connection.revoked once', async () => {
    const { connectionId } = await connect('acct-int-3');
    const item = (await deps.tables.connectors.get<TokenItem>({ pk: `CONN#${connectionId}`, sk: 'TOKENS' }))!;
    const { refresh_token } = JSON.parse(
      await open(deps.keys, item.sealed, tokenContext(ORG, connectionId)),
    ) as { refresh_token: string };
    deps.queues.events.drain();

    await disconnect(deps, config, ORG, connectionId, log);
    await disconnect(deps, config, ORG, connectionId, log);

    expect(sandbox.issued().revoked).toContain(refresh_token);
    expect(await deps.tables.connectors.get({ pk: `CONN#${connectionId}`, sk: 'TOKENS' })).toBeUndefined();
    expect((await getConnection(deps, ORG, connectionId)).status).toBe('revoked');
    const events = deps.queues.events.drain().map((body) => JSON.parse(body) as Record<string, unknown>);
    expect(events).toEqual([
      {
        id: expect.stringMatching(/^evt_/),
        organizationId: ORG,
        type: 'connection.revoked',
        occurred_at: expect.any(String),
        data: { connectionId, provider: 'practice', status: 'revoked', purge: false },
      },
    ]);
  });
});
