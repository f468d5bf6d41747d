// Provider content-API HTTP, shared by the per-provider clients: our access token (in the header the
// provider takes it in, ../access-token.ts) to the API's own origins only, every other URL the provider hands back (redirects, pre-signed downloads and uploads, upload
// sessions) sent without credentials to vetted addresses only, a deadline for the response headers, an
// idle limit on a streamed body and a size limit on a read one, and failures reduced to a status and a
// Retry-After (never a token or a response body: those may carry secrets or customer data).
import type { TransformCallback } from 'node:stream';
import { Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { systemClock } from '../../../platform/clock';
import { loopbackAllowed } from '../../../platform/config';
import { StreamTooLargeError } from '../../../platform/digest';
import type { AddressPolicy } from '../../../platform/pinned-connect';
import type { HostResolver } from '../../../platform/resolve';
import type { UrlRefusal } from '../../domain/sync-policy';
import type { TokenHeader } from '../access-token';
import { accessTokenHeaders, withoutAccessToken } from '../access-token';
import { parseRetryAfter } from '../retry-after';
import { ProviderApiError } from './provider-error';

import type { ErrorReading } from './failure';
export type { ErrorReading } from './failure';
export { ProviderApiError } from './provider-error';

/** Headers must arrive within this; a streamed body may pause at most IDLE_MS between chunks. */
export const HEADERS_TIMEOUT_MS = 15_000;
export const IDLE_MS = 30_000;
/**
 * A JSON answer (a listing page, an item's metadata) larger than this is refused rather than held in
 * memory: the largest page any client asks for is well under 1 MiB.
 */
export const MAX_JSON_BYTES = 8 * 1024 * 1024;
/** A JSON answer must have arrived whole within this, however it trickles. */
export const JSON_BODY_MS = 60_000;

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
  /** The access token: sent to the API's own origins only, in the transport's accessTokenHeader. */
  token: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Provider error reasons that mean throttling whatever the status (the definition's throttleReasons). */
  throttleReasons?: readonly string[];
  /** Statuses that are not failures here (a resumable upload's 308). */
  accept?: readonly number[];
  /**
   * No access token even at the API's origin (a pre-authenticated URL: Graph's upload session). A URL
   * at any other origin never gets one, whatever this says.
   */
  anonymous?: boolean;
  headers?: Record<string, string>;
  body?: Readable | Buffer;
  /** Bytes of `body`, when known (uploads send Content-Length rather than chunks). */
  length?: number;
  /** Reads the provider's own error body where its status alone does not say it (else providerReason). */
  readError?: (status: number, body: unknown) => ErrorReading;
  /**
   * Follow a redirect to a pre-signed URL (Clio's download answers 303 to its storage): at most
   * MAX_REDIRECTS hops, GET, never with our access token, vetted as any foreign URL is.
   */
  followRedirects?: boolean;
}

export const MAX_REDIRECTS = 3;

/** Where a redirect answer points, if it has a Location at all. */
function redirectTarget(from: string, response: Response): string | undefined {
  if (![301, 302, 303, 307, 308].includes(response.status)) return undefined;
  const location = response.headers.get('location');
  if (!location) return undefined;
  try {
    return new URL(location, from).toString();
  } catch {
    return undefined;
  }
}

/** A URL the provider handed back that we do not send to (its reason says which rule refused it). */
export function refusedUrl(operation: string, status: number, reason: UrlRefusal): ProviderApiError {
  return new ProviderApiError(operation, status, undefined, undefined, reason);
}

/** What every client is built from: its definition's fields and its configuration. */
export interface ClientSettings {
  /** The API's root (PROVIDER_<ID>_API_URL). */
  apiUrl: string;
  /** The definition's throttleReasons. */
  throttleReasons?: readonly string[];
  /** The definition's rateLimitHeaders: where the provider says how much of its limit is left. */
  rateLimitHeaders?: RateLimitHeaders;
  /** The definition's accessTokenHeader: the header the API takes our token in (Authorization: Bearer when absent). */
  accessTokenHeader?: TokenHeader;
  /** A setting of the provider's own by name (Dropbox's CONTENT_URL), its default when not set. */
  setting?(name: string): string;
  /** Our client id at the provider, read when needed (Graph names the app that wrote a file). */
  ownClientId?(): string | undefined;
  /** Where URLs outside the API may go; the stage's guard when not given. */
  guard?: UrlGuard;
  /**
   * The API's host came from the connection (a customer's own server), not from configuration: its
   * requests, bearer and all, connect through the address guard as any provider-supplied URL does.
   */
  guardApi?: boolean;
}

/** Where a client's requests may go: the guard for every URL outside the API's own origins. */
export interface UrlGuard extends AddressPolicy {
  /** DNS for foreign hosts (tests); the system's resolver otherwise. */
  resolve?: HostResolver;
}

/** The stage's guard: loopback addresses pass outside production only, as for webhook URLs. */
export const stageGuard = (): UrlGuard => ({ allowLoopback: loopbackAllowed() });

/** Response headers a provider reports its rate limit in (the definition's rateLimitHeaders). */
export interface RateLimitHeaders {
  /** Requests left in the current window. */
  remaining?: string;
  /** When the window resets: epoch seconds, or seconds from now when smaller than a day's worth. */
  reset?: string;
  /** How long to wait after a refusal (Retry-After when not given). */
  retryAfter?: string;
}

/**
 * Requests kept in hand before a provider's limit: at this many left, the client waits for the window
 * to reset (or, for a longer wait, stops as throttled) instead of spending the last ones into a 429.
 */
export const RATE_LIMIT_RESERVE = 1;
/** A wait for the window this short is slept through; a longer one ends the call as throttled. */
export const RATE_LIMIT_SLEEP_MAX_MS = 5_000;

export interface TransportOptions {
  /**
   * The API's own origins (API_URL; Dropbox's CONTENT_URL too): the only ones our bearer token goes
   * to, and the only ones reached without the address guard (configuration, not the provider, names them).
   */
  apiUrls: readonly string[];
  /** Provider error reasons that mean throttling whatever the status (the definition's throttleReasons). */
  throttleReasons?: readonly string[];
  /** Read from every API answer: the client slows down before the provider answers 429. */
  rateLimitHeaders?: RateLimitHeaders;
  /** The header the API takes our access token in (ClientSettings.accessTokenHeader). */
  accessTokenHeader?: TokenHeader;
  guard?: UrlGuard;
  /** Requests to the API's own origins are vetted by the guard too (ClientSettings.guardApi). */
  guardApi?: boolean;
  /**
   * Epoch ms (a clock port's now; the system clock when not given: what it is compared with, a
   * provider's rate-limit reset and Date header, is the provider's own wall clock); a sleep (tests
   * pass their own).
   */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** A client's transport, driven by its definition's fields: `more` are further API origins (Dropbox's content host). */
export const transportFor = (settings: ClientSettings, ...more: string[]): Transport =>
  new Transport({
    apiUrls: [settings.apiUrl, ...more],
    throttleReasons: settings.throttleReasons,
    rateLimitHeaders: settings.rateLimitHeaders,
    accessTokenHeader: settings.accessTokenHeader,
    guard: settings.guard,
    guardApi: settings.guardApi,
  });

/**
 * One provider's HTTP: every request of its client goes through here. A URL at one of the API's origins
 * is sent as asked (with the access token unless anonymous); any other URL (one the provider handed back)
 * goes without credentials, must be https when the API is, and connects only to addresses the guard
 * passed, pinned for the connection (checked after DNS, so a name cannot rebind between check and use).
 */
export class Transport {
  private readonly origins: ReadonlySet<string>;
  private readonly secure: boolean;
  private readonly guard: UrlGuard;
  private readonly guardApi: boolean;
  readonly throttleReasons: readonly string[];
  private readonly rateLimit: RateLimitHeaders;
  private readonly tokenHeader: TokenHeader;
  /** The time the provider's own clock is read against (its Date header, its rate-limit reset). */
  readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  /** When the provider's window resets, once an answer said the limit is all but spent (epoch ms). */
  private spentUntil = 0;

  constructor(options: TransportOptions) {
    const urls = options.apiUrls.map((url) => new URL(url));
    this.origins = new Set(urls.map((url) => url.origin));
    this.secure = urls.some((url) => url.protocol === 'https:');
    this.guard = options.guard ?? stageGuard();
    this.guardApi = options.guardApi ?? false;
    this.throttleReasons = options.throttleReasons ?? [];
    this.rateLimit = options.rateLimitHeaders ?? {};
    this.tokenHeader = options.accessTokenHeader;
    this.now = options.now ?? systemClock.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /**
   * Before a request to the API: when the last answer left the limit at its reserve, wait for the
   * window (a short wait) or end the call as throttled until then without asking (a long one), as a
   * 429 would have, but without spending the provider's patience.
   */
  private async pace(operation: string): Promise<void> {
    const wait = this.spentUntil - this.now();
    if (wait <= 0) return;
    if (wait > RATE_LIMIT_SLEEP_MAX_MS)
      throw new ProviderApiError(
        operation,
        429,
        Math.ceil(wait / 1000),
        this.spentUntil,
        'rate_limit_reserve',
        true,
      );
    await this.sleep(wait);
  }

  /** Reads the rate-limit headers of an API answer (Clio's X-RateLimit-Remaining and -Reset). */
  private observe(response: Response): void {
    if (!this.rateLimit.remaining) return;
    const remaining = Number(response.headers.get(this.rateLimit.remaining) ?? NaN);
    if (!Number.isFinite(remaining) || remaining > RATE_LIMIT_RESERVE) return;
    const reset = Number(response.headers.get(this.rateLimit.reset ?? '') ?? NaN);
    const now = this.now();
    // Epoch seconds, or (a small number) seconds from now; without one, a minute (the usual window).
    const until = !Number.isFinite(reset) ? now + 60_000 : reset > 86_400 ? reset * 1000 : now + reset * 1000;
    this.spentUntil = Math.max(this.spentUntil, until);
  }

  /** Sends a request; a non-2xx answer becomes a ProviderApiError. The caller reads (or streams) the body. */
  async send(request: ApiRequest): Promise<Response> {
    const asked = { throttleReasons: this.throttleReasons, ...request };
    let response = await this.sendOnce(asked, 0);
    let at = asked.url;
    for (let hop = 0; asked.followRedirects && hop < MAX_REDIRECTS; hop++) {
      const target = redirectTarget(at, response);
      if (!target) break;
      void response.body?.cancel();
      const from = response.status;
      at = target;
      // A pre-signed URL carries its own authorisation: our access token must not travel there, even
      // when the redirect points back at the API's origin.
      response = await this.sendOnce(
        { operation: asked.operation, url: at, token: '', anonymous: true, headers: { Accept: '*/*' } },
        from,
      );
    }
    if (!response.ok && !asked.accept?.includes(response.status)) {
      // Read on the first failure only: what error bodies mean stays out of a function's init.
      const { readFailure } = await import('./failure');
      const reading = await readFailure(asked, response.status, (limit) =>
        readText(asked.operation, response, limit),
      );
      const retryAfter = parseRetryAfter(response.headers.get(this.rateLimit.retryAfter ?? 'retry-after'));
      throw new ProviderApiError(
        asked.operation,
        reading.status,
        retryAfter.seconds ?? reading.retryAfterSeconds,
        retryAfter.at,
        reading.providerError,
        reading.throttled,
      );
    }
    return response;
  }

  /** The answer's JSON, read within MAX_JSON_BYTES and JSON_BODY_MS. */
  async json<T>(request: ApiRequest): Promise<T> {
    return readJson<T>(request.operation, await this.send(request));
  }

  /** `handedBy`: the status of the answer that named this URL (0: the client chose it). */
  private async sendOnce(request: ApiRequest, handedBy: number): Promise<Response> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw refusedUrl(request.operation, handedBy || 200, 'invalid_url');
    }
    if (this.origins.has(url.origin)) {
      await this.pace(request.operation);
      const response = this.guardApi
        ? await pinnedOnce(request, url, this.guard, handedBy || 200, this.tokenHeader, true)
        : await fetchOnce(request, this.tokenHeader);
      this.observe(response);
      return response;
    }
    if (url.protocol !== 'https:' && (this.secure || url.protocol !== 'http:'))
      throw refusedUrl(request.operation, handedBy || 200, 'insecure_url');
    if (url.username || url.password) throw refusedUrl(request.operation, handedBy || 200, 'invalid_url');
    return pinnedOnce({ ...request, anonymous: true }, url, this.guard, handedBy || 200, this.tokenHeader);
  }
}

async function fetchOnce(request: ApiRequest, tokenHeader: TokenHeader): Promise<Response> {
  const controller = new AbortController();
  const deadline = setTimeout(() => controller.abort(), HEADERS_TIMEOUT_MS);
  try {
    return await fetch(request.url, {
      method: request.method ?? 'GET',
      // Never followed by fetch: a redirect the client asked to follow is vetted hop by hop (send()),
      // one it takes as an answer (a resumable upload's 308) reaches it, and any other is a failure with
      // its status (the provider refused the request as asked), not a network error retried in vain.
      redirect: 'manual',
      signal: controller.signal,
      headers: headersOf(request, tokenHeader),
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

function headersOf(request: ApiRequest, tokenHeader: TokenHeader): Record<string, string> {
  return {
    ...(request.anonymous ? {} : accessTokenHeaders(tokenHeader, request.token)),
    Accept: 'application/json',
    ...(request.length !== undefined ? { 'Content-Length': String(request.length) } : {}),
    ...request.headers,
  };
}

/**
 * One request to a URL outside the API's origins (./foreign-request.ts, loaded on the first one only:
 * the address ranges and the pinned connection stay out of a route's init): no credentials (neither
 * the provider's token header nor Authorization, whatever the request's own headers say), the host
 * vetted, the connection pinned, no redirect followed there (send() vets each hop).
 */
async function pinnedOnce(
  request: ApiRequest,
  url: URL,
  guard: UrlGuard,
  handedBy: number,
  tokenHeader: TokenHeader,
  /** The API's own origin on a customer's server: our token goes, vetted and pinned like the rest. */
  ownOrigin = false,
): Promise<Response> {
  const foreign = await import('./foreign-request');
  const asked = headersOf(request, tokenHeader);
  const headers = ownOrigin ? asked : withoutAccessToken(asked, tokenHeader);
  try {
    return await foreign.foreignRequest(url, {
      method: request.method ?? 'GET',
      headers,
      body: request.body,
      guard,
      timeoutMs: HEADERS_TIMEOUT_MS,
      keepAlive: ownOrigin,
    });
  } catch (error) {
    if (error instanceof foreign.BlockedAddressError)
      throw refusedUrl(request.operation, handedBy, 'blocked_address');
    throw new ProviderApiError(request.operation, undefined); // no answer (DNS, connection, time): later
  }
}

/**
 * A JSON answer, read whole within MAX_JSON_BYTES and JSON_BODY_MS: an oversized answer is refused at
 * the first byte over (the rest is not read), one that never ends fails when its time is up.
 */
export async function readJson<T>(operation: string, response: Response): Promise<T> {
  const text = await readText(operation, response, MAX_JSON_BYTES);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ProviderApiError(operation, response.status, undefined, undefined, 'invalid_json');
  }
}

async function readText(operation: string, response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProviderApiError(operation, undefined)), JSON_BODY_MS);
  });
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), timeUp]);
      if (done) break;
      size += value.length;
      if (size > limit)
        throw new ProviderApiError(operation, response.status, undefined, undefined, 'response_too_large');
      chunks.push(value);
    }
  } catch (error) {
    void reader.cancel().catch(() => undefined);
    if (error instanceof ProviderApiError) throw error;
    throw new ProviderApiError(operation, undefined);
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** An answer whose body we do not need (a 308's, a session start's): not read, the connection let go. */
export async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
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
