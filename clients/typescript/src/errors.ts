// Errors a call can throw: one class per kind of answer, each carrying the service's error body
// ({"error":{"code","message"}}), the status and the request id to quote to support.

/** The body every error answer of the service carries. */
export interface ErrorBody {
  error: { code: string; message: string };
}

export class ApiError extends Error {
  /** The service's error code (`NOT_FOUND`, `CONFLICT`, ...); `UNKNOWN` when the body was not the service's. */
  readonly code: string;

  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly requestId: string | undefined,
  ) {
    super(`${status} ${body.error.code}: ${body.error.message}`);
    this.name = new.target.name;
    this.code = body.error.code;
  }
}

/** 400 or 422: the request was malformed or failed validation. */
export class ValidationError extends ApiError {}
/** 401: the API key is missing or invalid. */
export class AuthenticationError extends ApiError {}
/** 403: the key lacks the permission the operation needs. */
export class PermissionDeniedError extends ApiError {}
/** 404: no such resource (or not this organization's). */
export class NotFoundError extends ApiError {}
/** 409: the resource's state refuses the operation, or an Idempotency-Key was reused for another request. */
export class ConflictError extends ApiError {}
/** 410: the resource existed but is gone (an expired connect link). */
export class GoneError extends ApiError {}
/** 429: the key's rate limit; the client already retried within its budget. */
export class RateLimitError extends ApiError {
  constructor(
    status: number,
    body: ErrorBody,
    requestId: string | undefined,
    /** Seconds the service asked to wait (Retry-After). */
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(status, body, requestId);
  }
}
/** 5xx: the service failed or is unavailable; the client already retried within its budget. */
export class ServerError extends ApiError {}

function isErrorBody(value: unknown): value is ErrorBody {
  const error = (value as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string';
}

/** The error for a non-2xx answer; `parsed` is its body as openapi-fetch read it (JSON or text). */
export function errorFor(response: Response, parsed: unknown): ApiError {
  const body: ErrorBody = isErrorBody(parsed)
    ? parsed
    : { error: { code: 'UNKNOWN', message: `HTTP ${response.status}` } };
  const requestId = response.headers.get('x-request-id') ?? undefined;
  const status = response.status;
  if (status === 429) {
    return new RateLimitError(status, body, requestId, retryAfterMs(response.headers) / 1000 || undefined);
  }
  const kind =
    status === 400 || status === 422
      ? ValidationError
      : status === 401
        ? AuthenticationError
        : status === 403
          ? PermissionDeniedError
          : status === 404
            ? NotFoundError
            : status === 409
              ? ConflictError
              : status === 410
                ? GoneError
                : status >= 500
                  ? ServerError
                  : ApiError;
  return new kind(status, body, requestId);
}

/** Retry-After (seconds or an HTTP date) in milliseconds; 0 when absent or unreadable. */
export function retryAfterMs(headers: Headers, now = Date.now()): number {
  const value = headers.get('retry-after');
  if (!value) return 0;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? 0 : Math.max(0, date - now);
}
