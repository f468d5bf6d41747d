// The fetch every call goes through: retries 429 and 5xx answers (and network failures) within a
// bounded budget, waiting what Retry-After asks or a jittered exponential backoff.
import { retryAfterMs } from './errors.js';

export interface RetryOptions {
  /** Retries after the first attempt (default 3; 0 turns retrying off). */
  maxRetries: number;
  /** The most time spent waiting between attempts, all retries together (default 30 s). */
  budgetMs: number;
  /** The first backoff when the service gives no Retry-After (default 500 ms, doubling). */
  baseDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { maxRetries: 3, budgetMs: 30_000, baseDelayMs: 500 };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/**
 * A 429 was refused before any work, so it is always retried. A 5xx or a lost connection may follow
 * work done, so it is retried only where a repeat is harmless: methods that are idempotent, and
 * requests carrying an Idempotency-Key (the service answers a repeat with the first outcome).
 */
function mayRepeat(request: Request): boolean {
  return SAFE_METHODS.has(request.method) || request.headers.has('idempotency-key');
}

export function retryingFetch(
  options: RetryOptions,
  base: (input: Request) => Promise<Response> = (input) => globalThis.fetch(input),
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): (input: Request) => Promise<Response> {
  return async (request) => {
    let waited = 0;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await base(request.clone());
      } catch (error) {
        const wait = backoff(options, attempt);
        if (attempt >= options.maxRetries || !mayRepeat(request) || waited + wait > options.budgetMs)
          throw error;
        waited += wait;
        await sleep(wait);
        continue;
      }
      const retryable = response.status === 429 || (response.status >= 500 && mayRepeat(request));
      if (!retryable || attempt >= options.maxRetries) return response;
      const wait = retryAfterMs(response.headers) || backoff(options, attempt);
      if (waited + wait > options.budgetMs) return response;
      await response.body?.cancel();
      waited += wait;
      await sleep(wait);
    }
  };
}

function backoff(options: RetryOptions, attempt: number): number {
  const ceiling = options.baseDelayMs * 2 ** attempt;
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}
