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

/**
 * What a provider's error body means, when its status alone does not say it (Dropbox answers a missing
 * scope with 401 and a missing path with 409): the status to treat it as, a short code, a Retry-After.
 */
export interface ErrorReading {
  status?: number;
  providerError?: string;
  retryAfterSeconds?: number;
}

export interface ApiRequest {
  operation: string;
  url: string;
  /** Bearer token; undefined for a pre-authorised URL (a signed storage URL takes no Authorization). */
  token: string | undefined;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH';
  headers?: Record<string, string>;
  body?: Readable | Buffer;
  /** Bytes of `body`, when known (uploads send Content-Length rather than chunks). */
  length?: number;
  /** Reads the provider's own error body (else `{"error": "<code>"}` is looked for). */
  readError?: (status: number, body: unknown) => ErrorReading;
  /**
   * Follow a redirect to a pre-signed URL (Clio's download answers 303 to its storage): at most
   * MAX_REDIRECTS hops, GET, never with our Authorization header, never from https down to http.
   */
  followRedirects?: boolean;
}

export const MAX_REDIRECTS = 3;

const SAFE_CODE = /^[\w.-]{1,64}$/;

async function failure(request: ApiRequest, response: Response): Promise<ProviderApiError> {
  let reading: ErrorReading = {};
  try {
    const body = (await response.json()) as unknown;
    if (request.readError) reading = request.readError(response.status, body);
    else {
      const code = (body as { error?: unknown } | null)?.error;
      if (typeof code === 'string') reading = { providerError: code };
    }
  } catch {
    // not JSON: the status says enough
  }
  const providerError =
    reading.providerError && SAFE_CODE.test(reading.providerError) ? reading.providerError : undefined;
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  return new ProviderApiError(
    request.operation,
    reading.status ?? response.status,
    retryAfter.seconds ?? reading.retryAfterSeconds,
    retryAfter.at,
    providerError,
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
      token: undefined,
      headers: { Accept: '*/*' },
    });
  }
  if (!response.ok) throw await failure(request, response);
  return response;
}

async function sendOnce(request: ApiRequest): Promise<Response> {
  const controller = new AbortController();
  const deadline = setTimeout(() => controller.abort(), HEADERS_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method ?? 'GET',
      redirect: request.followRedirects || request.token === undefined ? 'manual' : 'error',
      signal: controller.signal,
      headers: {
        ...(request.token !== undefined ? { Authorization: `Bearer ${request.token}` } : {}),
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
