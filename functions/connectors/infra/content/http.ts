// Provider content-API HTTP, shared by the per-provider clients: bearer auth, a deadline for the
// response headers and an idle limit on a streamed body, and failures reduced to a status and a
// Retry-After (never a token or a response body: those may carry secrets or customer data).
import type { TransformCallback } from 'node:stream';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { StreamTooLargeError } from '../../../platform/digest';
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

/**
 * One URL path segment from an id or a name: percent-encoded, and never `.`, `..` or empty, which a
 * URL parser resolves against the path around it (`/folders/x/files/..` is `/folders/x/`), so a value
 * never changes which URL a request goes to. (Encoding the dots does not help: `%2e%2e` is a
 * dot-segment to WHATWG URL parsers too.) A refused id is a 404, as a missing one would be.
 */
export function pathSegment(value: string, operation: string): string {
  if (value === '' || value === '.' || value === '..')
    throw new ProviderApiError(operation, 404, undefined, undefined, 'invalid_path_segment');
  return encodeURIComponent(value);
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
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Provider error reasons that mean throttling whatever the status (the definition's throttleReasons). */
  throttleReasons?: readonly string[];
  /** Statuses that are not failures here (a resumable upload's 308). */
  accept?: readonly number[];
  /** No Authorization header (a pre-authenticated URL: Graph's download, an upload session). */
  anonymous?: boolean;
  headers?: Record<string, string>;
  body?: Readable | Buffer;
  /** Bytes of `body`, when known (uploads send Content-Length rather than chunks). */
  length?: number;
  /** Reads the provider's own error body where its status alone does not say it (else providerReason). */
  readError?: (status: number, body: unknown) => ErrorReading;
  /**
   * Follow a redirect to a pre-signed URL (Clio's download answers 303 to its storage): at most
   * MAX_REDIRECTS hops, GET, never with our Authorization header, never from https down to http.
   */
  followRedirects?: boolean;
}

/**
 * What a provider's error body means, when its status alone does not say it (Dropbox answers a missing
 * scope with 401 and a missing path with 409): the status to treat it as, a short code, a Retry-After.
 */
export interface ErrorReading {
  status?: number;
  providerError?: string;
  retryAfterSeconds?: number;
}

export const MAX_REDIRECTS = 3;

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

async function failure(request: ApiRequest, response: Response): Promise<ProviderApiError> {
  let reading: ErrorReading = {};
  try {
    const body = (await response.json()) as unknown;
    reading = request.readError
      ? request.readError(response.status, body)
      : { providerError: providerReason(body) };
  } catch {
    // not JSON: the status says enough
  }
  const providerError =
    reading.providerError && REASON.test(reading.providerError) ? reading.providerError : undefined;
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  const throttled = providerError !== undefined && (request.throttleReasons ?? []).includes(providerError);
  return new ProviderApiError(
    request.operation,
    reading.status ?? response.status,
    retryAfter.seconds ?? reading.retryAfterSeconds,
    retryAfter.at,
    providerError,
    throttled,
  );
}

/** Where a redirect answer points, if it may be followed without our token; else undefined. */
function redirectTarget(from: string, response: Response): string | undefined {
  if (![301, 302, 303, 307, 308].includes(response.status)) return undefined;
  const location = response.headers.get('location');
  if (!location) return undefined;
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    return undefined;
  }
  const secure = new URL(from).protocol === 'https:';
  if (target.protocol !== 'https:' && (secure || target.protocol !== 'http:')) return undefined;
  return target.toString();
}

/** Sends a request; a non-2xx answer becomes a ProviderApiError. The caller reads (or streams) the body. */
export async function send(request: ApiRequest): Promise<Response> {
  let response = await sendOnce(request);
  let at = request.url;
  for (let hop = 0; request.followRedirects && hop < MAX_REDIRECTS; hop++) {
    const target = redirectTarget(at, response);
    if (!target) break;
    void response.body?.cancel();
    at = target;
    // A pre-signed URL carries its own authorisation: our bearer token must not travel there.
    response = await sendOnce({
      operation: request.operation,
      url: at,
      token: '',
      anonymous: true,
      headers: { Accept: '*/*' },
    });
  }
  if (!response.ok && !request.accept?.includes(response.status)) throw await failure(request, response);
  return response;
}

async function sendOnce(request: ApiRequest): Promise<Response> {
  const controller = new AbortController();
  const deadline = setTimeout(() => controller.abort(), HEADERS_TIMEOUT_MS);
  try {
    return await fetch(request.url, {
      method: request.method ?? 'GET',
      // A 3xx the caller takes as an answer (a resumable upload's 308 Resume Incomplete) must reach it:
      // fetch's 'error' mode fails on every redirect status, Location or not.
      redirect:
        request.followRedirects || request.accept?.some((status) => status >= 300 && status < 400)
          ? 'manual'
          : 'error',
      signal: controller.signal,
      headers: {
        ...(request.anonymous ? {} : { Authorization: `Bearer ${request.token}` }),
        Accept: 'application/json',
        ...(request.length !== undefined ? { 'Content-Length': String(request.length) } : {}),
        ...request.headers,
      },
      ...(Buffer.isBuffer(request.body)
        ? { body: request.body }
        : request.body
          ? { body: Readable.toWeb(request.body) as ReadableStream, duplex: 'half' as const }
          : {}),
    } as RequestInit);
  } catch {
    throw new ProviderApiError(request.operation, undefined);
  } finally {
    clearTimeout(deadline);
  }
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
 * A provider's response body as a Node stream (what `streamBody` returns). `limitTo` makes it fail with
 * StreamTooLargeError at the first byte over a limit, as a ByteLimit piped after it would, without a
 * second stream per file.
 */
export class ProviderBody extends Transform {
  private limit = Infinity;
  private bytes = 0;

  constructor(private readonly onChunk: () => void) {
    super();
  }

  limitTo(maxBytes: number): this {
    this.limit = maxBytes;
    return this;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.onChunk();
    this.bytes += chunk.length;
    if (this.bytes > this.limit) done(new StreamTooLargeError(this.limit));
    else done(null, chunk);
  }
}

/**
 * The response body as a Node stream that fails when the provider goes quiet for IDLE_MS, so a stalled
 * download ends (and is retried) instead of holding a worker until its timeout.
 */
export function streamBody(operation: string, response: Response): Readable {
  if (!response.body) return Readable.from([]);
  const source = Readable.fromWeb(response.body as WebReadableStream);
  // Re-armed by each chunk as it passes (a 'data' listener would start the flow before anyone reads).
  const timer = setTimeout(() => source.destroy(new ProviderApiError(operation, undefined)), IDLE_MS);
  timer.unref();
  const watched = new ProviderBody(() => timer.refresh());
  watched.once('finish', () => clearTimeout(timer)); // everything arrived: quiet from here is fine
  source.once('error', (error) => watched.destroy(error));
  watched.once('close', () => {
    clearTimeout(timer);
    source.destroy(); // a reader that gave up (the vault refused the write) stops the download too
  });
  return source.pipe(watched);
}

/** The body in pieces of exactly `size` bytes, the last one shorter (an upload session's chunks). */
export async function* chunksOf(body: Readable, size: number): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let length = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    let rest = chunk;
    while (length + rest.length >= size) {
      const take = size - length;
      held.push(rest.subarray(0, take));
      yield Buffer.concat(held, size);
      held = [];
      length = 0;
      rest = rest.subarray(take);
    }
    if (rest.length) {
      held.push(rest);
      length += rest.length;
    }
  }
  if (length) yield Buffer.concat(held, length);
}
