// The delivery state machine's pure core: what happens after an attempt (delivered, failed, retried
// inline or later), the background schedule with jitter and Retry-After, and the auto-disable policy.
import type { AttemptOutcome } from './attempt';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Waits before background attempts 3..12 (attempts 1 and 2 run inline), about 3.5 days in all. */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  1 * MINUTE,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
];
export const JITTER = 0.2;
/** Attempts in one cycle (a replay starts a new cycle): the first, one inline retry, then the schedule. */
export const MAX_ATTEMPTS = 2 + RETRY_SCHEDULE_MS.length;
/** Pause before the inline retry; a longer Retry-After sends the retry to the background instead. */
export const INLINE_RETRY_PAUSE_MS = 1_000;
/** The most a receiver's Retry-After can push an attempt back. */
export const MAX_RETRY_AFTER_MS = DAY;
/** An attempt this close to its due time is made now rather than sent on one more hop of a second. */
export const DUE_TOLERANCE_MS = 1_000;
/** An endpoint failing for this long with no success, when a delivery fails for good, is disabled. */
export const AUTO_DISABLE_AFTER_MS = 5 * DAY;

export const DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'failed', 'skipped_disabled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
/** Why a delivery failed: the receiver refused it (no retry), retries ran out, or the endpoint is gone. */
export const FAILURE_REASONS = ['rejected', 'exhausted', 'endpoint_deleted', 'dead_lettered'] as const;
/**
 * dead_lettered: the step's queue message failed on every receive and was moved to the dead-letter
 * queue (a crash, a timeout, an outage of ours); replay or recover starts the delivery again, and a
 * message redriven from the dead-letter queue resumes it.
 */
export type FailureReason = (typeof FAILURE_REASONS)[number];

export type NextStep =
  | { kind: 'delivered' }
  | { kind: 'failed'; reason: FailureReason }
  | { kind: 'retry'; inline: boolean; waitMs: number };

/** `random` in [0, 1): 0.5 is the schedule exactly; 0 is -20%, 1 is +20%. */
export function jittered(ms: number, random: number): number {
  return Math.round(ms * (1 - JITTER + 2 * JITTER * random));
}

export function clampRetryAfter(seconds: number | undefined): number | undefined {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return undefined;
  return Math.min(seconds * 1000, MAX_RETRY_AFTER_MS);
}

/**
 * What follows attempt `attempt` (1-based within its cycle) with this outcome. Retry-After is honoured
 * as a floor under the schedule (never sooner than asked), clamped to a day.
 */
export function nextStep(
  attempt: number,
  outcome: Pick<AttemptOutcome, 'kind' | 'retryAfterSeconds'>,
  random: number,
  inlinePauseMs = INLINE_RETRY_PAUSE_MS,
): NextStep {
  if (outcome.kind === 'delivered') return { kind: 'delivered' };
  if (outcome.kind === 'failed') return { kind: 'failed', reason: 'rejected' };
  if (attempt >= MAX_ATTEMPTS) return { kind: 'failed', reason: 'exhausted' };
  const retryAfterMs = clampRetryAfter(outcome.retryAfterSeconds);
  if (attempt === 1) {
    if (retryAfterMs === undefined || retryAfterMs <= inlinePauseMs) {
      return { kind: 'retry', inline: true, waitMs: inlinePauseMs };
    }
    return { kind: 'retry', inline: false, waitMs: retryAfterMs };
  }
  const scheduled = jittered(RETRY_SCHEDULE_MS[attempt - 2]!, random);
  return { kind: 'retry', inline: false, waitMs: Math.max(scheduled, retryAfterMs ?? 0) };
}

export interface EndpointHealth {
  /** Epoch ms of the last delivered attempt. */
  lastSuccessAt?: number;
  /** Epoch ms of the first failed attempt since the last success; absent while healthy. */
  failingSinceAt?: number;
}

/**
 * Checked when a delivery fails for good: disable when the endpoint has failed without a single
 * success for AUTO_DISABLE_AFTER_MS.
 */
export function shouldAutoDisable(health: EndpointHealth, now: number): boolean {
  if (health.failingSinceAt === undefined) return false;
  if (health.lastSuccessAt !== undefined && health.lastSuccessAt >= health.failingSinceAt) return false;
  return now - health.failingSinceAt >= AUTO_DISABLE_AFTER_MS;
}

export const autoDisableReason = (failingSince: number): string =>
  `Disabled automatically: every delivery failed since ${new Date(failingSince).toISOString()} ` +
  `(more than ${AUTO_DISABLE_AFTER_MS / DAY} days without a successful delivery)`;
