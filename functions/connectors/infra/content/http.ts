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

export interface ApiRequest {
  operation: string;
  url: string;
  token: string;
  method?: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: Readable;
  /** Bytes of `body`, when known (uploads send Content-Length rather than chunks). */
  length?: number;
}

async function failure(operation: string, response: Response): Promise<ProviderApiError> {
  let providerError: string | undefined;
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body.error === 'string' && /^[\w.-]{1,64}$/.test(body.error)) providerError = body.error;
  } catch {
    // not JSON: the status says enough
  }
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  return new ProviderApiError(operation, response.status, retryAfter.seconds, retryAfter.at, providerError);
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
        Authorization: `Bearer ${request.token}`,
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
  if (!response.ok) throw await failure(request.operation, response);
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
