// The provider transport's pacing: a provider that reports its rate limit (Clio's X-RateLimit-Remaining
// and -Reset) is not asked again once the limit is at its reserve: a short wait is slept through, a long
// one ends the call as throttled until the window resets, before the provider answers 429.
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ProviderApiError,
  RATE_LIMIT_SLEEP_MAX_MS,
  Transport,
} from '../../functions/connectors/infra/content/http';

let server: Server;
let base = '';
let remaining = 10;
let resetAt = 0;
let requests = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    requests++;
    remaining--;
    response.writeHead(remaining < 0 ? 429 : 200, {
      'Content-Type': 'application/json',
      'X-RateLimit-Remaining': String(Math.max(0, remaining)),
      'X-RateLimit-Reset': String(resetAt),
    });
    response.end('{"data":[]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function transport(now: { ms: number }, slept: number[]) {
  return new Transport({
    apiUrls: [base],
    rateLimitHeaders: { remaining: 'X-RateLimit-Remaining', reset: 'X-RateLimit-Reset' },
    now: () => now.ms,
    sleep: async (ms) => {
      slept.push(ms);
      now.ms += ms;
      remaining = 10; // the window reset while we waited
    },
  });
}

const call = (t: Transport) =>
  t.json({ operation: 'list documents', token: 'tok', url: `${base}/documents` });

describe('provider transport pacing', () => {
  beforeEach(() => {
    requests = 0;
  });

  it('waits for a window about to reset instead of spending the last request into a 429', async () => {
    const now = { ms: 1_800_000_000_000 };
    const slept: number[] = [];
    remaining = 3;
    resetAt = now.ms / 1000 + 2; // two seconds on
    const t = transport(now, slept);
    for (let i = 0; i < 5; i++) await call(t);
    expect(slept).toEqual([2_000]);
    expect(requests).toBe(5); // none of them answered 429
  });

  it('ends the call as throttled until a far reset, without asking the provider', async () => {
    const now = { ms: 1_800_000_000_000 };
    const slept: number[] = [];
    remaining = 2;
    resetAt = now.ms / 1000 + 45;
    const t = transport(now, slept);
    await call(t); // leaves 1: the reserve
    const error = (await call(t).catch((e: unknown) => e)) as ProviderApiError;
    expect(error).toBeInstanceOf(ProviderApiError);
    expect(error).toMatchObject({ status: 429, throttled: true, retryAfterSeconds: 45 });
    expect(45_000).toBeGreaterThan(RATE_LIMIT_SLEEP_MAX_MS);
    expect(requests).toBe(1);
    expect(slept).toEqual([]);
  });

  it('does not pace a provider that reports no limit', async () => {
    remaining = 1;
    const t = new Transport({ apiUrls: [base] });
    await call(t);
    const answer = await call(t).catch((e: unknown) => e);
    // The provider itself answers 429 here: nothing read its headers.
    expect(answer).toMatchObject({ status: 429 });
    expect(requests).toBe(2);
  });
});
