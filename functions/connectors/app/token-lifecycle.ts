// Provider token lifecycle: access tokens refreshed when used near their expiry, and an idle
// connection by the sweep only before its refresh token would lapse unused or for its status check, under
// a lease, written version-fenced, so a rotating refresh token is spent once; a lapsed grant becomes
// reauth_required (with its event), a rate limit becomes a throttle that ends on its own.
import { randomBytes } from 'node:crypto';
import { isoTime } from '../../platform/clock';
import type { Deps } from '../../platform/ports';
import { open, seal } from '../../platform/envelope';
import type { Logger } from '../../platform/logger';
import { emitMetrics } from '../../platform/metrics';
import type { ConnectorConfig } from '../infra/config';
import { tokenContext } from './connections';
import type { TokenSet } from '../infra/oauth-client';
import { ProviderHttpError, refreshTokens } from '../infra/oauth-client';
import { PROVIDERS } from '../domain/providers';
import type { ConnectionItem, TokenItem, TokenRecord } from '../infra/repositories/connections';
import { ConnectionRepository, dueAtOf } from '../infra/repositories/connections';
import type { DueEntry } from '../infra/repositories/connections';
import type { SealedValue } from '../../platform/envelope';
import type {
  ConnectionCommand,
  RefreshAnswer,
  RefreshCommand,
  RefreshOutcomeKind,
  RefreshStop,
  SweepOutcome,
} from '../domain/connection-decide';
import {
  AFTER_REFRESH,
  decideLapse,
  decideRefresh,
  decideThrottle,
  decideTokenEntry,
  entryDueAfter,
  leaseLost,
  refreshEnded,
  refreshStart,
  versionMoved,
} from '../domain/connection-decide';
import type { Freshness, ProviderFailure } from '../domain/token-policy';
import {
  DISABLED_RECHECK_MS,
  REFRESH_ATTEMPTS,
  REFRESH_ATTEMPT_TIMEOUT_MS,
  classifyTokenFailure,
  effectiveStatus,
  throttleEnded,
  tokenFreshness,
} from '../domain/token-policy';
import { flushConnection, transition } from './connection-changes';

export type LifecycleDeps = Pick<Deps, 'tables' | 'keys' | 'queues' | 'clock'>;

/**
 * What the lifecycle works with, passed as one value instead of its parts: a connector context
 * (context.ts) is one, and the sweep builds one for its run.
 */
export interface Lifecycle {
  readonly deps: LifecycleDeps;
  readonly config: ConnectorConfig;
  readonly log: Logger;
  /** Waits between provider attempts and while another worker refreshes (tests make it instant). */
  readonly sleep?: (ms: number) => Promise<void>;
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

/** Its kinds are the domain's RefreshOutcomeKind, each with its meaning in AFTER_REFRESH. */
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

export type { SweepOutcome } from '../domain/connection-decide';

/** What a provider call does after a refresh: use a token, retry the refused call, or wait / give up. */
export type CallAction = 'use' | 'retry' | 'use_or_wait' | 'use_or_unavailable';

/**
 * The one reading of how a refresh ended (AFTER_REFRESH says what each outcome means to whom). A
 * provider call, on use or after a refused token, gets what to do next, or the error that stops it is
 * thrown here; the sweep gets what it counts and where the tokens' sweep entry moves (if anywhere).
 */
export function readRefresh(
  result: RefreshOutcome,
  caller: 'sweep',
  connectionId: string,
  now: number,
): { counted: SweepOutcome; dueAt?: number };
export function readRefresh(
  result: RefreshOutcome,
  caller: 'onUse' | 'afterRefusal',
  connectionId: string,
  now: number,
): CallAction;
export function readRefresh(
  result: RefreshOutcome,
  caller: 'sweep' | 'onUse' | 'afterRefusal',
  connectionId: string,
  now: number,
): CallAction | { counted: SweepOutcome; dueAt?: number } {
  const meaning = AFTER_REFRESH[result.outcome];
  if (caller === 'sweep') {
    const dueAt = entryDueAfter(result.outcome, {
      throttleEndsAt: 'until' in result ? result.until : undefined,
      accessTokenExpiresAt: 'tokens' in result ? result.tokens.accessTokenExpiresAt : undefined,
    });
    return { counted: meaning.sweep, dueAt };
  }
  const action = meaning[caller];
  switch (action) {
    case 'use':
    case 'retry':
    case 'use_or_wait':
    case 'use_or_unavailable':
      return action;
    case 'reauth_required':
    case 'revoked':
      throw new ConnectionUnusableError(connectionId, action);
    case 'throttled':
      throw new ConnectionThrottledError(connectionId, isoTime('until' in result ? result.until : now));
    case 'provider_unavailable':
    case 'refresh_in_progress':
      throw new TokenUnavailableError(connectionId, action);
  }
}

interface PlainTokens {
  access_token: string;
  refresh_token?: string;
}

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

/** Calls the provider's token endpoint, retrying transient failures while the lease has time left. */
async function requestRefresh(
  lifecycle: Lifecycle,
  tokens: TokenItem,
  refreshToken: string,
  leaseEndsAt: number,
): Promise<{ ok: true; set: TokenSet } | { ok: false; failure: ProviderFailure }> {
  const { deps, config, log } = lifecycle;
  const sleep = lifecycle.sleep ?? realSleep;
  let failure: ProviderFailure = { kind: 'transient' };
  const client = await config.client(tokens.provider, tokens.params);
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
      log.warn('provider token refresh failed', {
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
 * Refreshes a connection's access token when `when` says it should be (refreshStart). At most one
 * refresher holds the lease of a token version; what the provider's answer changes is decided by
 * decideRefresh and applied here, the new version written only over the version that was refreshed.
 */
export async function refreshConnection(
  lifecycle: Lifecycle,
  connection: ConnectionItem,
  tokens: TokenItem,
  when: 'due' | 'expired' | 'always',
): Promise<RefreshOutcome> {
  const { deps, log } = lifecycle;
  const start = refreshStart(tokens, when, deps.clock.now());
  if (start.then === 'fresh') return { outcome: 'fresh', tokens };
  const { lease } = start;
  const leaseOwner = randomBytes(12).toString('base64url');
  const leased = await applyCommands(lifecycle, connection.id, [lease], { leaseOwner });
  if (leased.stop) return withTokens(leaseLost(lease.version, leased.stored?.tokenVersion), leased.stored);
  try {
    const plain = await openTokens(deps, tokens);
    let set: TokenSet | undefined;
    let answer: RefreshAnswer = { kind: 'no_refresh_token' };
    if (plain.refresh_token) {
      const asked = await requestRefresh(lifecycle, tokens, plain.refresh_token, lease.at + lease.ms);
      if (asked.ok) {
        set = asked.set;
        answer = {
          kind: 'granted',
          tokenType: set.tokenType,
          lifetimeSeconds: set.expiresInSeconds ?? PROVIDERS[tokens.provider].defaultAccessTokenSeconds,
          ...(set.scopes ? { scopes: set.scopes } : {}),
          rotated: set.refreshToken !== undefined,
        };
      } else answer = asked.failure;
    }
    const decision = decideRefresh(connection, tokens, answer, deps.clock.now());
    const applied = await applyCommands(lifecycle, connection.id, decision.commands, {
      leaseOwner,
      owner: tokens,
      seal: (command) =>
        seal(
          deps.keys,
          JSON.stringify({
            access_token: set!.accessToken,
            refresh_token: command.refreshToken === 'rotated' ? set!.refreshToken : plain.refresh_token,
          }),
          tokenContext(tokens.organizationId, tokens.connectionId),
        ),
    });
    const ended = refreshEnded(decision, applied.stop);
    if (ended.outcome === 'failed') {
      if (ended.failure === 'fatal') {
        log.error('provider refused the refresh request; check the provider configuration', {
          connectionId: connection.id,
          provider: connection.provider,
        });
      }
      // A throttle that did not take is not a failure of the provider's.
      if (decision.outcome === 'failed') {
        emitMetrics(
          { TokenRefreshFailures: 1 },
          { connectionId: connection.id, provider: connection.provider, failure: ended.failure },
        );
      }
      return { outcome: 'failed', failure: ended.failure ?? 'transient' };
    }
    if (ended.outcome === 'throttled')
      return { outcome: 'throttled', until: applied.connection!.throttleEndsAt! };
    if (ended.outcome === 'refreshed') return { outcome: 'refreshed', tokens: applied.written! };
    if (ended.outcome === 'fresh') return { outcome: 'fresh', tokens };
    return withTokens(ended.outcome, applied.stored);
  } finally {
    await applyCommands(lifecycle, connection.id, [{ kind: 'release_lease' }], { leaseOwner });
  }
}

/** An outcome that hands on the tokens stored now (read again by whoever found them moved). */
function withTokens(outcome: RefreshOutcomeKind, stored: TokenItem | undefined): RefreshOutcome {
  if (outcome === 'refreshed_elsewhere' || outcome === 'busy') {
    return stored ? { outcome, tokens: stored } : { outcome: 'gone' };
  }
  if (outcome === 'lapsed' || outcome === 'gone') return { outcome };
  throw new Error(`a refresh cannot end ${outcome} without its own tokens`);
}

/** What applying a decision's commands did. */
interface Applied {
  /** The command that did not take (the rest were not applied), and what it found. */
  stop?: RefreshStop;
  /** What put_tokens wrote. */
  written?: TokenItem;
  /** The tokens stored, as read where a version check stopped. */
  stored?: TokenItem;
  /** The connection as the last change that took left it. */
  connection?: ConnectionItem;
}

/** What the commands of one refresher need besides what they say. */
interface Refresher {
  /** Who takes and gives back the lease. */
  leaseOwner?: string;
  /** Whose tokens a put_tokens writes. */
  owner?: Pick<TokenRecord, 'connectionId' | 'organizationId' | 'provider'>;
  /** A put_tokens' sealed secret: the refresher's new grant, with the refresh token the command keeps. */
  seal?(command: RefreshCommand & { kind: 'put_tokens' }): Promise<SealedValue>;
}

/**
 * Applies a refresh decision's commands in order through the connection repository (and the
 * connection's changes through transition, which publishes their events). The first that does not
 * take stops the rest.
 */
async function applyCommands(
  { deps, log }: Lifecycle,
  connectionId: string,
  commands: readonly RefreshCommand[],
  refresher: Refresher = {},
): Promise<Applied> {
  const repository = ConnectionRepository.of(deps);
  const applied: Applied = {};
  for (const command of commands) {
    switch (command.kind) {
      case 'take_lease': {
        const { version, at, ms } = command;
        if (!(await repository.acquireRefreshLease(connectionId, version, refresher.leaseOwner!, at, ms))) {
          applied.stored = await repository.getTokens(connectionId);
          applied.stop = { at: 'lease', version, stored: applied.stored?.tokenVersion };
          return applied;
        }
        break;
      }
      case 'release_lease':
        await repository.releaseRefreshLease(connectionId, refresher.leaseOwner!);
        break;
      case 'put_tokens': {
        const { owner, seal: sealNext } = refresher;
        if (!owner || !sealNext) throw new Error('put_tokens needs the new grant');
        const record: TokenRecord = {
          connectionId: owner.connectionId,
          organizationId: owner.organizationId,
          provider: owner.provider,
          ...command.next,
          sealed: await sealNext(command),
        };
        if (!(await repository.putTokens(record, command.over))) {
          // A reconnect or a disconnect wrote meanwhile; what it stored stands.
          log.warn('refreshed tokens discarded: the stored version changed', { connectionId });
          applied.stored = await repository.getTokens(connectionId);
          applied.stop = { at: 'tokens', stored: applied.stored?.tokenVersion };
          return applied;
        }
        applied.written = repository.tokenItem(record);
        log.info('provider tokens refreshed', { connectionId, tokenVersion: record.tokenVersion });
        emitMetrics({ TokenRefreshes: 1 }, { connectionId, provider: owner.provider });
        break;
      }
      case 'check_version': {
        const stored = await repository.getTokens(connectionId);
        if (versionMoved(command.version, stored?.tokenVersion)) {
          applied.stored = stored;
          applied.stop = { at: 'tokens', stored: stored?.tokenVersion };
          return applied;
        }
        break;
      }
      case 'connection': {
        const result = await transition(deps, connectionId, command.command, log);
        if (result.outcome !== 'changed') {
          applied.stop = { at: 'connection', result: result.outcome };
          return applied;
        }
        applied.connection = result.connection;
        reportChange(log, command.command, result.before, result.connection);
        break;
      }
      case 'drop_entry':
        await repository.dropRefreshEntry(connectionId, command.version);
        break;
      case 'defer_entry':
        await repository.deferRefresh(connectionId, command.version, command.dueAt);
        break;
    }
  }
  return applied;
}

/** The log line and metric of a connection change a refresh (or a provider call) made. */
function reportChange(
  log: Logger,
  command: ConnectionCommand,
  before: ConnectionItem,
  connection: ConnectionItem,
): void {
  const connectionId = connection.id;
  if (command.kind === 'lapse') {
    log.info('connection needs reauthorization', { connectionId, previousStatus: before.status });
    emitMetrics({ ConnectionsReauthRequired: 1 }, { connectionId, provider: connection.provider });
  } else if (command.kind === 'throttle') {
    log.info('connection throttled by the provider', {
      connectionId,
      throttleEndsAt: connection.throttleEndsAt,
      throttleCount: connection.throttleCount,
    });
    emitMetrics({ ConnectionThrottles: 1 }, { connectionId, provider: connection.provider });
  }
}

/**
 * The provider said the grant is gone (decideLapse): if another writer stored a newer version (a
 * concurrent refresh or a reconnect), that version stands. Otherwise the connection becomes
 * reauth_required, once, with connection.reauth_required in the same write (published from the outbox).
 */
export async function markReauthRequired(
  lifecycle: Lifecycle,
  connectionId: string,
  version: number,
): Promise<RefreshOutcome> {
  const decision = decideLapse(version);
  const applied = await applyCommands(lifecycle, connectionId, decision.commands);
  return withTokens(refreshEnded(decision, applied.stop).outcome, applied.stored);
}

/**
 * The provider rate limits the account (a 429 from any provider call, the token endpoint included): a
 * healthy connection becomes throttled until Retry-After (or a backoff), remembering the status to
 * return to; a throttled one has its window extended. The sweep ends the throttle when it is due.
 */
export async function throttleConnection(
  lifecycle: Lifecycle,
  connectionId: string,
  retryAfterSeconds: number | undefined,
): Promise<ConnectionItem | undefined> {
  const decision = decideThrottle(retryAfterSeconds);
  return (await applyCommands(lifecycle, connectionId, decision.commands)).connection;
}

/**
 * Ends a throttle whose window has passed: back to the status it came from. A connection that is no
 * longer throttled (reconnected, disconnected) only loses its stale fields and sweep entry. Idempotent.
 */
export async function endThrottle(
  { deps, log }: Lifecycle,
  connection: ConnectionItem | string,
): Promise<ConnectionItem | undefined> {
  const result = await transition(deps, connection, { kind: 'end_throttle' }, log);
  if (result.outcome !== 'changed') return undefined;
  if (result.before.status === 'throttled') {
    log.info('connection throttle ended', {
      connectionId: result.connection.id,
      status: result.connection.status,
    });
  }
  return result.connection;
}

const WAIT_STEPS_MS = [25, 50, 100, 200, 400];
const MAX_WAITS = 150;

/**
 * An access token for a provider call ("on use"): a fresh one as stored; one that is due is refreshed
 * first unless another worker already is; an expired one is refreshed, or waited for while another
 * worker refreshes it. The provider switch is not checked: runs already in flight finish.
 */
export async function getAccessToken(lifecycle: Lifecycle, connectionId: string): Promise<AccessToken> {
  const { deps } = lifecycle;
  const repository = ConnectionRepository.of(deps);
  const sleep = lifecycle.sleep ?? realSleep;
  for (let wait = 0; wait < MAX_WAITS; wait++) {
    let connection = await repository.get(connectionId);
    if (!connection) throw new ConnectionUnusableError(connectionId, 'not_found');
    if (connection.status === 'throttled') {
      if (!throttleEnded(connection, deps.clock.now())) {
        throw new ConnectionThrottledError(
          connectionId,
          isoTime(connection.throttleEndsAt ?? deps.clock.now()),
        );
      }
      connection = (await endThrottle(lifecycle, connection)) ?? (await repository.get(connectionId));
      if (!connection) throw new ConnectionUnusableError(connectionId, 'not_found');
      if (connection.status === 'throttled') continue; // throttled again meanwhile: look again
    }
    if (connection.status !== 'healthy') {
      throw new ConnectionUnusableError(
        connectionId,
        connection.status as 'pending' | 'revoked' | 'reauth_required',
      );
    }
    const tokens = await repository.getTokens(connectionId);
    if (!tokens) throw new ConnectionUnusableError(connectionId, 'revoked');
    const freshness: Freshness = tokenFreshness(tokens, deps.clock.now());
    if (freshness === 'fresh') return accessTokenOf(deps, tokens);
    const result = await refreshConnection(lifecycle, connection, tokens, 'due');
    const action = readRefresh(result, 'onUse', connectionId, deps.clock.now());
    if (action === 'use' || action === 'retry') {
      return accessTokenOf(deps, 'tokens' in result ? result.tokens : tokens);
    }
    // Still valid: use it; the other refresher (or a later one) renews it.
    if (freshness === 'due') return accessTokenOf(deps, tokens);
    if (action === 'use_or_unavailable')
      throw new TokenUnavailableError(connectionId, 'provider_unavailable');
    await sleep(WAIT_STEPS_MS[Math.min(wait, WAIT_STEPS_MS.length - 1)]!);
  }
  throw new TokenUnavailableError(connectionId, 'refresh_in_progress');
}

export interface SweepContext extends Lifecycle {
  /** Whether the organization has the provider turned on (cached by the caller for one sweep). */
  providerEnabled(organizationId: string, provider: ConnectionItem['provider']): Promise<boolean>;
}

/**
 * One due-index entry, as the scheduled sweep takes it. A connection's entry: its outbox is flushed
 * (events a process that died after the change did not publish), then a throttle whose window ended
 * goes back to its status, and an entry with nothing left to do is dropped. A tokens item due (its
 * refresh token near lapsing unused, or its status check: sweepDueAt) is refreshed, unless the connection cannot be (its entry is dropped), is still throttled
 * (deferred to the throttle's end) or its provider is turned off for the organization (deferred:
 * scheduled work stops, on-use refresh still works).
 */
export async function sweepEntry(context: SweepContext, entry: DueEntry): Promise<SweepOutcome> {
  const { deps } = context;
  const repository = ConnectionRepository.of(deps);
  const { connectionId, kind } = entry;
  let connection = await repository.get(connectionId);
  if (kind === 'CONN') {
    if (!connection) return 'cleaned';
    if (!(await flushConnection(deps, connection, context.log))) return 'failed';
    if (connection.status === 'throttled' && !throttleEnded(connection, deps.clock.now())) return 'not_due';
    const ended = connection.status === 'throttled';
    await endThrottle(context, connectionId); // read again: the flush emptied the outbox
    return ended ? 'unthrottled' : 'cleaned';
  }

  const tokens = await repository.getTokens(connectionId);
  if (!tokens) return 'cleaned';
  const step = decideTokenEntry(connection, dueAtOf(tokens), deps.clock.now());
  if (step.then === 'not_due') return 'not_due';
  if (step.then === 'drop') {
    if (step.flush && !(await flushConnection(deps, connection!, context.log))) return 'failed';
    await applyCommands(context, connectionId, [{ kind: 'drop_entry', version: tokens.tokenVersion }]);
    return 'cleaned';
  }
  if (step.then === 'defer') {
    await applyCommands(context, connectionId, [
      { kind: 'defer_entry', version: tokens.tokenVersion, dueAt: step.until },
    ]);
    return 'deferred';
  }
  if (step.endThrottle) {
    connection = (await endThrottle(context, connection!)) ?? (await repository.get(connectionId));
    if (!connection || effectiveStatus(connection, deps.clock.now()) !== 'healthy') return 'not_due';
  }
  if (!connection) return 'cleaned'; // decideTokenEntry drops an entry whose connection is gone
  if (!(await context.providerEnabled(connection.organizationId, connection.provider))) {
    const dueAt = deps.clock.now() + DISABLED_RECHECK_MS;
    await applyCommands(context, connectionId, [
      { kind: 'defer_entry', version: tokens.tokenVersion, dueAt },
    ]);
    return 'skipped_disabled';
  }
  // Due here means the refresh token must be used (before it lapses unused) or the grant checked,
  // however fresh the access token is.
  const result = await refreshConnection(context, connection, tokens, 'always');
  const { counted, dueAt } = readRefresh(result, 'sweep', connectionId, deps.clock.now());
  if (dueAt !== undefined) {
    await applyCommands(context, connectionId, [
      { kind: 'defer_entry', version: tokens.tokenVersion, dueAt },
    ]);
  }
  return counted;
}
