// How one delivery attempt came out: the vocabulary of the retry policy and the history.

export type ErrorKind =
  'blocked_address' | 'invalid_url' | 'dns' | 'connection' | 'tls' | 'timeout' | 'redirect' | 'http_status';

export interface AttemptOutcome {
  kind: 'delivered' | 'retry' | 'failed';
  statusCode?: number;
  errorKind?: ErrorKind;
  /** What went wrong, for the delivery history (never a secret). */
  errorMessage?: string;
  /** Seconds the receiver asked us to wait (Retry-After on 429 or 503), when it did. */
  retryAfterSeconds?: number;
  latencyMs: number;
  /** The first 16 KiB of the response body, as text. */
  responseBody: string;
}
