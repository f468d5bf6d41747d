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
  /** The headers sent, each signature cut to its version prefix (`v1,…`): never a whole signature. */
  requestHeaders?: Record<string, string>;
  /** The receiver's response headers (the first 50, values cut at 500 characters), when it answered. */
  responseHeaders?: Record<string, string>;
}

// Both views are built by assignment: Object.fromEntries makes a dictionary-mode object, and the
// attempt record holding it is copied and serialised on every write.

/** The headers as the history shows them: a signature keeps its scheme prefix only. */
export function shownRequestHeaders(headers: Record<string, string | number>): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const name in headers) {
    const key = name.toLowerCase();
    const value = String(headers[name]);
    shown[key] = key === 'webhook-signature' ? value.replace(/,[^ ]*/g, ',…') : value;
  }
  return shown;
}

/** A receiver's response headers, bounded: the first 50, each value at most 500 characters. */
export function shownResponseHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const shown: Record<string, string> = {};
  let count = 0;
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    if (count++ === 50) break;
    shown[name] = (Array.isArray(value) ? value.join(', ') : value).slice(0, 500);
  }
  return shown;
}
