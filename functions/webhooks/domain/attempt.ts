// How one delivery attempt came out: the vocabulary of the retry policy and the history.

export const ERROR_KINDS = [
  'blocked_address',
  'invalid_url',
  'dns',
  'connection',
  'tls',
  'timeout',
  'redirect',
  'http_status',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export const ATTEMPT_OUTCOMES = ['delivered', 'retry', 'failed'] as const;

export interface AttemptOutcome {
  kind: (typeof ATTEMPT_OUTCOMES)[number];
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
