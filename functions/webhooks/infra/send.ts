// One signed delivery attempt: POST the event as JSON with the Standard Webhooks headers, to an address
// vetted at connect time (SSRF guard), without following redirects, within a timeout, and classify the
// result the way the spec does: 2xx delivered; 408, 429, 5xx, network error, timeout retried; else failed.
import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns';
import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AttemptOutcome, DeliveryEvent, ErrorKind } from '../domain/attempt';
import { webhookHeaders } from '../domain/signing';

export type { AttemptOutcome, DeliveryEvent, ErrorKind } from '../domain/attempt';
import { addressAllowed, bareAddress, classifyAddress, isIpLiteral } from '../domain/addresses';

export const ATTEMPT_TIMEOUT_MS = 15_000;
export const RESPONSE_BODY_LIMIT = 16 * 1024;
const USER_AGENT = 'ConnectorEventService-Webhooks/1.0';

export interface SendInput {
  url: string;
  event: DeliveryEvent;
  /** Active signing secrets, newest first: each adds a signature. */
  secrets: readonly string[];
  /** Unix seconds for webhook-timestamp (from the clock port). */
  timestampSeconds: number;
}

export interface SendOptions {
  allowLoopback: boolean;
  timeoutMs?: number;
  /** Test seam: DNS resolution. */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
}

class BlockedAddressError extends Error {
  constructor(readonly address: string) {
    super(`Refused to connect to ${classifyAddress(address)} address ${address}`);
    this.name = 'BlockedAddressError';
  }
}

const systemResolve = (hostname: string): Promise<LookupAddress[]> =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

/** A `lookup` for node:net that resolves, refuses the whole answer if any address is not allowed, and
 * hands back only vetted addresses, so the socket connects to exactly what was checked. */
function vettingLookup(options: SendOptions): LookupFunction {
  const resolve = options.resolve ?? systemResolve;
  return (hostname, lookupOptions, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const family =
          lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : undefined;
        const candidates = addresses.filter((a) => !family || a.family === family);
        const blocked = candidates.find((a) => !addressAllowed(a.address, options));
        if (blocked) return callback(new BlockedAddressError(blocked.address), '', 0);
        if (candidates.length === 0) {
          return callback(
            Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' }),
            '',
            0,
          );
        }
        if (lookupOptions.all)
          return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, candidates);
        callback(null, candidates[0]!.address, candidates[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
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

function networkErrorKind(error: NodeJS.ErrnoException): ErrorKind {
  if (error instanceof BlockedAddressError) return 'blocked_address';
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return 'dns';
  if (error.code?.startsWith('ERR_TLS') || /certificate|SSL|TLS/i.test(error.message)) return 'tls';
  return 'connection';
}

export async function sendWebhook(input: SendInput, options: SendOptions): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  try {
    url = new URL(input.url);
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new Error(`unsupported scheme ${url.protocol}`);
  } catch (error) {
    return {
      kind: 'failed',
      errorKind: 'invalid_url',
      errorMessage: String(error),
      latencyMs: 0,
      responseBody: '',
    };
  }
  // node:net does not call `lookup` for a literal address: vet it here.
  if (isIpLiteral(url.hostname) && !addressAllowed(url.hostname, options)) {
    const error = new BlockedAddressError(bareAddress(url.hostname));
    return {
      kind: 'failed',
      errorKind: 'blocked_address',
      errorMessage: error.message,
      latencyMs: 0,
      responseBody: '',
    };
  }

  const { id, type, occurred_at, data } = input.event;
  const body = JSON.stringify({ id, type, occurred_at, data });
  const requestOptions: RequestOptions = {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      'User-Agent': USER_AGENT,
      ...webhookHeaders(input.secrets, id, input.timestampSeconds, body),
    },
    lookup: vettingLookup(options),
    agent: false, // a fresh connection per attempt: no pooled socket skips the address check
  };
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;

  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<AttemptOutcome, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, latencyMs: elapsed() });
    };
    const request: ClientRequest = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      requestOptions,
    );
    const timer = setTimeout(() => {
      finish({
        kind: 'retry',
        errorKind: 'timeout',
        errorMessage: `No answer within ${timeoutMs} ms`,
        responseBody: '',
      });
      request.destroy();
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      const errorKind = networkErrorKind(error);
      finish({
        kind: errorKind === 'blocked_address' ? 'failed' : 'retry',
        errorKind,
        errorMessage: error.message,
        responseBody: '',
      });
    });
    request.on('response', (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const complete = () => {
        const status = response.statusCode ?? 0;
        const responseBody = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
        const kind = status >= 300 && status < 400 ? 'failed' : classifyStatus(status);
        const retryAfter = header(response, 'retry-after');
        finish({
          kind,
          statusCode: status,
          ...(kind === 'delivered'
            ? {}
            : {
                errorKind: status >= 300 && status < 400 ? ('redirect' as const) : ('http_status' as const),
              }),
          ...(kind === 'retry' && parseRetryAfter(retryAfter, Date.now()) !== undefined
            ? { retryAfterSeconds: parseRetryAfter(retryAfter, Date.now()) }
            : {}),
          responseBody,
        });
        response.destroy();
      };
      response.on('data', (chunk: Buffer) => {
        if (size < RESPONSE_BODY_LIMIT) chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_BODY_LIMIT) complete(); // enough kept: do not wait for the rest
      });
      response.on('end', complete);
      response.on('error', complete);
    });
    request.end(body);
  });
}

function header(response: IncomingMessage, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
