// Per-key token bucket (100/min sustained, bursts to 200), stored in a table and updated with
// optimistic concurrency, so concurrent requests across Lambdas never over-admit.
import type { Clock } from './clock';
import { getNumberFromEnv, stage } from './config';
import { ConditionFailedError } from './errors';
import type { Item, Table } from './ports';

export interface RateLimitPolicy {
  perMinute: number;
  burst: number;
}

export const DEFAULT_RATE_LIMIT: RateLimitPolicy = { perMinute: 100, burst: 200 };

/**
 * The per-key limit in force: the default, or RATE_LIMIT_PER_MINUTE / RATE_LIMIT_BURST when set outside
 * production (the schemathesis run sends thousands of requests with one key; production cannot loosen it).
 */
export function customerRateLimit(): RateLimitPolicy {
  if (stage() === 'prod') return DEFAULT_RATE_LIMIT;
  return {
    perMinute: getNumberFromEnv('RATE_LIMIT_PER_MINUTE', { default: DEFAULT_RATE_LIMIT.perMinute }),
    burst: getNumberFromEnv('RATE_LIMIT_BURST', { default: DEFAULT_RATE_LIMIT.burst }),
  };
}

/** A system key on a `rateLimit: 'platform'` route (event publishing by platform services). */
export const PLATFORM_RATE_LIMIT: RateLimitPolicy = { perMinute: 6000, burst: 12000 };

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Epoch seconds at which the bucket is full again. */
  resetAt: number;
  /** Seconds until the next request would be admitted (when not allowed). */
  retryAfter: number;
}

interface BucketItem extends Item {
  tokens: number;
  refilledAt: number;
  version: number;
}

const MAX_ATTEMPTS = 64;

/** Tokens in a bucket at `now`, given what it held when last written. Pure, for tests. */
export function refill(policy: RateLimitPolicy, tokens: number, refilledAt: number, now: number): number {
  const perMs = policy.perMinute / 60_000;
  return Math.min(policy.burst, tokens + Math.max(0, now - refilledAt) * perMs);
}

export class RateLimiter {
  constructor(
    private readonly table: Table,
    private readonly clock: Clock,
    private readonly policy: RateLimitPolicy = DEFAULT_RATE_LIMIT,
  ) {}

  async consume(bucketId: string): Promise<RateLimitDecision> {
    const key = { pk: `BUCKET#${bucketId}`, sk: 'BUCKET' };
    const perMs = this.policy.perMinute / 60_000;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await this.table.get<BucketItem>(key);
      const now = this.clock.now();
      const tokens = current
        ? refill(this.policy, current.tokens, current.refilledAt, now)
        : this.policy.burst;
      if (tokens < 1) {
        return this.decision(false, tokens, now, Math.ceil((1 - tokens) / perMs / 1000));
      }
      const next: BucketItem = {
        ...key,
        tokens: tokens - 1,
        refilledAt: now,
        version: (current?.version ?? 0) + 1,
        ttl: Math.ceil((now + (this.policy.burst - tokens + 1) / perMs) / 1000) + 60,
      };
      try {
        await this.table.put(
          next,
          current ? { attr: 'version', op: '=', value: current.version } : { itemExists: false },
        );
        return this.decision(true, tokens - 1, now, 0);
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        // Another request took a token first: read again, after a short random pause.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * Math.min(attempt + 1, 8)));
      }
    }
    // Contention this heavy on one key means it is far over its rate: refusing is the safe answer.
    return this.decision(false, 0, this.clock.now(), 1);
  }

  private decision(allowed: boolean, tokens: number, now: number, retryAfter: number): RateLimitDecision {
    const perMs = this.policy.perMinute / 60_000;
    return {
      allowed,
      limit: this.policy.burst,
      remaining: Math.max(0, Math.floor(tokens)),
      resetAt: Math.ceil((now + (this.policy.burst - tokens) / perMs) / 1000),
      retryAfter,
    };
  }
}

export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.resetAt),
  };
}
