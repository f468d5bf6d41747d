// The one error a provider's content API fails with: a status and a reason, never a body or a token.
export class ProviderApiError extends Error {
  constructor(
    readonly operation: string,
    /** undefined: no HTTP answer (network error, timeout). */
    readonly status: number | undefined,
    readonly retryAfterSeconds?: number,
    /** Retry-After as an HTTP date (epoch ms). */
    readonly retryAt?: number,
    readonly providerError?: string,
    /** The provider said "slow down" in its own words (Google's 403 userRateLimitExceeded). */
    readonly throttled = false,
  ) {
    super(
      `provider ${operation} failed${status ? ` with HTTP ${status}` : ' (no answer)'}${providerError ? ` (${providerError})` : ''}`,
    );
    this.name = 'ProviderApiError';
  }
}
