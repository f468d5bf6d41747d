import { MemoryTable } from '../../functions/adapters/local/memory-table';
import { ManualClock } from '../../functions/platform/clock';
import { RateLimiter, rateLimitHeaders, refill } from '../../functions/platform/rate-limit';

const T0 = Date.UTC(2026, 0, 1);

describe('token bucket', () => {
  it('admits a burst of 200, then refuses with Retry-After until a token refills', async () => {
    const clock = new ManualClock(T0);
    const limiter = new RateLimiter(new MemoryTable('rl'), clock);
    const first = await limiter.consume('k');
    expect(first).toMatchObject({ allowed: true, limit: 200, remaining: 199 });
    for (let i = 1; i < 200; i++) expect((await limiter.consume('k')).allowed).toBe(true);
    const refused = await limiter.consume('k');
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfter: 1 });
    expect(refused.resetAt).toBe(Math.ceil((T0 + 120_000) / 1000)); // empty -> full takes 2 minutes at 100/min
    clock.advance(600); // 100/min = one token every 600 ms
    expect((await limiter.consume('k')).allowed).toBe(true);
    expect((await limiter.consume('k')).allowed).toBe(false);
  });

  it('sustains 100 requests a minute once the burst is spent', async () => {
    const clock = new ManualClock(T0);
    const limiter = new RateLimiter(new MemoryTable('rl'), clock);
    for (let i = 0; i < 200; i++) await limiter.consume('k');
    let admitted = 0;
    for (let second = 0; second < 60; second++) {
      clock.advance(1000);
      for (let i = 0; i < 5; i++) if ((await limiter.consume('k')).allowed) admitted++;
    }
    expect(admitted).toBe(100);
  });

  it('keeps one bucket per key', async () => {
    const limiter = new RateLimiter(new MemoryTable('rl'), new ManualClock(T0));
    for (let i = 0; i < 200; i++) await limiter.consume('a');
    expect((await limiter.consume('a')).allowed).toBe(false);
    expect((await limiter.consume('b')).remaining).toBe(199);
  });

  it('refills linearly and never beyond the burst', () => {
    const policy = { perMinute: 100, burst: 200 };
    expect(refill(policy, 0, T0, T0 + 30_000)).toBeCloseTo(50);
    expect(refill(policy, 150, T0, T0 + 3_600_000)).toBe(200);
    expect(refill(policy, 10, T0, T0 - 5_000)).toBe(10); // a clock step backwards adds nothing
  });

  it('renders the X-RateLimit headers', () => {
    expect(
      rateLimitHeaders({ allowed: true, limit: 200, remaining: 7, resetAt: 1_800_000_000, retryAfter: 0 }),
    ).toEqual({
      'X-RateLimit-Limit': '200',
      'X-RateLimit-Remaining': '7',
      'X-RateLimit-Reset': '1800000000',
    });
  });
});
