// The token lifecycle's rules, without I/O: when an access token is due for refresh on use and when
// the sweep refreshes an idle connection, what a provider failure means, how long a throttle lasts and what status a reader sees. Unit-tested on plain values.
import type { ConnectionStatus } from './connection';

/** An access token is due for refresh on use this long before expiry (half the lifetime for short-lived tokens). */
export const REFRESH_LEAD_MS = 10 * 60_000;
/**
 * How long an idle connection goes without its grant being tried at the provider: the sweep refreshes
 * it then, so a grant revoked or lapsed at the provider turns the connection reauth_required within
 * this long even when nothing uses it. A connection in use refreshes on use, hourly or so.
 */
export const STATUS_CHECK_MS = 24 * 3600_000;
/** An unused refresh token is refreshed this long before it would lapse (a quarter of a short lifetime). */
export const IDLE_LEAD_MS = 7 * 86_400_000;
/** Closer than this to expiry a token is not handed out: a call made with it could fail mid-flight. */
export const EXPIRY_MARGIN_MS = 60_000;
/**
 * A run's step reuses the access token it read for this long (the connection's status and tokens are
 * read again after it, and after any refusal): read and opened once for many files, not once per file
 * (two table reads and a KMS decrypt each), while a disconnect or reconnect is still seen within seconds.
 */
export const TOKEN_REUSE_MS = 10_000;
/** How long a refresher holds a connection: longer than the provider attempts it makes under it. */
export const LEASE_MS = 60_000;
/** Provider token requests made under one lease, and the timeout of each. */
export const REFRESH_ATTEMPTS = 3;
export const REFRESH_ATTEMPT_TIMEOUT_MS = 10_000;
/** Retry-After is honoured within these bounds. */
export const THROTTLE_MIN_MS = 1_000;
export const THROTTLE_MAX_MS = 6 * 3600_000;
/** Without Retry-After: 1 min, 2, 4, ... doubling per consecutive throttle, at most an hour. */
export const THROTTLE_BACKOFF_BASE_MS = 60_000;
export const THROTTLE_BACKOFF_MAX_MS = 3600_000;
/** A connection whose provider is turned off is looked at again after this long. */
export const DISABLED_RECHECK_MS = 3600_000;

/** OAuth errors at the token endpoint that mean the grant is gone: only the user can restore it. */
const LAPSED_ERRORS = new Set(['invalid_grant', 'invalid_token']);

export type Freshness = 'fresh' | 'due' | 'expired';

/**
 * When the sweep refreshes tokens last obtained (issued or refreshed: the refresh token last used) at
 * `obtainedAt` (ms): before an unused refresh token lapses (`idleLifetimeMs`, null when the provider's
 * do not lapse unused), and at the latest after `checkMs`, the status check. The access token's expiry
 * is no reason: whoever needs the token refreshes it then (tokenFreshness), so an idle connection costs
 * one refresh per check, not one per access-token lifetime.
 */
export function sweepDueAt(
  obtainedAt: number,
  idleLifetimeMs: number | null,
  checkMs: number = STATUS_CHECK_MS,
): number {
  const keep =
    idleLifetimeMs === null
      ? Infinity
      : Math.max(0, idleLifetimeMs - Math.min(IDLE_LEAD_MS, idleLifetimeMs / 4));
  return obtainedAt + Math.min(checkMs, keep);
}

/** When a token obtained at `obtainedAt` (ms) that expires at `expiresAt` (ms) is due for refresh on use. */
export function refreshDueAt(expiresAt: number, obtainedAt: number): number {
  const lifetime = Math.max(0, expiresAt - obtainedAt);
  return expiresAt - Math.min(REFRESH_LEAD_MS, lifetime / 2);
}

/** fresh: use it; due: use it, but refresh now if nobody else is; expired: refresh before use. */
export function tokenFreshness(
  tokens: { accessTokenExpiresAt: number; obtainedAt: number },
  now: number,
): Freshness {
  const { accessTokenExpiresAt: expiresAt, obtainedAt } = tokens;
  const lifetime = Math.max(0, expiresAt - obtainedAt);
  if (now >= expiresAt - Math.min(EXPIRY_MARGIN_MS, lifetime / 4)) return 'expired';
  if (now >= refreshDueAt(expiresAt, obtainedAt)) return 'due';
  return 'fresh';
}

export type ProviderFailure =
  /** The grant lapsed beyond refresh (invalid_grant or equivalent). */
  | { kind: 'lapsed'; oauthError: string }
  /** The provider rate limits the account. */
  | { kind: 'throttled'; retryAfterSeconds?: number }
  /** 5xx, 408, network error or timeout: worth retrying; the connection's status does not change. */
  | { kind: 'transient' }
  /** Anything else (invalid_client, a malformed answer): our configuration or the provider is broken. */
  | { kind: 'fatal' };

/** What a failed token request means. `retryAt` (an HTTP-date Retry-After) is read against `now`. */
export function classifyTokenFailure(
  failure: { status?: number; oauthError?: string; retryAfterSeconds?: number; retryAt?: number },
  now: number,
): ProviderFailure {
  const { status, oauthError } = failure;
  if (status === 429) {
    const retryAfterSeconds =
      failure.retryAfterSeconds ??
      (failure.retryAt !== undefined ? Math.max(0, (failure.retryAt - now) / 1000) : undefined);
    return retryAfterSeconds === undefined ? { kind: 'throttled' } : { kind: 'throttled', retryAfterSeconds };
  }
  if (status === undefined || status === 408 || status >= 500) return { kind: 'transient' };
  if ((status === 400 || status === 401) && oauthError && LAPSED_ERRORS.has(oauthError)) {
    return { kind: 'lapsed', oauthError };
  }
  return { kind: 'fatal' };
}

/** How long a throttle lasts: Retry-After, clamped; without it, a backoff on consecutive throttles. */
export function throttleWindowMs(retryAfterSeconds: number | undefined, consecutive: number): number {
  if (retryAfterSeconds !== undefined && Number.isFinite(retryAfterSeconds)) {
    return Math.min(THROTTLE_MAX_MS, Math.max(THROTTLE_MIN_MS, Math.ceil(retryAfterSeconds * 1000)));
  }
  const exponent = Math.min(Math.max(consecutive, 1) - 1, 20);
  return Math.min(THROTTLE_BACKOFF_MAX_MS, THROTTLE_BACKOFF_BASE_MS * 2 ** exponent);
}

export interface ThrottleState {
  status: ConnectionStatus;
  /** Epoch ms the throttle ends (while status is throttled). */
  throttleEndsAt?: number;
  /** The status to return to when the throttle ends. */
  previousStatus?: ConnectionStatus;
  /** Consecutive throttles since the last successful refresh (drives the backoff). */
  throttleCount?: number;
}

/**
 * The throttle a rate-limited call puts a connection under, or undefined when its status cannot be
 * throttled (only a healthy connection makes provider calls; a throttled one has its window extended,
 * never shortened, and keeps the status it will return to).
 */
export function nextThrottle(
  current: ThrottleState,
  now: number,
  retryAfterSeconds: number | undefined,
): Required<Pick<ThrottleState, 'throttleEndsAt' | 'previousStatus' | 'throttleCount'>> | undefined {
  if (current.status !== 'healthy' && current.status !== 'throttled') return undefined;
  const throttleCount = (current.throttleCount ?? 0) + 1;
  const until = now + throttleWindowMs(retryAfterSeconds, throttleCount);
  if (current.status === 'healthy') {
    return { throttleEndsAt: until, previousStatus: 'healthy', throttleCount };
  }
  return {
    throttleEndsAt: Math.max(current.throttleEndsAt ?? 0, until),
    previousStatus: current.previousStatus ?? 'healthy',
    throttleCount,
  };
}

/** Whether a throttled connection's window has passed. */
export function throttleEnded(current: ThrottleState, now: number): boolean {
  return (
    current.status === 'throttled' && (current.throttleEndsAt === undefined || now >= current.throttleEndsAt)
  );
}

/** The status a reader sees: a throttle whose window has passed reads as the status it returns to. */
export function effectiveStatus(current: ThrottleState, now: number): ConnectionStatus {
  return throttleEnded(current, now) ? (current.previousStatus ?? 'healthy') : current.status;
}
