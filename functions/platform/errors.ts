// Named errors carry their API code and HTTP status; the middy stack maps them to the one error body.
import en from 'zod/v4/locales/en.js';
import * as z from 'zod/mini';
import { lazy } from './lazy';

// zod/mini loads no locale: its issues would all read "Invalid input". English messages are set here,
// in the module every parsing module already imports for its error classes, so they hold before any parse.
z.config(en());

export const ERROR_CODES = [
  'INVALID_REQUEST',
  'AUTH_INVALID',
  'PERMISSION_DENIED',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'GONE',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'HEADERS_TOO_LARGE',
  'RATE_LIMIT_EXCEEDED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidRequestError extends AppError {
  constructor(message: string) {
    super('INVALID_REQUEST', 400, message);
  }
}

/** RFC 6750: a 401 names the scheme it wants. */
export const WWW_AUTHENTICATE = { 'WWW-Authenticate': 'Bearer' } as const;

export class AuthInvalidError extends AppError {
  constructor(message = 'Missing or invalid credentials') {
    super('AUTH_INVALID', 401, message, { ...WWW_AUTHENTICATE });
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor(message = 'Content-Type must be application/json') {
    super('UNSUPPORTED_MEDIA_TYPE', 415, message);
  }
}

export class PermissionDeniedError extends AppError {
  constructor(message = 'The credentials lack the permission this operation needs') {
    super('PERMISSION_DENIED', 403, message);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Resource not found') {
    super('NOT_FOUND', 404, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super('CONFLICT', 409, message);
  }
}

export class GoneError extends AppError {
  constructor(message: string) {
    super('GONE', 410, message);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super('PAYLOAD_TOO_LARGE', 413, message);
  }
}

export class RateLimitExceededError extends AppError {
  constructor(retryAfterSeconds: number, headers: Record<string, string>) {
    super('RATE_LIMIT_EXCEEDED', 429, 'Too many requests; retry after the time in Retry-After', {
      ...headers,
      'Retry-After': String(retryAfterSeconds),
    });
  }
}

/** Something this request depends on cannot answer now (a provider rate limit, an outage): retry later. */
export class ServiceUnavailableError extends AppError {
  constructor(message: string, retryAfterSeconds?: number) {
    super(
      'SERVICE_UNAVAILABLE',
      503,
      message,
      retryAfterSeconds !== undefined
        ? { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) }
        : {},
    );
  }
}

/** A conditional write lost: the item changed or exists. Ports throw it; core decides what it means. */
export class ConditionFailedError extends Error {
  constructor(message = 'Conditional write failed') {
    super(message);
    this.name = 'ConditionFailedError';
  }
}

/** Runs a conditional write: true when it applied, false when its condition did not hold (another writer won). */
export async function won(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}

/** A required configuration value is missing or malformed: fail loudly at first use. */
export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigurationError';
  }
}

/** The one error body of every route (and of the gateway's own responses); the OpenAPI document shows it. */
export const errorBodySchema = /* @__PURE__ */ lazy(() =>
  z
    .object({ error: z.object({ code: z.enum(ERROR_CODES), message: z.string() }) })
    .clone()
    .register(z.globalRegistry, { id: 'Error' }),
);

export type ErrorBody = z.infer<ReturnType<typeof errorBodySchema>>;

export function errorBody(code: ErrorCode, message: string): ErrorBody {
  return { error: { code, message } };
}
