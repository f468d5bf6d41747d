// Every change a connection goes through, as one pure function: decide(connection, command, now)
// answers the attributes to set and remove, the version and status the change must be written over,
// the sweep entry it needs and the events it emits; or a refusal, or that nothing is to change. The
// use cases only load, decide, write (conditionally, with `expect`) and flush the outbox.
//
//   command           from                                to                      event
//   connect           pending                             healthy (account)       -
//   reconnect         healthy, reauth_required, throttled healthy (account)       -
//   supersede         pending                             revoked (supersededBy)  -
//   refresh_succeeded any with a throttle count           (count reset)           -
//   lapse             healthy, throttled                  reauth_required         connection.reauth_required
//   throttle          healthy                             throttled (until)       -
//                     throttled                           throttled (extended)    -
//   end_throttle      throttled, window over              the status it replaced  -
//                     any other status                    (stale throttle fields and sweep entry gone)
//   revoke            anything but revoked                revoked                 connection.revoked
import { pendingEvents } from '../../events';
import type { ConnectionRecord, ConnectionStatus, Account } from './connection';
import type { ConnectionParams } from './connection-params';
import type { ProviderFailure } from './token-policy';
import { LEASE_MS, nextThrottle, throttleEnded, tokenFreshness } from './token-policy';

export type ConnectionCommand =
  /** The consent flow completed on this pending connection. */
  | { kind: 'connect'; account: Account; params?: ConnectionParams }
  /** A consent flow for the account this connection holds brought it a new grant. */
  | { kind: 'reconnect'; account: Account }
  /** This pending connection's flow was folded into the connection `by` (a reconnect). */
  | { kind: 'supersede'; by: string }
  /** A (re)issued connect link is now the pending connection's only live one. */
  | { kind: 'name_link'; hash: string }
  /** The provider refreshed the token: the throttle backoff starts over. */
  | { kind: 'refresh_succeeded' }
  /** The provider says the grant is gone. */
  | { kind: 'lapse' }
  /** The provider rate limits the account. */
  | { kind: 'throttle'; retryAfterSeconds?: number }
  /** The sweep (or a caller) finds a throttle whose window may have passed. */
  | { kind: 'end_throttle' }
  /** DELETE: `purge` as the caller asked. */
  | { kind: 'revoke'; purge: boolean };

export type ConnectionEventType = 'connection.reauth_required' | 'connection.revoked';

/** An event the change emits; the outbox gives it its id and time when the change is written. */
export interface EventDraft {
  type: ConnectionEventType;
  data: Record<string, unknown>;
}

type Attribute = Exclude<keyof ConnectionRecord, 'id' | 'organizationId' | 'provider' | 'createdAt'>;

export interface Change {
  outcome: 'change';
  set: Partial<Pick<ConnectionRecord, Attribute>>;
  remove: Attribute[];
  /** Written only over this version and status (the repository's condition); as version + 1. */
  expect: { version: number; status: ConnectionStatus };
  events: EventDraft[];
  /** The connection's sweep entry: due at this time (ms), dropped, or left as it is (undefined). */
  due?: number | 'drop';
}

export type RefusalReason =
  /** connect/supersede: the connection is no longer pending (its flow is inactive). */
  | 'not_pending'
  /** reconnect: the connection holds no live grant (pending or revoked). */
  | 'not_active'
  /** lapse/throttle: the connection makes no provider calls in its status. */
  | 'not_live'
  /** end_throttle: the window has not passed. */
  | 'throttle_not_over'
  | 'already_revoked';

export type Decision = Change | { outcome: 'refused'; reason: RefusalReason } | { outcome: 'unchanged' };

/** The statuses each command applies from. */
export const APPLIES_FROM: Record<ConnectionCommand['kind'], readonly ConnectionStatus[]> = {
  connect: ['pending'],
  reconnect: ['healthy', 'reauth_required', 'throttled'],
  supersede: ['pending'],
  name_link: ['pending'],
  refresh_succeeded: ['pending', 'healthy', 'reauth_required', 'throttled', 'revoked'],
  lapse: ['healthy', 'throttled'],
  throttle: ['healthy', 'throttled'],
  end_throttle: ['pending', 'healthy', 'reauth_required', 'throttled', 'revoked'],
  revoke: ['pending', 'healthy', 'reauth_required', 'throttled'],
};

const REFUSAL: Record<ConnectionCommand['kind'], RefusalReason> = {
  connect: 'not_pending',
  reconnect: 'not_active',
  supersede: 'not_pending',
  name_link: 'not_pending',
  refresh_succeeded: 'not_live',
  lapse: 'not_live',
  throttle: 'not_live',
  end_throttle: 'throttle_not_over',
  revoke: 'already_revoked',
};

const THROTTLE: Attribute[] = ['throttleEndsAt', 'previousStatus'];

export function decide(
  /** As stored: with the events its outbox still holds. */
  connection: ConnectionRecord,
  command: ConnectionCommand,
  now: number,
): Decision {
  if (!APPLIES_FROM[command.kind].includes(connection.status)) {
    return { outcome: 'refused', reason: REFUSAL[command.kind] };
  }
  const expect = { version: connection.version ?? 0, status: connection.status };
  const change = (parts: Partial<Omit<Change, 'outcome' | 'expect'>> & Pick<Change, 'set'>): Change => ({
    outcome: 'change',
    remove: [],
    events: [],
    expect,
    ...parts,
  });
  // A change that takes the connection out of the sweep keeps it there while its outbox holds events
  // (a flush that did not happen yet): the sweep flushes them, then drops the entry.
  const drop = (): Change['due'] =>
    pendingEvents(connection as unknown as Record<string, unknown>).length ? now : 'drop';
  const event = (type: ConnectionEventType, data: Record<string, unknown>): EventDraft => ({
    type,
    data: { connectionId: connection.id, provider: connection.provider, ...data },
  });

  switch (command.kind) {
    case 'connect':
    case 'reconnect':
      return change({
        set: {
          status: 'healthy',
          account: command.account,
          updatedAt: now,
          // The params the consent was given under: kept from now on (a reconnect keeps its own).
          ...(command.kind === 'connect' && command.params ? { params: command.params } : {}),
        },
        remove: [...THROTTLE, 'throttleCount'],
        due: connection.status === 'throttled' ? drop() : undefined,
      });
    case 'name_link':
      return change({ set: { linkHash: command.hash, updatedAt: now } });
    case 'supersede':
      return change({
        set: { status: 'revoked', supersededBy: command.by, revokedAt: now, updatedAt: now },
      });
    case 'refresh_succeeded':
      return connection.throttleCount
        ? change({ set: {}, remove: ['throttleCount'] })
        : { outcome: 'unchanged' };
    case 'lapse':
      // The event is published from the outbox; the entry brings the sweep back in case no flush does.
      return change({
        set: { status: 'reauth_required', updatedAt: now },
        remove: THROTTLE,
        events: [
          event('connection.reauth_required', {
            status: 'reauth_required',
            previousStatus: connection.status,
          }),
        ],
        due: now,
      });
    case 'throttle': {
      const next = nextThrottle(connection, now, command.retryAfterSeconds)!;
      return change({
        set: {
          status: 'throttled',
          ...next,
          // Extending a throttle is not a new status: updatedAt says when it began.
          updatedAt: connection.status === 'throttled' ? connection.updatedAt : now,
        },
        due: next.throttleEndsAt,
      });
    }
    case 'end_throttle':
      if (connection.status !== 'throttled') {
        // A stale entry or stale fields (reconnected, revoked while throttled): only the cleanup.
        return change({ set: {}, remove: THROTTLE, due: drop() });
      }
      if (!throttleEnded(connection, now)) return { outcome: 'refused', reason: 'throttle_not_over' };
      return change({
        set: { status: connection.previousStatus ?? 'healthy', updatedAt: now },
        remove: THROTTLE,
        due: drop(),
      });
    case 'revoke':
      return change({
        set: { status: 'revoked', revokedAt: now, updatedAt: now },
        remove: THROTTLE,
        // The webhooks catalog's shape: purge says whether the DELETE asked for the connection's
        // imported documents to be purged too.
        events: [event('connection.revoked', { status: 'revoked', purge: command.purge })],
        due: now,
      });
  }
}

/**
 * What the refresh sweep does with a tokens item's due entry, from the connection as read (undefined:
 * gone) and the entry's due time: nothing yet (`not_due`: moved since the index was read); `drop` the
 * entry, after publishing what the connection's outbox still holds when `flush` (a connection that
 * cannot be refreshed in its status); `defer` it to the throttle's end; or `refresh`, ending a throttle
 * whose window passed first.
 */
export type TokenEntryStep =
  | { then: 'not_due' }
  | { then: 'drop'; flush: boolean }
  | { then: 'defer'; until: number }
  | { then: 'refresh'; endThrottle: boolean };

export function decideTokenEntry(
  connection: Pick<ConnectionRecord, 'status' | 'throttleEndsAt' | 'previousStatus'> | undefined,
  dueAt: number,
  now: number,
): TokenEntryStep {
  if (dueAt > now) return { then: 'not_due' };
  if (!connection || connection.status === 'pending' || connection.status === 'revoked') {
    return { then: 'drop', flush: false };
  }
  // An event the lapse did not get to publish goes now (the connection's own entry would too).
  if (connection.status === 'reauth_required') return { then: 'drop', flush: true };
  if (connection.status === 'throttled' && !throttleEnded(connection, now)) {
    return { then: 'defer', until: connection.throttleEndsAt! };
  }
  return { then: 'refresh', endThrottle: connection.status === 'throttled' };
}

/** How a token refresh ended (app/token-lifecycle.ts refreshConnection). */
export type RefreshOutcomeKind =
  'fresh' | 'refreshed' | 'refreshed_elsewhere' | 'busy' | 'lapsed' | 'throttled' | 'failed' | 'gone';

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

/**
 * What each way a refresh ends means to its three callers, in one table:
 * - onUse (a provider call wants a token): `use` the outcome's tokens; `use_or_wait`/`use_or_unavailable`
 *   the tokens as read while they are only due (still valid), else wait for the other refresher and
 *   look again / give up for now; or the error naming why the connection cannot be used.
 * - afterRefusal (the provider refused a token with 401 and a refresh was forced): `retry` the call
 *   with the new token, or the error to stop with.
 * - sweep: what the refresh sweep counts; `entry` moves the tokens' sweep entry: to the throttle's end
 *   (`throttle_end`), or to the access token's expiry (`access_expiry`: a grant with no refresh token,
 *   nothing to keep alive until then).
 */
export const AFTER_REFRESH: Record<
  RefreshOutcomeKind,
  {
    onUse: 'use' | 'use_or_wait' | 'use_or_unavailable' | 'reauth_required' | 'throttled' | 'revoked';
    afterRefusal:
      'retry' | 'reauth_required' | 'throttled' | 'revoked' | 'provider_unavailable' | 'refresh_in_progress';
    sweep: SweepOutcome;
    entry?: 'throttle_end' | 'access_expiry';
  }
> = {
  fresh: { onUse: 'use', afterRefusal: 'provider_unavailable', sweep: 'not_due', entry: 'access_expiry' },
  refreshed: { onUse: 'use', afterRefusal: 'retry', sweep: 'refreshed' },
  refreshed_elsewhere: { onUse: 'use', afterRefusal: 'retry', sweep: 'refreshed_elsewhere' },
  busy: { onUse: 'use_or_wait', afterRefusal: 'refresh_in_progress', sweep: 'busy' },
  lapsed: { onUse: 'reauth_required', afterRefusal: 'reauth_required', sweep: 'lapsed' },
  throttled: { onUse: 'throttled', afterRefusal: 'throttled', sweep: 'throttled', entry: 'throttle_end' },
  failed: { onUse: 'use_or_unavailable', afterRefusal: 'provider_unavailable', sweep: 'failed' },
  gone: { onUse: 'revoked', afterRefusal: 'revoked', sweep: 'cleaned' },
};

// Refreshing a connection's tokens. The tokens item, its lease, its sweep entry and the connection
// change only as the decisions below say: the refresher takes the lease refreshStart gives (and gives
// it back however the refresh ends), asks the provider, hands its answer to decideRefresh and applies
// the commands in order, each through its repository; a command that does not take stops the rest,
// and refreshEnded reads how the refresh ended from where they stopped.
//
//   answer                      commands                                              ends
//   granted (rotated or not)    put_tokens over v, [refresh_succeeded if throttled before]  refreshed
//   lapsed; no refresh token    check_version v, lapse, drop_entry v                  lapsed
//     with the access expired
//   no refresh token, valid     -                                                     fresh
//   throttled                   throttle                                              throttled
//   transient, fatal            -                                                     failed

/** The tokens item as the refresh decisions see it: no secret. */
export interface TokenState {
  tokenVersion: number;
  tokenType: string;
  scopes: string[];
  /** Epoch ms. */
  accessTokenExpiresAt: number;
  /** Epoch ms the grant was issued or last refreshed (the refresh token last used). */
  obtainedAt: number;
  /** The connection's params (its region or server): where every refresh and the revocation go. */
  params?: ConnectionParams;
}

/** How the provider answered a refresh request made under the lease, classified; or why none was made. */
export type RefreshAnswer =
  /** A new access token; `rotated`: with a new refresh token (the one sent is spent). */
  | {
      kind: 'granted';
      tokenType: string;
      /** As the provider said, else its definition's default. */
      lifetimeSeconds: number;
      /** Undefined: as before (RFC 6749 §5.1). */
      scopes?: string[];
      rotated: boolean;
    }
  /** The stored grant holds no refresh token: it ends when its access token does. */
  | { kind: 'no_refresh_token' }
  | ProviderFailure;

/** A write the refresher applies through the repositories, in the order decided. */
export type RefreshCommand =
  /**
   * The refresh lease on version `version`, from `at` for `ms`: taken only while that version is stored
   * and no other refresher holds an unexpired lease (of any number of refreshers, at most one).
   */
  | { kind: 'take_lease'; version: number; at: number; ms: number }
  /** The lease given back, if this refresher still holds it (a new version already ended it). */
  | { kind: 'release_lease' }
  /**
   * The next version of the tokens, written only over version `over`; the write ends any lease and
   * moves the sweep entry to what the new version is due at. Its secret holds the new refresh token
   * (`rotated`) or the one it had (`kept`).
   */
  | { kind: 'put_tokens'; over: number; next: TokenState; refreshToken: 'rotated' | 'kept' }
  /** Goes on only while version `version` is stored (a reconnect writes without the lease). */
  | { kind: 'check_version'; version: number }
  /** A change of the connection, as decide() makes it. */
  | { kind: 'connection'; command: ConnectionCommand }
  /** The tokens' sweep entry dropped, or moved to `dueAt`, while version `version` is stored. */
  | { kind: 'drop_entry'; version: number }
  | { kind: 'defer_entry'; version: number; dueAt: number };

export interface RefreshDecision {
  commands: RefreshCommand[];
  /** How the refresh ends when every command takes. */
  outcome: 'fresh' | 'refreshed' | 'lapsed' | 'throttled' | 'failed';
  failure?: 'transient' | 'fatal';
}

/**
 * Whether to refresh, and the lease it takes first: `due` refreshes a token that is due or expired,
 * `expired` only an expired one, `always` regardless (the sweep's status check, a refused token).
 */
export function refreshStart(
  tokens: Pick<TokenState, 'tokenVersion' | 'accessTokenExpiresAt' | 'obtainedAt'>,
  when: 'due' | 'expired' | 'always',
  now: number,
): { then: 'fresh' } | { then: 'refresh'; lease: RefreshCommand & { kind: 'take_lease' } } {
  const freshness = tokenFreshness(tokens, now);
  if (when !== 'always' && (freshness === 'fresh' || (when === 'expired' && freshness === 'due'))) {
    return { then: 'fresh' };
  }
  return {
    then: 'refresh',
    lease: { kind: 'take_lease', version: tokens.tokenVersion, at: now, ms: LEASE_MS },
  };
}

/**
 * The provider said the grant is gone (or there is nothing to renew it with): unless a newer version
 * was stored meanwhile, the connection becomes reauth_required, with its event, and its tokens leave
 * the sweep.
 */
export const decideLapse = (version: number): RefreshDecision => ({
  commands: [
    { kind: 'check_version', version },
    { kind: 'connection', command: { kind: 'lapse' } },
    { kind: 'drop_entry', version },
  ],
  outcome: 'lapsed',
});

/** The provider rate limits the account (its token endpoint or any call). */
export const decideThrottle = (retryAfterSeconds: number | undefined): RefreshDecision => ({
  commands: [{ kind: 'connection', command: { kind: 'throttle', retryAfterSeconds } }],
  outcome: 'throttled',
});

/** What a refresher under the lease of `tokens` writes after the provider's `answer`, at `now`. */
export function decideRefresh(
  connection: Pick<ConnectionRecord, 'throttleCount'>,
  tokens: TokenState,
  answer: RefreshAnswer,
  now: number,
): RefreshDecision {
  switch (answer.kind) {
    case 'granted': {
      const next: TokenState = {
        tokenVersion: tokens.tokenVersion + 1,
        tokenType: answer.tokenType,
        scopes: answer.scopes ?? tokens.scopes,
        accessTokenExpiresAt: now + answer.lifetimeSeconds * 1000,
        obtainedAt: now,
        ...(tokens.params ? { params: tokens.params } : {}),
      };
      const commands: RefreshCommand[] = [
        {
          kind: 'put_tokens',
          over: tokens.tokenVersion,
          next,
          refreshToken: answer.rotated ? 'rotated' : 'kept',
        },
      ];
      // A throttle's backoff starts over once the provider answers again.
      if (connection.throttleCount) {
        commands.push({ kind: 'connection', command: { kind: 'refresh_succeeded' } });
      }
      return { commands, outcome: 'refreshed' };
    }
    case 'no_refresh_token':
      return tokenFreshness(tokens, now) === 'expired'
        ? decideLapse(tokens.tokenVersion)
        : { commands: [], outcome: 'fresh' };
    case 'lapsed':
      return decideLapse(tokens.tokenVersion);
    case 'throttled':
      return decideThrottle(answer.retryAfterSeconds);
    case 'transient':
    case 'fatal':
      return { commands: [], outcome: 'failed', failure: answer.kind };
  }
}

/** Where applying a decision's commands stopped: the one that did not take, and what it found. */
export type RefreshStop =
  /** take_lease: another refresher holds it, or another version is stored (as re-read; undefined: none). */
  | { at: 'lease'; version: number; stored: number | undefined }
  /** put_tokens, check_version: another version is stored (its number as re-read; undefined: none). */
  | { at: 'tokens'; stored: number | undefined }
  /** connection: decide() refused the change or had nothing to change, or the connection is gone. */
  | { at: 'connection'; result: 'refused' | 'unchanged' | 'gone' };

/** Whether a check_version (or a lost put_tokens) stops at what is stored. */
export const versionMoved = (version: number, stored: number | undefined): boolean =>
  stored === undefined || stored > version;

/** How a refresh ended, from its decision and where applying it stopped (if it did). */
export function refreshEnded(
  decision: RefreshDecision,
  stop: RefreshStop | undefined,
): { outcome: RefreshOutcomeKind; failure?: 'transient' | 'fatal' } {
  // Another writer (a refresher, a reconnect, a disconnect) stored its version first: it stands.
  if (stop?.at === 'lease') return { outcome: leaseLost(stop.version, stop.stored) };
  if (stop?.at === 'tokens') return { outcome: stop.stored === undefined ? 'gone' : 'refreshed_elsewhere' };
  if (stop) {
    // A lapse refused: the connection is not live any more, someone else decided. A throttle refused:
    // the status is no longer one that makes calls, so nothing to wait for; try again later.
    if (decision.outcome === 'lapsed') return { outcome: stop.result === 'gone' ? 'gone' : 'lapsed' };
    if (decision.outcome === 'throttled') return { outcome: 'failed', failure: 'transient' };
  }
  // A refresh_succeeded that did not take changes nothing of a refresh that was stored.
  return decision.failure
    ? { outcome: decision.outcome, failure: decision.failure }
    : { outcome: decision.outcome };
}

/** A refresher that lost the lease on `version`: what is stored now (undefined: gone) says why. */
export function leaseLost(version: number, stored: number | undefined): RefreshOutcomeKind {
  if (stored === undefined) return 'gone';
  return stored > version ? 'refreshed_elsewhere' : 'busy';
}

/**
 * Where the sweep moves a tokens item's entry after its refresh ended as `outcome` (AFTER_REFRESH's
 * `entry`): to the throttle's end, or to the access token's expiry for a grant with no refresh token
 * (nothing to keep alive until then); undefined: the refresh wrote it, or it has no entry left.
 */
export function entryDueAfter(
  outcome: RefreshOutcomeKind,
  at: { throttleEndsAt?: number; accessTokenExpiresAt?: number },
): number | undefined {
  const entry = AFTER_REFRESH[outcome].entry;
  return entry === 'throttle_end'
    ? at.throttleEndsAt
    : entry === 'access_expiry'
      ? at.accessTokenExpiresAt
      : undefined;
}
