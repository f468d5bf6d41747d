// The token lifecycle on DynamoDB Local and moto KMS, against the sandbox provider in process (which
// rotates refresh tokens and revokes the whole grant when a spent one is presented again): concurrent
// refreshers spend a refresh token once, a lapse becomes reauth_required, a 429 a throttle that ends.
import { awsKeys, awsSecrets, awsVault, awsWorkflows } from '../../functions/adapters/aws';
import { LocalQueue } from '../../functions/adapters/local/local-queue';
import type { ConnectorConfig } from '../../functions/connectors/infra/config';
import { completeConnection, openConnectLink } from '../../functions/connectors/app/connect-flow';
import { createConnection, disconnect, getConnection } from '../../functions/connectors/app/connections';
import { fetchAccount } from '../../functions/connectors/infra/oauth-client';
import { PROVIDERS } from '../../functions/connectors/domain/providers';
import type { ConnectionItem } from '../../functions/connectors/infra/repositories/connections';
import { ConnectionRepository } from '../../functions/connectors/infra/repositories/connections';
import { runRefreshSweep } from '../../functions/connectors/app/sweep';
import { getAccessToken } from '../../functions/connectors/app/token-lifecycle';
import type { SandboxProvider } from '../../sandbox';
import { startSandboxProvider } from '../../sandbox';
import { sweepDueAt } from '../../functions/connectors/domain/token-policy';
import { ManualClock } from '../../functions/platform/clock';
import type { Deps } from '../../functions/platform/ports';
import { Logger } from '../../functions/platform/logger';
import { createAwsTables, createKmsKey } from '../support/emulators';
import { approveAtSandbox, sandboxConnectorConfig } from '../support/sandbox';

const BASE_URL = 'https://api.test.example';
const ORG = 'org_lifecycleintegrationa';
const HOUR = 3600_000;
/** When the sweep takes an idle practice connection: before its unused refresh token lapses. */
const IDLE_DUE_MS = sweepDueAt(0, PROVIDERS.practice.refreshTokenIdleSeconds! * 1000);
const log = new Logger({ test: 'token-lifecycle' }, 'error');
const instant = async () => undefined;

let sandbox: SandboxProvider;
let clock: ManualClock;
let deps: Deps & { queues: { events: LocalQueue; deliveries: LocalQueue; syncs: LocalQueue } };
let config: ConnectorConfig;
let store: ConnectionRepository;

beforeAll(async () => {
  clock = new ManualClock(Date.now());
  sandbox = await startSandboxProvider({ clock, exposeIssued: true });
  config = sandboxConnectorConfig(sandbox, BASE_URL);
  const tables = await createAwsTables('lifecycle');
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
  store = ConnectionRepository.of(deps);
});

afterAll(async () => {
  await sandbox?.close();
});

/** The whole connect flow for a practice account; returns the connection it landed on. */
async function connect(account: string): Promise<string> {
  const created = await createConnection(
    deps,
    ORG,
    { provider: 'practice', return_url: 'https://app.example.com/back' },
    BASE_URL,
  );
  const opened = await openConnectLink(deps, config, {
    token: created.connect_url.split('/').pop()!,
    baseUrl: BASE_URL,
  });
  const { code, state } = await approveAtSandbox(opened.location, account);
  const done = await completeConnection(
    deps,
    config,
    {
      provider: 'practice',
      query: { code, state },
      cookieHeader: opened.cookie!.split(';')[0],
      baseUrl: BASE_URL,
    },
    log,
  );
  expect(done.outcome).toMatch(/connected/);
  return done.connectionId;
}

const refreshCalls = () =>
  sandbox.issued().tokenRequests.filter((r) => r.provider === 'practice' && r.grantType === 'refresh_token');

async function nextTokenError(error: 'invalid_grant' | 'rate_limited', retryAfter?: number) {
  const response = await fetch(`${sandbox.url}/__sandbox/next-token-error`, {
    method: 'POST',
    body: JSON.stringify({ provider: 'practice', error, retry_after: retryAfter }),
  });
  expect(response.status).toBe(204);
}

describe('token lifecycle on DynamoDB Local, moto KMS and the sandbox provider', () => {
  afterEach(async () => {
    // Each test leaves nothing due behind for the next one: every connection is disconnected.
    const all = await deps.tables.connectors.query<ConnectionItem>({
      index: 'gsi1',
      partition: `ORG#${ORG}#CONNS`,
    });
    for (const c of all.items.filter((c) => c.status !== 'revoked' && c.status !== 'pending')) {
      await disconnect(deps, config, ORG, c.id, log);
    }
    deps.queues.events.drain();
  });

  it('lets 10 concurrent refreshers of an expired rotating token through with exactly one provider call', async () => {
    expect(PROVIDERS.practice.rotatesRefreshTokens).toBe(true);
    const id = await connect('acct-race');
    const before = refreshCalls().length;
    clock.advance(2 * HOUR);

    const tokens = await Promise.all(
      Array.from({ length: 10 }, () => getAccessToken({ deps, config, log }, id)),
    );

    const calls = refreshCalls().slice(before);
    expect(calls).toEqual([{ provider: 'practice', grantType: 'refresh_token', status: 200 }]);
    expect(new Set(tokens.map((t) => t.accessToken)).size).toBe(1);
    expect(tokens.every((t) => t.tokenVersion === 2)).toBe(true);
    const stored = (await store.getTokens(id))!;
    expect(stored.tokenVersion).toBe(2);
    expect(stored.leaseOwner).toBeUndefined();
    // Valid at the provider: the grant was not revoked by a second use of the spent refresh token.
    const account = await fetchAccount(
      await config.client('practice'),
      PROVIDERS.practice,
      tokens[0]!.accessToken,
    );
    expect(account.external_id).toBe('acct-race');
    expect(sandbox.issued().revoked).not.toContain(tokens[0]!.accessToken);
    expect((await getConnection(deps, ORG, id)).status).toBe('healthy');
  });

  it('refreshes once when sweeps and on-use callers race on a due token', async () => {
    const id = await connect('acct-sweep-race');
    const before = refreshCalls().length;
    clock.advance(IDLE_DUE_MS); // due for the sweep (its refresh token idle), and expired for the users
    const results = await Promise.all([
      runRefreshSweep(deps, config, { log, sleep: instant }),
      runRefreshSweep(deps, config, { log, sleep: instant }),
      runRefreshSweep(deps, config, { log, sleep: instant }),
      ...Array.from({ length: 5 }, () => getAccessToken({ deps, config, log }, id)),
    ]);
    expect(refreshCalls().slice(before)).toHaveLength(1);
    expect((await store.getTokens(id))!.tokenVersion).toBe(2);
    expect(results.length).toBe(8);
    expect((await runRefreshSweep(deps, config, { log, sleep: instant })).entries).toBe(0);
  });

  it('lapses on invalid_grant: reauth_required and the event; the connect flow brings it back under the same id', async () => {
    const id = await connect('acct-lapse');
    await nextTokenError('invalid_grant');
    clock.advance(IDLE_DUE_MS);

    const summary = await runRefreshSweep(deps, config, { log, sleep: instant });
    expect(summary).toMatchObject({ lapsed: 1 });
    expect((await getConnection(deps, ORG, id)).status).toBe('reauth_required');
    const events = deps.queues.events.drain().map((b) => JSON.parse(b) as Record<string, unknown>);
    expect(events).toEqual([
      {
        id: expect.stringMatching(/^evt_/),
        organizationId: ORG,
        type: 'connection.reauth_required',
        occurred_at: expect.any(String),
        data: {
          connectionId: id,
          provider: 'practice',
          status: 'reauth_required',
          previousStatus: 'healthy',
        },
      },
    ]);
    await expect(getAccessToken({ deps, config, log }, id)).rejects.toMatchObject({
      reason: 'reauth_required',
    });
    // Nothing left for the sweep to do for it.
    clock.advance(HOUR);
    const before = refreshCalls().length;
    await runRefreshSweep(deps, config, { log, sleep: instant });
    expect(refreshCalls().length).toBe(before);

    // The user runs the connect flow again for the same account: same id, healthy, tokens renewed.
    expect(await connect('acct-lapse')).toBe(id);
    expect((await getConnection(deps, ORG, id)).status).toBe('healthy');
    const token = await getAccessToken({ deps, config, log }, id);
    expect(token.tokenVersion).toBe(2);
    // And it is back in the sweep: due again before its new refresh token would lapse unused.
    clock.advance(IDLE_DUE_MS);
    expect(await runRefreshSweep(deps, config, { log, sleep: instant })).toMatchObject({ refreshed: 1 });
  });

  it('throttles on 429 until Retry-After, then returns to healthy and refreshes', async () => {
    const id = await connect('acct-throttle');
    await nextTokenError('rate_limited', 90);
    clock.advance(IDLE_DUE_MS);

    expect(await runRefreshSweep(deps, config, { log, sleep: instant })).toMatchObject({ throttled: 1 });
    const throttled = (await store.get(id))!;
    expect(throttled).toMatchObject({ status: 'throttled', previousStatus: 'healthy' });
    expect(throttled.throttleEndsAt!).toBe(clock.now() + 90_000);
    expect(await runRefreshSweep(deps, config, { log, sleep: instant })).toEqual({
      entries: 0,
      truncated: false,
    });

    clock.advance(90_000);
    expect(await runRefreshSweep(deps, config, { log, sleep: instant })).toMatchObject({
      unthrottled: 1,
      refreshed: 1,
    });
    const restored = (await store.get(id))!;
    expect(restored.status).toBe('healthy');
    expect(restored.throttleEndsAt).toBeUndefined();
    expect(restored.gsi2pk).toBeUndefined();
    expect((await store.getTokens(id))!.tokenVersion).toBe(2);
  });
});
