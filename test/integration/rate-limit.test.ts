// The limiter on DynamoDB Local under concurrency: separate limiter instances (separate Lambdas)
// racing on one key must never admit more than the bucket holds.
import { ManualClock } from '../../functions/platform/clock';
import { RateLimiter } from '../../functions/platform/rate-limit';
import { createAwsTables } from '../support/emulators';

describe('rate limiter on DynamoDB', () => {
  it('admits exactly the burst when 60 requests race on one key', async () => {
    const tables = await createAwsTables('ratelimit');
    const clock = new ManualClock(Date.UTC(2026, 0, 1)); // frozen: no refill during the race
    const policy = { perMinute: 100, burst: 20 };
    const limiters = Array.from({ length: 6 }, () => new RateLimiter(tables.ratelimits, clock, policy));
    const decisions = await Promise.all(
      Array.from({ length: 60 }, (_, i) => limiters[i % limiters.length]!.consume('shared-key')),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(20);
    const remaining = decisions
      .filter((d) => d.allowed)
      .map((d) => d.remaining)
      .sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 20 }, (_, i) => i)); // each token handed out once
    const stored = await tables.ratelimits.get({ pk: 'BUCKET#shared-key', sk: 'BUCKET' });
    expect(stored).toMatchObject({ tokens: 0, version: 20 });
  });
});
