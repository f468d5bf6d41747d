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
import { nextThrottle, throttleEnded } from './token-policy';

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
