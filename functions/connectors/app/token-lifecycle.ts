// Provider token lifecycle: access tokens refreshed before they expire (on use and by the sweep) under
// a lease, written version-fenced, so a rotating refresh token is spent once; a lapsed grant becomes
// reauth_required (with its event), a rate limit becomes a throttle that ends on its own.
import { randomBytes } from 'node:crypto';
import { publishEvent } from '../../events';
import { isoTime } from '../../platform/clock';
import type { Deps } from '../../platform/ports';
import { open, seal } from '../../platform/envelope';
import type { Logger } from '../../platform/logger';
import { emitMetrics } from '../../platform/metrics';
import type { Condition } from '../../platform/ports';
import type { ConnectorConfig } from '../infra/config';
import { tokenContext } from './connections';
import type { TokenSet } from '../infra/oauth-client';
import { ProviderHttpError, refreshTokens } from '../infra/oauth-client';
import { PROVIDERS } from '../domain/providers';
import type { ConnectionStatus } from '../domain/connection';
import type { ConnectionItem, TokenItem, TokenRecord } from './store';
import { ConnectorStore, DUE_ATTRIBUTES, dueAtOf, dueEntry } from './store';
import type { Freshness, ProviderFailure } from '../domain/token-policy';
import {
  DISABLED_RECHECK_MS,
  LEASE_MS,
  REFRESH_ATTEMPTS,
  REFRESH_ATTEMPT_TIMEOUT_MS,
  classifyTokenFailure,
  effectiveStatus,
  nextThrottle,
  throttleEnded,
  tokenFreshness,
} from '../domain/token-policy';

export type LifecycleDeps = Pick<Deps, 'tables' | 'keys' | 'queues' | 'clock'>;

export interface LifecycleOptions {
  log: Logger;
  /** Waits between provider attempts and while another worker refreshes (tests make it instant). */
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What a worker calling the provider gets: never stored, never logged. */
export interface AccessToken {
  accessToken: string;
  tokenType: string;
  /** Epoch ms. */
  expiresAt: number;
  tokenVersion: number;
}

/** The connection cannot be used until something changes (the user reconnects, it is reconnected...). */
export class ConnectionUnusableError extends Error {
  constructor(
    readonly connectionId: string,
    readonly reason: 'not_found' | 'pending' | 'revoked' | 'reauth_required',
  ) {
    super(`connection ${connectionId} cannot be used: ${reason}`);
    this.name = 'ConnectionUnusableError';
  }
}

/** The provider rate limits the account: try again after `until`. */
export class ConnectionThrottledError extends Error {
  constructor(
    readonly connectionId: string,
    readonly until: string,
  ) {
    super(`connection ${connectionId} is throttled until ${until}`);
    this.name = 'ConnectionThrottledError';
  }
}

/** No usable token now (provider down, or another refresher still busy): try again later. */
export class TokenUnavailableError extends Error {
  constructor(
    readonly connectionId: string,
    readonly reason: 'provider_unavailable' | 'refresh_in_progress',
  ) {
    super(`no access token for connection ${connectionId}: ${reason}`);
    this.name = 'TokenUnavailableError';
  }
}

export type RefreshOutcome =
  | { outcome: 'fresh'; tokens: TokenItem }
  /** This worker called the provider and stored version n+1. */
  | { outcome: 'refreshed'; tokens: TokenItem }
  /** Another writer (a refresher, a reconnect) stored a newer version meanwhile. */
  | { outcome: 'refreshed_elsewhere'; tokens: TokenItem }
  /** Another refresher holds the lease; the stored tokens are as read. */
  | { outcome: 'busy'; tokens: TokenItem }
  | { outcome: 'lapsed' }
  | { outcome: 'throttled'; until: number }
  | { outcome: 'failed'; failure: 'transient' | 'fatal' }
  /** The tokens or the connection went away (disconnected) meanwhile. */
  | { outcome: 'gone' };

interface PlainTokens {
  access_token: string;
  refresh_token?: string;
}

const THROTTLE_ATTRIBUTES = ['throttleEndsAt', 'previousStatus'];

async function openTokens(deps: LifecycleDeps, tokens: TokenItem): Promise<PlainTokens> {
  const context = tokenContext(tokens.organizationId, tokens.connectionId);
  return JSON.parse(await open(deps.keys, tokens.sealed, context)) as PlainTokens;
}

async function accessTokenOf(deps: LifecycleDeps, tokens: TokenItem): Promise<AccessToken> {
  const plain = await openTokens(deps, tokens);
  return {
    accessToken: plain.access_token,
    tokenType: tokens.tokenType,
    expiresAt: tokens.accessTokenExpiresAt,
    tokenVersion: tokens.tokenVersion,
  };
}

/** The refreshed grant as the next version of the tokens item (a provider that does not rotate keeps the old refresh token). */
async function nextTokens(
  deps: LifecycleDeps,
  current: TokenItem,
  previous: PlainTokens,
  fresh: TokenSet,
): Promise<TokenRecord> {
  const now = deps.clock.now();
  const lifetime = fresh.expiresInSeconds ?? PROVIDERS[current.provider].defaultAccessTokenSeconds;
  const secret = JSON.stringify({
    access_token: fresh.accessToken,
    refresh_token: fresh.refreshToken ?? previous.refresh_token,
  });
  return {
    connectionId: current.connectionId,
    organizationId: current.organizationId,
    provider: current.provider,
    sealed: await seal(deps.keys, secret, tokenContext(current.organizationId, current.connectionId)),
    tokenVersion: current.tokenVersion + 1,
    tokenType: fresh.tokenType,
    scopes: fresh.scopes ?? current.scopes,
    accessTokenExpiresAt: now + lifetime * 1000,
    obtainedAt: now,
  };
}

/** Calls the provider's token endpoint, retrying transient failures while the lease has time left. */
async function requestRefresh(
  deps: LifecycleDeps,
  config: ConnectorConfig,
  tokens: TokenItem,
  refreshToken: string,
  leaseEndsAt: number,
  options: LifecycleOptions,
): Promise<{ ok: true; set: TokenSet } | { ok: false; failure: ProviderFailure }> {
  const sleep = options.sleep ?? realSleep;
  let failure: ProviderFailure = { kind: 'transient' };
  const client = await config.client(tokens.provider);
  for (let attempt = 1; attempt <= REFRESH_ATTEMPTS; attempt++) {
    // Never call the provider unless the lease outlasts the call: a second refresher must not start
    // with the same refresh token while this one may still be spending it.
    if (deps.clock.now() + REFRESH_ATTEMPT_TIMEOUT_MS + 5_000 > leaseEndsAt) break;
    try {
      const set = await refreshTokens(
        client,
        PROVIDERS[tokens.provider],
        refreshToken,
        REFRESH_ATTEMPT_TIMEOUT_MS,
      );
      return { ok: true, set };
    } catch (error) {
      if (!(error instanceof ProviderHttpError)) throw error;
      failure = classifyTokenFailure(error, deps.clock.now());
      options.log.warn('provider token refresh failed', {
        connectionId: tokens.connectionId,
        attempt,
        status: error.status,
        oauthError: error.oauthError,
        failure: failure.kind,
      });
      if (failure.kind !== 'transient' || attempt === REFRESH_ATTEMPTS) break;
      await sleep(250 * 3 ** (attempt - 1));
    }
  }
  return { ok: false, failure };
}

/**
 * Refreshes a connection's access token when `when` says it should be: 'due' refreshes a token that is
 * due or expired, 'expired' only an expired one, 'always' regardless. At most one refresher holds the
 * lease of a token version; the new version is written only over the version that was refreshed.
 */
export async function refreshConnection(
  deps: LifecycleDeps,
  config: ConnectorConfig,
  connection: ConnectionItem,
  tokens: TokenItem,
  when: 'due' | 'expired' | 'always',
  options: LifecycleOptions,
): Promise<RefreshOutcome> {
  const store = new ConnectorStore(deps.tables.connectors);
  const freshness = tokenFreshness(tokens, deps.clock.now());
  if (when !== 'always' && (freshness === 'fresh' || (when === 'expired' && freshness === 'due'))) {
    return { outcome: 'fresh', tokens };
  }
  const version = tokens.tokenVersion;
  const owner = randomBytes(12).toString('base64url');
  const leaseStart = deps.clock.now();
  if (!(await store.acquireRefreshLease(connection.id, version, owner, leaseStart, LEASE_MS))) {
    const now = await store.getTokens(connection.id);
    if (!now) return { outcome: 'gone' };
    return now.tokenVersion > version
      ? { outcome: 'refreshed_elsewhere', tokens: now }
      : { outcome: 'busy', tokens: now };
  }
  try {
    const plain = await openTokens(deps, tokens);
    if (!plain.refresh_token) {
      // Nothing to refresh with: the grant ends when the access token does.
      if (freshness !== 'expired') return { outcome: 'fresh', tokens };
      return (await markReauthRequired(deps, connection.id, version, options)) ?? { outcome: 'lapsed' };
    }
    const answer = await requestRefresh(
      deps,
      config,
      tokens,
      plain.refresh_token,
      leaseStart + LEASE_MS,
      options,
    );
    if (answer.ok) {
      const record = await nextTokens(deps, tokens, plain, answer.set);
      if (await store.putTokens(record, version)) {
        if (connection.throttleCount) {
          await store.updateConnectionIf(connection.id, { remove: ['throttleCount'] }, { itemExists: true });
        }
        options.log.info('provider tokens refreshed', {
          connectionId: connection.id,
          tokenVersion: record.tokenVersion,
        });
        emitMetrics({ TokenRefreshes: 1 }, { connectionId: connection.id, provider: connection.provider });
        return {
          outcome: 'refreshed',
          tokens: { pk: `CONN#${record.connectionId}`, sk: 'TOKENS', ...record },
        };
      }
      // A reconnect or a disconnect wrote meanwhile; what it stored stands.
      options.log.warn('refreshed tokens discarded: the stored version changed', {
        connectionId: connection.id,
      });
      const now = await store.getTokens(connection.id);
      return now ? { outcome: 'refreshed_elsewhere', tokens: now } : { outcome: 'gone' };
    }
    const { failure } = answer;
    if (failure.kind === 'lapsed') {
      return (await markReauthRequired(deps, connection.id, version, options)) ?? { outcome: 'lapsed' };
    }
    if (failure.kind === 'throttled') {
      const throttled = await throttleConnection(deps, connection.id, failure.retryAfterSeconds, options);
      return throttled?.throttleEndsAt
        ? { outcome: 'throttled', until: throttled.throttleEndsAt }
        : { outcome: 'failed', failure: 'transient' };
    }
    if (failure.kind === 'fatal') {
      options.log.error('provider refused the refresh request; check the provider configuration', {
        connectionId: connection.id,
        provider: connection.provider,
      });
    }
    emitMetrics(
      { TokenRefreshFailures: 1 },
      { connectionId: connection.id, provider: connection.provider, failure: failure.kind },
    );
    return { outcome: 'failed', failure: failure.kind };
  } finally {
    await store.releaseRefreshLease(connection.id, owner);
  }
}

/**
 * The provider said the grant is gone. Re-read first: if another writer stored a newer version (a
 * concurrent refresh or a reconnect), that version stands. Otherwise the connection becomes
 * reauth_required, once, and connection.reauth_required is published by whoever made the change.
 * Returns the outcome when the tokens turned out to be current after all.
 */
export async function markReauthRequired(
  deps: LifecycleDeps,
  connectionId: string,
  version: number,
  options: LifecycleOptions,
): Promise<RefreshOutcome | undefined> {
  const store = new ConnectorStore(deps.tables.connectors);
  const stored = await store.getTokens(connectionId);
  if (!stored) return { outcome: 'gone' };
  if (stored.tokenVersion > version) return { outcome: 'refreshed_elsewhere', tokens: stored };
  for (let attempt = 0; attempt < 3; attempt++) {
    const connection = await store.getConnection(connectionId);
    if (!connection) return { outcome: 'gone' };
    if (connection.status !== 'healthy' && connection.status !== 'throttled') return undefined;
    const now = deps.clock.now();
    const updated = await store.updateConnectionIf(
      connectionId,
      {
        set: { status: 'reauth_required', reauthEventPending: connection.status, updatedAt: now },
        remove: [...THROTTLE_ATTRIBUTES, ...DUE_ATTRIBUTES],
      },
      { attr: 'status', op: '=', value: connection.status },
    );
    if (!updated) continue; // the status changed under us: look again
    options.log.info('connection needs reauthorization', {
      connectionId,
      previousStatus: connection.status,
    });
    emitMetrics({ ConnectionsReauthRequired: 1 }, { connectionId, provider: connection.provider });
    await publishReauthRequired(deps, updated);
    await store.dropRefreshEntry(connectionId, version);
    return undefined;
  }
  return undefined;
}

/** Publishes connection.reauth_required (webhooks catalog shape) and clears the pending mark. */
async function publishReauthRequired(deps: LifecycleDeps, connection: ConnectionItem): Promise<void> {
  await publishEvent(deps, {
    organizationId: connection.organizationId,
    type: 'connection.reauth_required',
    data: {
      connectionId: connection.id,
      provider: connection.provider,
      status: 'reauth_required',
      previousStatus: connection.reauthEventPending ?? 'healthy',
    },
  });
  await new ConnectorStore(deps.tables.connectors).updateConnectionIf(
    connection.id,
    { remove: ['reauthEventPending'] },
    { itemExists: true },
  );
}

/**
 * The provider rate limits the account (a 429 from any provider call, the token endpoint included): a
 * healthy connection becomes throttled until Retry-After (or a backoff), remembering the status to
 * return to; a throttled one has its window extended. The sweep ends the throttle when it is due.
 */
export async function throttleConnection(
  deps: LifecycleDeps,
  connectionId: string,
  retryAfterSeconds: number | undefined,
  options: LifecycleOptions,
): Promise<ConnectionItem | undefined> {
  const store = new ConnectorStore(deps.tables.connectors);
  for (let attempt = 0; attempt < 3; attempt++) {
    const connection = await store.getConnection(connectionId);
    if (!connection) return undefined;
    const now = deps.clock.now();
    const next = nextThrottle(connection, now, retryAfterSeconds);
    if (!next) return undefined;
    const condition: Condition =
      connection.status === 'throttled'
        ? {
            and: [
              { attr: 'status', op: '=', value: 'throttled' },
              connection.throttleEndsAt === undefined
                ? { attr: 'throttleEndsAt', exists: false }
                : { attr: 'throttleEndsAt', op: '=', value: connection.throttleEndsAt },
            ],
          }
        : { attr: 'status', op: '=', value: connection.status };
    const updated = await store.updateConnectionIf(
      connectionId,
      {
        set: {
          status: 'throttled',
          ...next,
          updatedAt: connection.status === 'throttled' ? connection.updatedAt : now,
          ...dueEntry(connectionId, 'CONN', next.throttleEndsAt),
        },
      },
      condition,
    );
    if (updated) {
      options.log.info('connection throttled by the provider', {
        connectionId,
        throttleEndsAt: next.throttleEndsAt,
        throttleCount: next.throttleCount,
      });
      emitMetrics({ ConnectionThrottles: 1 }, { connectionId, provider: connection.provider });
      return updated;
    }
  }
  return undefined;
}

/**
 * Ends a throttle whose window has passed: back to the status it came from. A connection that is no
 * longer throttled (reconnected, disconnected) only loses its stale index entry. Idempotent.
 */
export async function endThrottle(
  deps: LifecycleDeps,
  connection: ConnectionItem,
  options: LifecycleOptions,
): Promise<ConnectionItem | undefined> {
  const store = new ConnectorStore(deps.tables.connectors);
  const now = deps.clock.now();
  if (connection.status !== 'throttled') {
    return store.updateConnectionIf(
      connection.id,
      { remove: [...THROTTLE_ATTRIBUTES, ...DUE_ATTRIBUTES] },
      { attr: 'status', op: '=', value: connection.status },
    );
  }
  if (!throttleEnded(connection, now)) return undefined;
  const restored: ConnectionStatus = connection.previousStatus ?? 'healthy';
  const updated = await store.updateConnectionIf(
    connection.id,
    {
      set: { status: restored, updatedAt: now },
      remove: [...THROTTLE_ATTRIBUTES, ...DUE_ATTRIBUTES],
    },
    {
      and: [
        { attr: 'status', op: '=', value: 'throttled' },
        connection.throttleEndsAt === undefined
          ? { attr: 'throttleEndsAt', exists: false }
          : { attr: 'throttleEndsAt', op: '=', value: connection.throttleEndsAt },
      ],
    },
  );
  if (updated)
    options.log.info('connection throttle ended', { connectionId: connection.id, status: restored });
  return updated;
}

const WAIT_STEPS_MS = [25, 50, 100, 200, 400];
const MAX_WAITS = 150;

/**
 * An access token for a provider call ("on use"): a fresh one as stored; one that is due is refreshed
 * first unless another worker already is; an expired one is refreshed, or waited for while another
 * worker refreshes it. The provider switch is not checked: runs already in flight finish.
 */
export async function getAccessToken(
  deps: LifecycleDeps,
  config: ConnectorConfig,
  connectionId: string,
  options: LifecycleOptions,
): Promise<AccessToken> {
  const store = new ConnectorStore(deps.tables.connectors);
  const sleep = options.sleep ?? realSleep;
  for (let wait = 0; wait < MAX_WAITS; wait++) {
    let connection = await store.getConnection(connectionId);
    if (!connection) throw new ConnectionUnusableError(connectionId, 'not_found');
    if (connection.status === 'throttled') {
      if (!throttleEnded(connection, deps.clock.now())) {
        throw new ConnectionThrottledError(
          connectionId,
          isoTime(connection.throttleEndsAt ?? deps.clock.now()),
        );
      }
      connection =
        (await endThrottle(deps, connection, options)) ?? (await store.getConnection(connectionId));
      if (!connection) throw new ConnectionUnusableError(connectionId, 'not_found');
      if (connection.status === 'throttled') continue; // throttled again meanwhile: look again
    }
    if (connection.status !== 'healthy') {
      throw new ConnectionUnusableError(
        connectionId,
        connection.status as 'pending' | 'revoked' | 'reauth_required',
      );
    }
    const tokens = await store.getTokens(connectionId);
    if (!tokens) throw new ConnectionUnusableError(connectionId, 'revoked');
    const freshness: Freshness = tokenFreshness(tokens, deps.clock.now());
    if (freshness === 'fresh') return accessTokenOf(deps, tokens);
    const result = await refreshConnection(deps, config, connection, tokens, 'due', options);
    switch (result.outcome) {
      case 'fresh':
      case 'refreshed':
      case 'refreshed_elsewhere':
        return accessTokenOf(deps, result.tokens);
      case 'busy':
        if (freshness === 'due') return accessTokenOf(deps, tokens); // still valid; the other refresher renews it
        await sleep(WAIT_STEPS_MS[Math.min(wait, WAIT_STEPS_MS.length - 1)]!);
        continue;
      case 'lapsed':
        throw new ConnectionUnusableError(connectionId, 'reauth_required');
      case 'throttled':
        throw new ConnectionThrottledError(connectionId, isoTime(result.until));
      case 'failed':
        if (freshness === 'due') return accessTokenOf(deps, tokens); // still valid; refreshed later
        throw new TokenUnavailableError(connectionId, 'provider_unavailable');
      case 'gone':
        throw new ConnectionUnusableError(connectionId, 'revoked');
    }
  }
  throw new TokenUnavailableError(connectionId, 'refresh_in_progress');
}

export type SweepOutcome =
  | 'not_due'
  | 'refreshed'
  | 'refreshed_elsewhere'
  | 'busy'
  | 'lapsed'
  | 'throttled'
  | 'unthrottled'
  | 'deferred'
  | 'skipped_disabled'
  | 'failed'
  | 'cleaned';

export interface SweepContext extends LifecycleOptions {
  /** Whether the organization has the provider turned on (cached by the caller for one sweep). */
  providerEnabled(organizationId: string, provider: ConnectionItem['provider']): Promise<boolean>;
}

/**
 * One due-index entry, as the scheduled sweep takes it: a throttled connection whose window ended goes
 * back to its status; a tokens item due for refresh is refreshed, unless the connection cannot be
 * (its entry is dropped), is still throttled (deferred to the throttle's end) or its provider is
 * turned off for the organization (deferred: scheduled work stops, on-use refresh still works).
 */
export async function sweepEntry(
  deps: LifecycleDeps,
  config: ConnectorConfig,
  entry: { pk: string; sk: string; gsi2sk?: unknown },
  context: SweepContext,
): Promise<SweepOutcome> {
  const store = new ConnectorStore(deps.tables.connectors);
  const connectionId = entry.pk.slice('CONN#'.length);
  let connection = await store.getConnection(connectionId);
  if (entry.sk === 'CONN') {
    if (!connection) return 'cleaned';
    if (connection.status === 'throttled' && !throttleEnded(connection, deps.clock.now())) return 'not_due';
    const ended = connection.status === 'throttled';
    await endThrottle(deps, connection, context);
    return ended ? 'unthrottled' : 'cleaned';
  }

  const tokens = await store.getTokens(connectionId);
  if (!tokens) return 'cleaned';
  if (dueAtOf(tokens) > deps.clock.now()) return 'not_due'; // moved since the index was read
  if (!connection || connection.status === 'pending' || connection.status === 'revoked') {
    await store.dropRefreshEntry(connectionId, tokens.tokenVersion);
    return 'cleaned';
  }
  if (connection.status === 'reauth_required') {
    // A transition whose event was not published yet (the publisher died): publish it now.
    if (connection.reauthEventPending) await publishReauthRequired(deps, connection);
    await store.dropRefreshEntry(connectionId, tokens.tokenVersion);
    return 'cleaned';
  }
  if (connection.status === 'throttled') {
    if (!throttleEnded(connection, deps.clock.now())) {
      await store.deferRefresh(connectionId, tokens.tokenVersion, connection.throttleEndsAt!);
      return 'deferred';
    }
    connection = (await endThrottle(deps, connection, context)) ?? (await store.getConnection(connectionId));
    if (!connection || effectiveStatus(connection, deps.clock.now()) !== 'healthy') return 'not_due';
  }
  if (!(await context.providerEnabled(connection.organizationId, connection.provider))) {
    await store.deferRefresh(connectionId, tokens.tokenVersion, deps.clock.now() + DISABLED_RECHECK_MS);
    return 'skipped_disabled';
  }
  const result = await refreshConnection(deps, config, connection, tokens, 'due', context);
  switch (result.outcome) {
    case 'fresh':
      return 'not_due';
    case 'gone':
      return 'cleaned';
    case 'throttled':
      await store.deferRefresh(connectionId, tokens.tokenVersion, result.until);
      return 'throttled';
    case 'failed':
      return 'failed';
    default:
      return result.outcome;
  }
}
