// A wait longer than a queue can hold a message, as the services' long-lived workers make it: the
// message is re-sent delayed in hops of at most SQS's 15 minutes, each carrying the time it waits for,
// and a record not heard from by its heartbeat is re-driven by a sweep (the message lost). Import runs
// and exports (their throttle and backoff waits) and webhook deliveries (their retry schedule) wait
// this one way.

/** SQS DelaySeconds stops at 15 minutes: longer waits travel in hops carrying the due time. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

/**
 * The delay of the next hop toward `dueAt` (ms), within SQS's limit; 0 once it is due. `earlyMs`: how
 * close to `dueAt` counts as due (a delivery's schedule tolerates a second; a provider's rate limit none).
 */
export function hopDelaySeconds(dueAt: number, now: number, earlyMs = 0): number {
  const remaining = dueAt - now;
  if (remaining <= earlyMs) return 0;
  return Math.min(MAX_QUEUE_DELAY_SECONDS, Math.ceil(remaining / 1000));
}

/** Whether a wait until `dueAt` is over at `now` (the hop that brings it is the last). */
export const timerDue = (dueAt: number | undefined, now: number, earlyMs = 0): boolean =>
  dueAt === undefined || hopDelaySeconds(dueAt, now, earlyMs) === 0;

/**
 * When a sweep may take a record waiting on a hop of `delaySeconds` for lost: its message is due then,
 * and `staleAfterMs` later nothing advanced it.
 */
export const heartbeatAt = (now: number, delaySeconds: number, staleAfterMs: number): number =>
  now + delaySeconds * 1000 + staleAfterMs;
