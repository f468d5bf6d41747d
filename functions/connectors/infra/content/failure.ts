// What a provider's failed answer means: its status, its own short reason (from the error shapes
// providers answer in, or the client's readError), its Retry-After, and whether it asks us to slow down.
// Loaded by the transport on the first failure only (it builds the ProviderApiError).

/**
 * What a provider's error body means, when its status alone does not say it (Dropbox answers a missing
 * scope with 401 and a missing path with 409): the status to treat it as, a short code, a Retry-After.
 */
export interface ErrorReading {
  status?: number;
  providerError?: string;
  retryAfterSeconds?: number;
}

/** An error answer is read this far for its reason; past it, the status says enough. */
const MAX_ERROR_BYTES = 64 * 1024;

const REASON = /^[\w.-]{1,64}$/;

/**
 * The provider's own error reason, from the shapes providers answer in: OAuth's `{"error": code}`,
 * Google's `{"error":{"errors":[{"reason"}]}}`, Graph's `{"error":{"code"}}`, Dropbox's
 * `{"error":{".tag"}}` (or `{"error":{"reason":{".tag"}}}`). Only a short token, never free text.
 */
export function providerReason(body: unknown): string | undefined {
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error === 'string') return REASON.test(error) ? error : undefined;
  if (!error || typeof error !== 'object') return undefined;
  const e = error as Record<string, unknown>;
  const candidates = [
    (Array.isArray(e.errors) ? (e.errors[0] as Record<string, unknown> | undefined) : undefined)?.reason,
    e.code,
    e['.tag'],
    (e.reason as Record<string, unknown> | undefined)?.['.tag'],
  ];
  return candidates.find((c): c is string => typeof c === 'string' && REASON.test(c));
}

/** The request fields a failure is read with. */
interface FailedRequest {
  operation: string;
  throttleReasons?: readonly string[];
  readError?: (status: number, body: unknown) => ErrorReading;
}

/** What a failed answer says: the status to treat it as, its short reason, whether it means "slow down". */
export interface FailureReading {
  status: number;
  providerError?: string;
  retryAfterSeconds?: number;
  throttled: boolean;
}

/**
 * A non-2xx answer's meaning, its reason read from at most MAX_ERROR_BYTES of its body. Imports
 * nothing, so loading it on the first failure shares no chunk with a function's init.
 */
export async function readFailure(
  request: FailedRequest,
  status: number,
  readText: (limit: number) => Promise<string>,
): Promise<FailureReading> {
  let reading: ErrorReading = {};
  try {
    const body = JSON.parse(await readText(MAX_ERROR_BYTES)) as unknown;
    reading = request.readError ? request.readError(status, body) : { providerError: providerReason(body) };
  } catch {
    // not JSON: the status says enough
  }
  const providerError =
    reading.providerError && REASON.test(reading.providerError) ? reading.providerError : undefined;
  // A dotted reason (Dropbox's `path.too_many_write_operations`) throttles when any part of it does.
  const throttled =
    providerError !== undefined &&
    providerError.split('.').some((part) => (request.throttleReasons ?? []).includes(part));
  return {
    status: reading.status ?? status,
    ...(providerError !== undefined ? { providerError } : {}),
    ...(reading.retryAfterSeconds !== undefined ? { retryAfterSeconds: reading.retryAfterSeconds } : {}),
    throttled,
  };
}
