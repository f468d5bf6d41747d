// One signed delivery attempt: POST the receiver body with the Standard Webhooks headers, to an address
// vetted for this attempt (SSRF guard) over a pooled keep-alive connection, without following redirects,
// within a timeout, and classify the result the way the spec does: 2xx delivered; 408, 429, 5xx, network
// error, timeout retried; else failed.
import type { LookupAddress } from 'node:dns';
import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { AttemptOutcome, ErrorKind } from '../domain/attempt';
import { shownRequestHeaders, shownResponseHeaders } from '../domain/attempt';
import { webhookHeaders } from '../domain/signing';

export type { AttemptOutcome, ErrorKind } from '../domain/attempt';
import type { Clock } from '../../platform/clock';
import { wallTime } from '../../platform/clock';
import { addressAllowed, bareAddress } from '../../platform/addresses';
import { BlockedAddressError, pinnedLookup, vetHost as vetPlatformHost } from '../../platform/pinned-connect';
import type { DeliveryPool, PinnedRequest } from './pool';
import { pinOf, sharedPool } from './pool';

export const ATTEMPT_TIMEOUT_MS = 15_000;
export const RESPONSE_BODY_LIMIT = 16 * 1024;
const USER_AGENT = 'ConnectorEventService-Webhooks/1.0';
/** A kept-alive socket the receiver closed meanwhile fails at once: try again on a fresh one, this often. */
const STALE_SOCKET_RETRIES = 2;
/** Retry-After is honoured on these statuses only (as the receiver guide says). */
const RETRY_AFTER_STATUSES: ReadonlySet<number> = new Set([429, 503]);

type Outcome = Omit<AttemptOutcome, 'latencyMs'>;

export interface SendInput {
  url: string;
  /** The event id: the webhook-id header. */
  eventId: string;
  /** The receiver body (receiverBody): exactly the bytes that are signed and sent. */
  body: string;
  /** Active signing secrets, newest first: each adds a signature. */
  secrets: readonly string[];
  /** Unix seconds for webhook-timestamp (from the clock port). */
  timestampSeconds: number;
  /** What a Retry-After date in the answer is read against: the receiver's clock, so the wall time. */
  clock: Clock;
}

export interface SendOptions {
  allowLoopback: boolean;
  timeoutMs?: number;
  /** Test seam: DNS resolution. */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
  /** The connection pool; the process-wide one unless a test brings its own. */
  pool?: DeliveryPool;
}

export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/** The spec's classification of an HTTP answer. */
export function classifyStatus(status: number): AttemptOutcome['kind'] {
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 408 || status === 429 || status >= 500) return 'retry';
  return 'failed';
}

/** The outcome of a complete HTTP answer: redirects fail, Retry-After counts on 429 and 503 only. */
export function classifyResponse(
  status: number,
  responseBody: string,
  retryAfter: string | undefined,
  nowMs: number,
): Outcome {
  const redirect = status >= 300 && status < 400;
  const kind = redirect ? 'failed' : classifyStatus(status);
  if (kind === 'delivered') return { kind, statusCode: status, responseBody };
  const seconds = RETRY_AFTER_STATUSES.has(status) ? parseRetryAfter(retryAfter, nowMs) : undefined;
  return {
    kind,
    statusCode: status,
    errorKind: redirect ? 'redirect' : 'http_status',
    ...(seconds !== undefined ? { retryAfterSeconds: seconds } : {}),
    responseBody,
  };
}

function networkOutcome(error: NodeJS.ErrnoException): Outcome {
  const errorKind: ErrorKind =
    error instanceof BlockedAddressError
      ? 'blocked_address'
      : error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN'
        ? 'dns'
        : error.code?.startsWith('ERR_TLS') || /certificate|SSL|TLS/i.test(error.message)
          ? 'tls'
          : 'connection';
  return {
    kind: errorKind === 'blocked_address' ? 'failed' : 'retry',
    errorKind,
    errorMessage: error.message,
    responseBody: '',
  };
}

const timeoutOutcome = (timeoutMs: number): Outcome => ({
  kind: 'retry',
  errorKind: 'timeout',
  errorMessage: `No answer within ${timeoutMs} ms`,
  responseBody: '',
});

/** A receiver's URL as its attempts use it. */
interface Target {
  url: URL;
  /** The host without brackets or zone, and its address family when it is an address literal (else 0). */
  address: string;
  family: number;
  /** The request's own fields for it, as Node's urlToHttpOptions would make them from the URL. */
  protocol: string;
  hostname: string;
  port: number | undefined;
  path: string;
  auth: string | undefined;
}

/**
 * Targets by URL, made once per URL and not per attempt (a worker sends to few receivers; parsing and
 * converting the URL was a tenth of an attempt's CPU). Bounded: the oldest go first.
 */
const targets = new Map<string, Target>();
const TARGETS_KEPT = 1_000;

function targetOf(raw: string): Target {
  const known = targets.get(raw);
  if (known) return known;
  const url = new URL(raw);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`unsupported scheme ${url.protocol}`);
  }
  const address = bareAddress(url.hostname);
  const target: Target = {
    url,
    address,
    family: isIP(address),
    protocol: url.protocol,
    hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    port: url.port ? Number(url.port) : undefined,
    path: `${url.pathname}${url.search}`,
    auth:
      url.username || url.password
        ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
        : undefined,
  };
  if (targets.size >= TARGETS_KEPT) targets.delete(targets.keys().next().value!);
  targets.set(raw, target);
  return target;
}

/** The target, or the failed outcome of one that cannot be sent to (bad scheme, forbidden literal address). */
function parseTarget(raw: string, policy: { allowLoopback: boolean }): Target | Outcome {
  let target: Target;
  try {
    target = targetOf(raw);
  } catch (error) {
    return { kind: 'failed', errorKind: 'invalid_url', errorMessage: String(error), responseBody: '' };
  }
  if (target.family && !addressAllowed(target.address, policy)) {
    return networkOutcome(new BlockedAddressError(target.address));
  }
  return target;
}

/** Resolves the host and vets the whole answer (the platform's guard, with this attempt's resolver). */
export const vetHost = (hostname: string, options: SendOptions): Promise<LookupAddress[]> =>
  vetPlatformHost(hostname, options);

function requestOptions(
  target: Target,
  input: SendInput,
  vetted: LookupAddress[],
  options: SendOptions,
): RequestOptions & PinnedRequest {
  return {
    // One options object: the request neither converts nor merges a URL on every attempt, and its
    // fields are named, not spread (a spread of the kept fields cost 10 us per attempt).
    protocol: target.protocol,
    hostname: target.hostname,
    port: target.port,
    path: target.path,
    auth: target.auth,
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(input.body),
      'User-Agent': USER_AGENT,
      ...webhookHeaders(input.secrets, input.eventId, input.timestampSeconds, input.body),
    },
    agent: (options.pool ?? sharedPool()).agentFor(target.url.protocol),
    pin: pinOf(vetted),
    lookup: pinnedLookup(vetted, options),
  };
}

/** Reads up to 16 KiB of the answer; the socket goes back to the pool when the answer ends in time. */
function readResponse(response: IncomingMessage, clock: Clock, finish: (outcome: Outcome) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const complete = () => {
    const body = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
    const retryAfter = response.headers['retry-after'];
    const outcome = classifyResponse(response.statusCode ?? 0, body, retryAfter, wallTime(clock));
    outcome.responseHeaders = shownResponseHeaders(response.headers);
    finish(outcome);
  };
  response.on('data', (chunk: Buffer) => {
    if (size < RESPONSE_BODY_LIMIT) chunks.push(chunk);
    size += chunk.length;
    if (size >= RESPONSE_BODY_LIMIT) {
      complete(); // enough kept: do not wait for the rest, and do not pool a socket mid-body
      response.destroy();
    }
  });
  response.on('end', complete);
  response.on('error', complete);
}

/** One request/response exchange; 'stale' when a reused socket turned out closed before any answer. */
function exchange(
  url: URL,
  options: RequestOptions,
  body: string,
  deadline: number,
  timeoutMs: number,
  clock: Clock,
): Promise<Outcome | 'stale'> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Outcome | 'stale') => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request: ClientRequest = (url.protocol === 'https:' ? httpsRequest : httpRequest)(options);
    const timer = setTimeout(
      () => {
        finish(timeoutOutcome(timeoutMs));
        request.destroy();
      },
      Math.max(0, deadline - performance.now()),
    );
    let answered = false;
    request.on('error', (error: NodeJS.ErrnoException) => {
      // Only before any answer: a reset mid-answer may follow a receiver that did process the event.
      const stale =
        !answered &&
        request.reusedSocket &&
        ['ECONNRESET', 'EPIPE', 'ECONNABORTED'].includes(error.code ?? '');
      finish(stale ? 'stale' : networkOutcome(error));
    });
    request.on('response', (response) => {
      answered = true;
      readResponse(response, clock, finish);
    });
    request.end(body);
  });
}

async function post(
  url: URL,
  options: RequestOptions,
  body: string,
  started: number,
  timeoutMs: number,
  clock: Clock,
): Promise<Outcome> {
  for (let tries = 0; ; tries++) {
    const outcome = await exchange(url, options, body, started + timeoutMs, timeoutMs, clock);
    if (outcome !== 'stale') return outcome;
    if (tries >= STALE_SOCKET_RETRIES) {
      return networkOutcome(Object.assign(new Error('Connection reset'), { code: 'ECONNRESET' }));
    }
  }
}

/** Resolves within `ms` or gives the timeout outcome (DNS counts toward the attempt's timeout). */
async function withinTimeout<T>(work: Promise<T>, ms: number): Promise<T | Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve(timeoutOutcome(ms)), ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

// Every outcome is a fresh object made for this attempt (classifyResponse, networkOutcome,
// timeoutOutcome), so its last fields are set on it rather than spread into a copy.
export async function sendWebhook(input: SendInput, options: SendOptions): Promise<AttemptOutcome> {
  const started = performance.now();
  const target = parseTarget(input.url, options);
  if (!('url' in target)) return Object.assign(target, { latencyMs: 0 });
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  let outcome: Outcome;
  try {
    // A literal address needs no DNS, so no race against the timeout.
    const vetting = vetHost(target.url.hostname, options);
    const vetted = target.family ? await vetting : await withinTimeout(vetting, timeoutMs);
    if (Array.isArray(vetted)) {
      const request = requestOptions(target, input, vetted, options);
      outcome = await post(target.url, request, input.body, started, timeoutMs, input.clock);
      outcome.requestHeaders = shownRequestHeaders(request.headers as Record<string, string | number>);
    } else outcome = vetted;
  } catch (error) {
    outcome = networkOutcome(error as NodeJS.ErrnoException);
  }
  return Object.assign(outcome, { latencyMs: Math.round(performance.now() - started) });
}
