// The token lifecycle on an injected clock: the pure rules (when to refresh, what a provider failure
// means, throttle windows and transitions), then the use cases on the in-memory table with a scripted
// token endpoint (the integration and e2e tiers use the real sandbox provider).
import type { LocalDeps } from '../../functions/compose/local';
import { createLocalDeps } from '../../functions/compose/local';
import type { ConnectorConfig } from '../../functions/connectors/infra/config';
import { getConnection, listConnections, tokenContext } from '../../functions/connectors/app/connections';
import { parseRetryAfter } from '../../functions/connectors/infra/oauth-client';
import { setProviderEnabled } from '../../functions/connectors/app/provider-settings';
import type { ConnectionItem, TokenItem } from '../../functions/connectors/infra/repositories/connections';
import {
  ConnectionRepository,
  DUE_SHARDS,
  dueAtOf,
} from '../../functions/connectors/infra/repositories/connections';
import { runRefreshSweep } from '../../functions/connectors/app/sweep';
import {
  ConnectionThrottledError,
  ConnectionUnusableError,
  TokenUnavailableError,
  getAccessToken,
  readRefresh,
  throttleConnection,
} from '../../functions/connectors/app/token-lifecycle';
import type { RefreshOutcome } from '../../functions/connectors/app/token-lifecycle';
import {
  DISABLED_RECHECK_MS,
  REFRESH_LEAD_MS,
  TOKEN_REUSE_MS,
  classifyTokenFailure,
  effectiveStatus,
  nextThrottle,
  refreshDueAt,
  sweepDueAt,
  throttleWindowMs,
  tokenFreshness,
} from '../../functions/connectors/domain/token-policy';
import { PROVIDERS } from '../../functions/connectors/domain/providers';
import { connectorContext } from '../../functions/connectors/app/context';
import { ProviderApiError } from '../../functions/connectors/infra/content';
import { ManualClock } from '../../functions/platform/clock';
import { outboxEvent, pendingEvents } from '../../functions/events';
import { decide } from '../../functions/connectors/domain/connection-decide';
import { open, seal } from '../../functions/platform/envelope';
import { Logger } from '../../functions/platform/logger';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const MIN = 60_000;
const HOUR = 3600_000;
/** When the sweep takes an idle practice connection: before its unused refresh token lapses (4 h). */
const IDLE_DUE_MS = sweepDueAt(0, PROVIDERS.practice.refreshTokenIdleSeconds! * 1000);

describe('when to refresh', () => {
  const tokens = (obtainedAt: number, lifetimeMs: number) => ({
    obtainedAt: obtainedAt,
    accessTokenExpiresAt: obtainedAt + lifetimeMs,
  });

  it('comes due ten minutes before expiry for an hour-long token', () => {
    expect(refreshDueAt(T0 + HOUR, T0)).toBe(T0 + HOUR - REFRESH_LEAD_MS);
  });

  it('comes due half-way through a token shorter than twenty minutes', () => {
    expect(refreshDueAt(T0 + 10 * MIN, T0)).toBe(T0 + 5 * MIN);
  });

  it('reads fresh, then due, then expired a minute before the end', () => {
    const t = tokens(T0, HOUR);
    expect(tokenFreshness(t, T0)).toBe('fresh');
    expect(tokenFreshness(t, T0 + 49 * MIN)).toBe('fresh');
    expect(tokenFreshness(t, T0 + 50 * MIN)).toBe('due');
    expect(tokenFreshness(t, T0 + 58 * MIN)).toBe('due');
    expect(tokenFreshness(t, T0 + 59 * MIN)).toBe('expired');
    expect(tokenFreshness(t, T0 + 2 * HOUR)).toBe('expired');
  });
});

describe('classifying a failed token request', () => {
  it.each([
    [{ status: 400, oauthError: 'invalid_grant' }, 'lapsed'],
    [{ status: 401, oauthError: 'invalid_token' }, 'lapsed'],
    [{ status: 429, retryAfterSeconds: 30 }, 'throttled'],
    [{ status: 500 }, 'transient'],
    [{ status: 503, oauthError: 'temporarily_unavailable' }, 'transient'],
    [{ status: 408 }, 'transient'],
    [{ status: undefined, oauthError: 'network_error' }, 'transient'],
    [{ status: 401, oauthError: 'invalid_client' }, 'fatal'],
    [{ status: 400, oauthError: 'unsupported_grant_type' }, 'fatal'],
    [{ status: 400 }, 'fatal'],
    [{ status: 200, oauthError: 'no_access_token' }, 'fatal'],
  ])('%j is %s', (failure, kind) => {
    expect(classifyTokenFailure(failure, T0).kind).toBe(kind);
  });

  it('reads Retry-After as seconds or as an HTTP date against the injected clock', () => {
    expect(classifyTokenFailure({ status: 429, retryAfterSeconds: 120 }, T0)).toEqual({
      kind: 'throttled',
      retryAfterSeconds: 120,
    });
    expect(classifyTokenFailure({ status: 429, retryAt: T0 + 90_000 }, T0)).toEqual({
      kind: 'throttled',
      retryAfterSeconds: 90,
    });
    expect(classifyTokenFailure({ status: 429 }, T0)).toEqual({ kind: 'throttled' });
    expect(parseRetryAfter('120')).toEqual({ seconds: 120 });
    expect(parseRetryAfter('Wed, 01 Jan 2031 00:00:00 GMT')).toEqual({
      at: Date.parse('2031-01-01T00:00:00Z'),
    });
    expect(parseRetryAfter('soon')).toEqual({});
    expect(parseRetryAfter(null)).toEqual({});
  });
});

describe('throttle windows and transitions', () => {
  it('honours Retry-After within 1 s and 6 h', () => {
    expect(throttleWindowMs(120, 1)).toBe(120_000);
    expect(throttleWindowMs(0, 1)).toBe(1_000);
    expect(throttleWindowMs(48 * 3600, 1)).toBe(6 * HOUR);
  });

  it('backs off 1, 2, 4 minutes... at most an hour without Retry-After', () => {
    expect([1, 2, 3, 4, 7, 30].map((n) => throttleWindowMs(undefined, n))).toEqual([
      MIN,
      2 * MIN,
      4 * MIN,
      8 * MIN,
      HOUR,
      HOUR,
    ]);
  });

  it('throttles a healthy connection and remembers to return to healthy', () => {
    expect(nextThrottle({ status: 'healthy' }, T0, 30)).toEqual({
      throttleEndsAt: T0 + 30_000,
      previousStatus: 'healthy',
      throttleCount: 1,
    });
  });

  it('extends a throttle but never shortens it, and keeps the status to return to', () => {
    const current = {
      status: 'throttled' as const,
      throttleEndsAt: T0 + 10 * MIN,
      previousStatus: 'healthy' as const,
      throttleCount: 1,
    };
    expect(nextThrottle(current, T0, 60)).toMatchObject({
      throttleEndsAt: T0 + 10 * MIN,
      throttleCount: 2,
    });
    expect(nextThrottle(current, T0, 3600)).toMatchObject({ throttleEndsAt: T0 + HOUR });
  });

  it('does not throttle a connection that makes no provider calls', () => {
    for (const status of ['pending', 'reauth_required', 'revoked'] as const) {
      expect(nextThrottle({ status }, T0, 30)).toBeUndefined();
    }
  });

  it('reads a throttle whose window passed as the status it returns to', () => {
    const throttled = {
      status: 'throttled' as const,
      throttleEndsAt: T0 + MIN,
      previousStatus: 'healthy' as const,
    };
    expect(effectiveStatus(throttled, T0)).toBe('throttled');
    expect(effectiveStatus(throttled, T0 + MIN)).toBe('healthy');
    expect(effectiveStatus({ status: 'reauth_required' }, T0)).toBe('reauth_required');
  });
});

// ---- use cases on the memory table, with a scripted token endpoint ----

const ORG = 'org_unitlifecycleaaaaaaa';
const log = new Logger({ test: 'token-lifecycle' }, 'error');
const instant = async () => undefined;

type Answer = { status: number; body: Record<string, unknown>; headers?: Record<string, string> };

let clock: ManualClock;
let deps: LocalDeps;
let store: ConnectionRepository;
let tokenCalls: URLSearchParams[];
let script: (n: number) => Answer;
let issuedCount: number;
const realFetch = globalThis.fetch;

const settings = {
  authorizeUrl: 'https://provider.test/authorize',
  tokenUrl: 'https://provider.test/token',
  revokeUrl: 'https://provider.test/revoke',
  accountUrl: 'https://provider.test/account',
  apiUrl: 'https://provider.test/api/v1',
  clientId: 'client',
};
const config: ConnectorConfig = {
  stateKey: async () => Buffer.alloc(32, 1),
  provider: () => settings,
  client: async () => ({ ...settings, clientSecret: 'secret' }),
};

const issue = (): Answer => {
  issuedCount++;
  return {
    status: 200,
    body: {
      access_token: `at-${issuedCount}`,
      refresh_token: `rt-${issuedCount}`,
      token_type: 'Bearer',
      expires_in: 3600,
    },
  };
};

beforeEach(() => {
  clock = new ManualClock(T0);
  deps = createLocalDeps({ clock });
  const { tables } = deps;
  store = new ConnectionRepository(tables.connectors);
  tokenCalls = [];
  issuedCount = 0;
  script = () => issue();
  globalThis.fetch = (async (_url: string, init: RequestInit) => {
    tokenCalls.push(new URLSearchParams(String(init.body)));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const answer = script(tokenCalls.length);
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json', ...answer.headers },
    });
  }) as typeof fetch;
});

afterEach(() => {
  globalThis.fetch = realFetch;
});

async function seedConnection(
  id = 'conn_unitaaaaaaaaaaaaaaaa',
  params?: Record<string, string>,
): Promise<string> {
  const now = clock.now();
  await store.create({
    id,
    organizationId: ORG,
    provider: 'practice',
    status: 'healthy',
    scopeTier: 'standard',
    returnUrl: 'https://app.example.com/',
    account: { external_id: 'acct-1', email: 'a@example.com', display_name: 'A' },
    createdAt: now,
    updatedAt: now,
  });
  const sealed = await seal(
    deps.keys,
    JSON.stringify({ access_token: 'at-0', refresh_token: 'rt-0' }),
    tokenContext(ORG, id),
  );
  await store.putTokens(
    {
      connectionId: id,
      organizationId: ORG,
      provider: 'practice',
      ...(params ? { params } : {}),
      sealed,
      tokenVersion: 1,
      tokenType: 'Bearer',
      scopes: ['matters.read'],
      accessTokenExpiresAt: clock.now() + HOUR,
      obtainedAt: now,
    },
    0,
  );
  return id;
}

const stored = async (id: string) => ({
  connection: (await store.get(id)) as ConnectionItem,
  tokens: (await store.getTokens(id)) as TokenItem,
});
const events = () => deps.queues.events.drain().map((b) => JSON.parse(b) as { type: string; data: unknown });
const sweep = () => runRefreshSweep(deps, config, { log, sleep: instant });

describe('getAccessToken (on use)', () => {
  it('hands out a fresh token without calling the provider', async () => {
    const id = await seedConnection();
    await expect(getAccessToken({ deps, config, log }, id)).resolves.toMatchObject({
      accessToken: 'at-0',
      tokenVersion: 1,
    });
    expect(tokenCalls).toHaveLength(0);
  });

  it('refreshes a due token, writes version 2 and moves the sweep entry to the new due time', async () => {
    const id = await seedConnection();
    clock.advance(51 * MIN);
    const token = await getAccessToken({ deps, config, log }, id);
    expect(token).toMatchObject({ accessToken: 'at-1', tokenVersion: 2 });
    expect(tokenCalls.map((f) => [f.get('grant_type'), f.get('refresh_token')])).toEqual([
      ['refresh_token', 'rt-0'],
    ]);
    const { tokens } = await stored(id);
    expect(tokens.leaseOwner).toBeUndefined();
    // The refresh token was used: the idle connection's sweep is due a full idle period later.
    expect(dueAtOf(tokens)).toBe(clock.now() + IDLE_DUE_MS);
    const plain = JSON.parse(await open(deps.keys, tokens.sealed, tokenContext(ORG, id))) as object;
    expect(plain).toEqual({ access_token: 'at-1', refresh_token: 'rt-1' });
  });

  it('keeps the refresh token when a provider that does not rotate sends none back', async () => {
    const id = await seedConnection();
    script = () => ({ status: 200, body: { access_token: 'at-x', expires_in: 3600 } });
    clock.advance(2 * HOUR);
    await getAccessToken({ deps, config, log }, id);
    const { tokens } = await stored(id);
    expect(JSON.parse(await open(deps.keys, tokens.sealed, tokenContext(ORG, id)))).toEqual({
      access_token: 'at-x',
      refresh_token: 'rt-0',
    });
  });

  it("sends every refresh, not only the first, to the connection's own region or server", async () => {
    const id = await seedConnection(undefined, { region: 'eu' });
    const asked: unknown[] = [];
    const regional: ConnectorConfig = {
      ...config,
      client: async (_provider, params) => {
        asked.push(params);
        return { ...settings, clientSecret: 'secret' };
      },
    };
    for (let n = 0; n < 3; n++) {
      clock.advance(2 * HOUR);
      await getAccessToken({ deps, config: regional, log }, id);
    }
    expect(asked).toEqual([{ region: 'eu' }, { region: 'eu' }, { region: 'eu' }]);
    expect((await stored(id)).tokens).toMatchObject({ tokenVersion: 4, params: { region: 'eu' } });
  });

  it('lets ten concurrent callers of an expired token through with one provider call', async () => {
    const id = await seedConnection();
    clock.advance(2 * HOUR);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => getAccessToken({ deps, config, log }, id)),
    );
    expect(tokenCalls).toHaveLength(1);
    expect(new Set(results.map((r) => r.accessToken))).toEqual(new Set(['at-1']));
    expect((await stored(id)).tokens.tokenVersion).toBe(2);
  });

  it('retries 5xx and timeouts without changing the status', async () => {
    const id = await seedConnection();
    script = (n) => (n < 3 ? { status: 503, body: { error: 'temporarily_unavailable' } } : issue());
    clock.advance(2 * HOUR);
    await expect(getAccessToken({ deps, config, log, sleep: instant }, id)).resolves.toMatchObject({
      tokenVersion: 2,
    });
    expect(tokenCalls).toHaveLength(3);
    expect((await stored(id)).connection.status).toBe('healthy');
  });

  it('still hands out a due (unexpired) token when the provider keeps failing', async () => {
    const id = await seedConnection();
    script = () => ({ status: 500, body: {} });
    clock.advance(55 * MIN);
    await expect(getAccessToken({ deps, config, log, sleep: instant }, id)).resolves.toMatchObject({
      accessToken: 'at-0',
    });
    clock.advance(10 * MIN);
    await expect(getAccessToken({ deps, config, log, sleep: instant }, id)).rejects.toMatchObject({
      name: 'TokenUnavailableError',
    });
    const { connection, tokens } = await stored(id);
    expect(connection.status).toBe('healthy');
    expect(tokens.tokenVersion).toBe(1);
    expect(tokens.leaseOwner).toBeUndefined();
  });
});

describe('lapse', () => {
  it('turns invalid_grant into reauth_required and publishes connection.reauth_required once', async () => {
    const id = await seedConnection();
    script = () => ({ status: 400, body: { error: 'invalid_grant' } });
    clock.advance(2 * HOUR);
    const calls = await Promise.allSettled([1, 2, 3].map(() => getAccessToken({ deps, config, log }, id)));
    for (const call of calls) expect(call).toMatchObject({ status: 'rejected' });
    expect(tokenCalls).toHaveLength(1);
    const { connection, tokens } = await stored(id);
    expect(connection).toMatchObject({ status: 'reauth_required' });
    expect(pendingEvents(connection)).toEqual([]);
    expect(tokens.gsi2pk).toBeUndefined();
    expect(events()).toEqual([
      expect.objectContaining({
        type: 'connection.reauth_required',
        data: {
          connectionId: id,
          provider: 'practice',
          status: 'reauth_required',
          previousStatus: 'healthy',
        },
      }),
    ]);
    await expect(getAccessToken({ deps, config, log }, id)).rejects.toEqual(
      new ConnectionUnusableError(id, 'reauth_required'),
    );
  });

  it('does not lapse when another writer stored a newer version meanwhile (re-read first)', async () => {
    const id = await seedConnection();
    script = () => {
      // A reconnect lands while this refresh is at the provider.
      void (async () => {
        const current = (await store.getTokens(id))!;
        await store.putTokens(
          {
            ...current,
            tokenVersion: 2,
            obtainedAt: clock.now(),
            accessTokenExpiresAt: clock.now() + HOUR,
          },
          1,
        );
      })();
      return { status: 400, body: { error: 'invalid_grant' } };
    };
    clock.advance(2 * HOUR);
    await expect(getAccessToken({ deps, config, log }, id)).resolves.toMatchObject({ tokenVersion: 2 });
    expect((await stored(id)).connection.status).toBe('healthy');
    expect(events()).toEqual([]);
  });
});

describe('throttling', () => {
  it('throttles on 429 until Retry-After, reads healthy once due, and the sweep restores it', async () => {
    const id = await seedConnection();
    script = () => ({ status: 429, body: { error: 'rate_limited' }, headers: { 'Retry-After': '120' } });
    clock.advance(IDLE_DUE_MS);
    await sweep();
    const throttled = (await stored(id)).connection;
    expect(throttled).toMatchObject({
      status: 'throttled',
      previousStatus: 'healthy',
      throttleEndsAt: clock.now() + 120_000,
      throttleCount: 1,
    });
    expect((await getConnection(deps, ORG, id)).status).toBe('throttled');
    await expect(getAccessToken({ deps, config, log }, id)).rejects.toBeInstanceOf(ConnectionThrottledError);
    // Still throttled: the sweep leaves it alone and makes no provider call.
    await sweep();
    expect(tokenCalls).toHaveLength(1);

    clock.advance(120_000);
    expect((await getConnection(deps, ORG, id)).status).toBe('healthy');
    expect((await listConnections(deps, ORG, { limit: 10, offset: 0, status: 'healthy' })).data).toHaveLength(
      1,
    );
    script = () => issue();
    const summary = await sweep();
    expect(summary).toMatchObject({ unthrottled: 1, refreshed: 1 });
    const { connection, tokens } = await stored(id);
    expect(connection.status).toBe('healthy');
    expect(connection.throttleEndsAt).toBeUndefined();
    expect(connection.gsi2pk).toBeUndefined();
    expect(connection.throttleCount).toBeUndefined();
    expect(tokens.tokenVersion).toBe(2);
  });

  it('backs off without Retry-After and extends the window on a second 429', async () => {
    const id = await seedConnection();
    await throttleConnection({ deps, config, log }, id, undefined);
    expect((await stored(id)).connection.throttleEndsAt).toBe(T0 + MIN);
    await throttleConnection({ deps, config, log }, id, undefined);
    expect((await stored(id)).connection).toMatchObject({
      throttleEndsAt: T0 + 2 * MIN,
      throttleCount: 2,
      previousStatus: 'healthy',
    });
  });
});

describe("a connection's calls through the connector context", () => {
  const refusal = () => new ProviderApiError('browse', 401);
  const contextNow = () => connectorContext(deps, config, { log, sleep: instant });

  it('is one handle per connection id whose calls share a token read for TOKEN_REUSE_MS', async () => {
    const id = await seedConnection();
    const context = contextNow();
    expect(context.connection(id)).toBe(context.connection(id));
    expect(await context.connection(id).call(async (token) => token)).toBe('at-0');
    // A reconnect stores another token behind the context's back: the held read is used until it ages.
    const current = (await store.getTokens(id))!;
    const sealed = await seal(
      deps.keys,
      JSON.stringify({ access_token: 'at-new', refresh_token: 'rt-new' }),
      tokenContext(ORG, id),
    );
    await store.putTokens({ ...current, sealed, tokenVersion: 2 }, 1);
    clock.advance(TOKEN_REUSE_MS - 1);
    expect(await context.connection(id).call(async (token) => token)).toBe('at-0');
    clock.advance(1);
    expect(await context.connection(id).call(async (token) => token)).toBe('at-new');
    // Another invocation's context reads for itself.
    expect(
      await contextNow()
        .connection(id)
        .call(async (token) => token),
    ).toBe('at-new');
    expect(tokenCalls).toHaveLength(0);
  });

  it('refreshes once after a refusal and tries again with the new token', async () => {
    const id = await seedConnection();
    const seen: string[] = [];
    const answer = await contextNow()
      .connection(id)
      .call(async (token) => {
        seen.push(token);
        if (token === 'at-0') throw refusal();
        return 'listed';
      });
    expect(answer).toBe('listed');
    expect(seen).toEqual(['at-0', 'at-1']);
    expect(tokenCalls).toHaveLength(1);
    expect((await stored(id)).tokens.tokenVersion).toBe(2);
  });

  it('makes the connection reauth_required, with its event, when the refreshed token is refused too', async () => {
    const id = await seedConnection();
    const calls = contextNow().connection(id);
    await expect(
      calls.call(async () => {
        throw refusal();
      }),
    ).rejects.toEqual(new ConnectionUnusableError(id, 'reauth_required'));
    expect((await stored(id)).connection.status).toBe('reauth_required');
    expect(events().map((e) => e.type)).toEqual(['connection.reauth_required']);
    // The next call of the same handle reads the connection's new state, not the held token.
    await expect(calls.call(async (token) => token)).rejects.toEqual(
      new ConnectionUnusableError(id, 'reauth_required'),
    );
  });

  it('throttles the connection on a 429 until Retry-After and says until when', async () => {
    const id = await seedConnection();
    await expect(
      contextNow()
        .connection(id)
        .call(async () => {
          throw new ProviderApiError('changes', 429, 90);
        }),
    ).rejects.toEqual(new ConnectionThrottledError(id, new Date(T0 + 90_000).toISOString()));
    expect((await stored(id)).connection).toMatchObject({ status: 'throttled', throttleEndsAt: T0 + 90_000 });
  });
});

describe('the sweep', () => {
  it('refreshes only what is due, across shards', async () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'].map((c) => `conn_unit${c.repeat(16)}`);
    for (const id of ids) await seedConnection(id);
    expect(DUE_SHARDS).toBeGreaterThan(1);
    expect(await sweep()).toEqual({ entries: 0, truncated: false });
    // An access token near its expiry is no reason: nothing uses these connections.
    clock.advance(50 * MIN);
    expect(await sweep()).toEqual({ entries: 0, truncated: false });
    clock.advance(IDLE_DUE_MS - 50 * MIN - 1);
    expect(await sweep()).toEqual({ entries: 0, truncated: false });
    clock.advance(1);
    expect(await sweep()).toMatchObject({ entries: 6, refreshed: 6 });
    expect(tokenCalls).toHaveLength(6);
    expect(await sweep()).toEqual({ entries: 0, truncated: false });
  });

  it('skips a provider turned off for the organization, while on-use refresh still works', async () => {
    const id = await seedConnection();
    await setProviderEnabled({ tables: deps.tables, clock }, ORG, 'practice', false);
    clock.advance(IDLE_DUE_MS);
    expect(await sweep()).toMatchObject({ skipped_disabled: 1 });
    expect(tokenCalls).toHaveLength(0);
    expect(dueAtOf((await stored(id)).tokens)).toBe(clock.now() + DISABLED_RECHECK_MS);
    await expect(getAccessToken({ deps, config, log }, id)).resolves.toMatchObject({ tokenVersion: 2 });
  });

  it('leaves a grant without a refresh token until its access token ends, then finds it lapsed', async () => {
    const id = await seedConnection();
    const sealed = await seal(deps.keys, JSON.stringify({ access_token: 'at-long' }), tokenContext(ORG, id));
    const { tokens } = await stored(id);
    const { leaseOwner: _owner, leaseExpiresAt: _lease, ...record } = tokens;
    await store.putTokens(
      { ...record, sealed, tokenVersion: 2, accessTokenExpiresAt: clock.now() + 10 * HOUR },
      1,
    );
    clock.advance(IDLE_DUE_MS);
    expect(await sweep()).toMatchObject({ entries: 1, not_due: 1 });
    // Nothing to keep alive: the entry waits for the access token's end instead of every sweep.
    expect(dueAtOf((await stored(id)).tokens)).toBe(T0 + 10 * HOUR);
    expect(await sweep()).toEqual({ entries: 0, truncated: false });
    clock.set(T0 + 10 * HOUR);
    expect(await sweep()).toMatchObject({ lapsed: 1 });
    expect((await stored(id)).connection.status).toBe('reauth_required');
    expect(tokenCalls).toHaveLength(0);
  });

  it('publishes, from the sweep, the reauth_required event of a process that died after the change', async () => {
    const id = await seedConnection();
    script = () => ({ status: 400, body: { error: 'invalid_grant' } });
    const send = deps.queues.events.send.bind(deps.queues.events);
    deps.queues.events.send = async () => {
      throw new Error('the process died before publishing');
    };
    clock.advance(2 * HOUR);
    await expect(getAccessToken({ deps, config, log }, id)).rejects.toMatchObject({
      reason: 'reauth_required',
    });
    deps.queues.events.send = send;
    const { connection } = await stored(id);
    expect(connection.status).toBe('reauth_required');
    const pending = pendingEvents(connection);
    expect(pending.map((e) => e.type)).toEqual(['connection.reauth_required']);
    expect(events()).toEqual([]);

    clock.advance(MIN);
    expect(await sweep()).toMatchObject({ entries: 1, cleaned: 1 });
    expect(events()).toEqual([
      expect.objectContaining({
        id: pending[0]!.id,
        occurred_at: new Date(T0 + 2 * HOUR).toISOString(),
        data: {
          connectionId: id,
          provider: 'practice',
          status: 'reauth_required',
          previousStatus: 'healthy',
        },
      }),
    ]);
    const after = (await stored(id)).connection;
    expect(pendingEvents(after)).toEqual([]);
    expect(after.gsi2pk).toBeUndefined();
    expect(await sweep()).toEqual({ entries: 0, truncated: false });
    expect(events()).toEqual([]);
    expect(tokenCalls).toHaveLength(1);
  });

  it('stores and publishes no event for a change whose conditional write lost', async () => {
    const id = await seedConnection();
    const read = (await stored(id)).connection;
    await throttleConnection({ deps, config, log }, id, 30); // another change wins first
    const lapse = decide(read, { kind: 'lapse' }, clock.now());
    if (lapse.outcome !== 'change') throw new Error('expected a change');
    const event = outboxEvent({ organizationId: ORG, ...lapse.events[0]! }, clock.now());
    expect(await store.apply(read, lapse, [event])).toBeUndefined();
    const { connection } = await stored(id);
    expect(connection.status).toBe('throttled');
    expect(pendingEvents(connection)).toEqual([]);
    clock.advance(HOUR);
    await sweep();
    expect(events().map((e) => e.type)).not.toContain('connection.reauth_required');
  });
});

describe('reading how a refresh ended (one place for its three callers)', () => {
  const NOW = Date.parse('2026-01-01T00:00:00Z');
  const stored = { connectionId: 'con_x', tokenVersion: 3, accessTokenExpiresAt: NOW + 60_000 } as TokenItem;
  const ALL: RefreshOutcome[] = [
    { outcome: 'fresh', tokens: stored },
    { outcome: 'refreshed', tokens: stored },
    { outcome: 'refreshed_elsewhere', tokens: stored },
    { outcome: 'busy', tokens: stored },
    { outcome: 'lapsed' },
    { outcome: 'throttled', until: NOW + 5_000 },
    { outcome: 'failed', failure: 'transient' },
    { outcome: 'gone' },
  ];
  const read = (result: RefreshOutcome, caller: 'onUse' | 'afterRefusal'): unknown => {
    try {
      return readRefresh(result, caller, 'con_x', NOW);
    } catch (error) {
      if (error instanceof ConnectionUnusableError) return `unusable:${error.reason}`;
      if (error instanceof ConnectionThrottledError) return `throttled:${error.until}`;
      if (error instanceof TokenUnavailableError) return `unavailable:${error.reason}`;
      throw error;
    }
  };

  it('tells a provider call what to do, or stops it with the error its outcome means', () => {
    expect(ALL.map((r) => [r.outcome, read(r, 'onUse'), read(r, 'afterRefusal')])).toEqual([
      ['fresh', 'use', 'unavailable:provider_unavailable'],
      ['refreshed', 'use', 'retry'],
      ['refreshed_elsewhere', 'use', 'retry'],
      ['busy', 'use_or_wait', 'unavailable:refresh_in_progress'],
      ['lapsed', 'unusable:reauth_required', 'unusable:reauth_required'],
      ['throttled', 'throttled:2026-01-01T00:00:05.000Z', 'throttled:2026-01-01T00:00:05.000Z'],
      ['failed', 'use_or_unavailable', 'unavailable:provider_unavailable'],
      ['gone', 'unusable:revoked', 'unusable:revoked'],
    ]);
  });

  it("tells the sweep what it counts and where the tokens' entry moves", () => {
    expect(ALL.map((r) => [r.outcome, readRefresh(r, 'sweep', 'con_x', NOW)])).toEqual([
      ['fresh', { counted: 'not_due', dueAt: NOW + 60_000 }],
      ['refreshed', { counted: 'refreshed', dueAt: undefined }],
      ['refreshed_elsewhere', { counted: 'refreshed_elsewhere', dueAt: undefined }],
      ['busy', { counted: 'busy', dueAt: undefined }],
      ['lapsed', { counted: 'lapsed', dueAt: undefined }],
      ['throttled', { counted: 'throttled', dueAt: NOW + 5_000 }],
      ['failed', { counted: 'failed', dueAt: undefined }],
      ['gone', { counted: 'cleaned', dueAt: undefined }],
    ]);
  });
});
