// What one delivery attempt sends and how it came out: the vocabulary of the retry policy and the history.

export interface DeliveryEvent {
  id: string;
  type: string;
  /** ISO 8601 UTC with milliseconds. */
  occurred_at: string;
  data: Record<string, unknown>;
}

export type ErrorKind =
  'blocked_address' | 'invalid_url' | 'dns' | 'connection' | 'tls' | 'timeout' | 'redirect' | 'http_status';

export interface AttemptOutcome {
  kind: 'delivered' | 'retry' | 'failed';
  statusCode?: number;
  errorKind?: ErrorKind;
  /** What went wrong, for the delivery history (never a secret). */
  errorMessage?: string;
  /** Seconds the receiver asked us to wait (Retry-After), when it did. */
  retryAfterSeconds?: number;
  latencyMs: number;
  /** The first 16 KiB of the response body, as text. */
  responseBody: string;
}
