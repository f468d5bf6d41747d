// Provider content-API HTTP, shared by the per-provider clients: bearer auth, a deadline for the
// response headers and an idle limit on a streamed body, and failures reduced to a status and a
// Retry-After (never a token or a response body: those may carry secrets or customer data).
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { parseRetryAfter } from '../oauth-client';

/** Headers must arrive within this; a streamed body may pause at most IDLE_MS between chunks. */
export const HEADERS_TIMEOUT_MS = 15_000;
export const IDLE_MS = 30_000;

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

/** base + path, with the defined query parameters. */
export function apiUrl(
  base: string,
  path: string,
  query: Record<string, string | number | undefined>,
): string {
  const url = new URL(`${base.replace(/\/$/, '')}${path}`);
  for (const [name, value] of Object.entries(query))
    if (value !== undefined) url.searchParams.set(name, String(value));
  return url.toString();
}

export interface ApiRequest {
  operation: string;
  url: string;
  token: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH';
  /** Provider error reasons that mean throttling whatever the status (the definition's throttleReasons). */
  throttleReasons?: readonly string[];
  /** Statuses that are not failures here (a resumable upload's 308). */
  accept?: readonly number[];
  /** No Authorization header (a pre-authenticated URL: Graph's download, an upload session). */
  anonymous?: boolean;
  headers?: Record<string, string>;
  body?: Readable;
  /** Bytes of `body`, when known (uploads send Content-Length rather than chunks). */
  length?: number;
}

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

async function failure(operation: string, response: Response, throttleReasons: readonly string[] = []) {
  let providerError: string | undefined;
  try {
    providerError = providerReason(await response.json());
  } catch {
    // not JSON: the status says enough
  }
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  const throttled = providerError !== undefined && throttleReasons.includes(providerError);
  return new ProviderApiError(
    operation,
    response.status,
    retryAfter.seconds,
    retryAfter.at,
    providerError,
    throttled,
  );
}

/** Sends a request; a non-2xx answer becomes a ProviderApiError. The caller reads (or streams) the body. */
export async function send(request: ApiRequest): Promise<Response> {
  const controller = new AbortController();
  const deadline = setTimeout(() => controller.abort(), HEADERS_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method ?? 'GET',
      redirect: 'error',
      signal: controller.signal,
      headers: {
        ...(request.anonymous ? {} : { Authorization: `Bearer ${request.token}` }),
        Accept: 'application/json',
        ...(request.length !== undefined ? { 'Content-Length': String(request.length) } : {}),
        ...request.headers,
      },
      ...(request.body
        ? { body: Readable.toWeb(request.body) as ReadableStream, duplex: 'half' as const }
        : {}),
    } as RequestInit);
  } catch {
    throw new ProviderApiError(request.operation, undefined);
  } finally {
    clearTimeout(deadline);
  }
  if (!response.ok && !request.accept?.includes(response.status))
    throw await failure(request.operation, response, request.throttleReasons);
  return response;
}

export async function sendJson<T>(request: ApiRequest): Promise<T> {
  const response = await send(request);
  try {
    return (await response.json()) as T;
  } catch {
    throw new ProviderApiError(request.operation, response.status, undefined, undefined, 'invalid_json');
  }
}

/**
 * The response body as a Node stream that fails when the provider goes quiet for IDLE_MS, so a stalled
 * download ends (and is retried) instead of holding a worker until its timeout.
 */
export function streamBody(operation: string, response: Response): Readable {
  if (!response.body) return Readable.from([]);
  const source = Readable.fromWeb(response.body as WebReadableStream);
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => source.destroy(new ProviderApiError(operation, undefined)), IDLE_MS);
    timer.unref();
  };
  // Re-armed by each chunk as it passes (a 'data' listener would start the flow before anyone reads).
  const watched = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      arm();
      done(null, chunk);
    },
    flush(done) {
      clearTimeout(timer);
      done();
    },
  });
  arm();
  source.once('error', (error) => watched.destroy(error));
  watched.once('close', () => {
    clearTimeout(timer);
    source.destroy(); // a reader that gave up (the vault refused the write) stops the download too
  });
  return source.pipe(watched);
}
