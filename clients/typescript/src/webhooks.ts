// Verifies a delivery per Standard Webhooks (https://www.standardwebhooks.com): `webhook-signature`
// holds one or more `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per active secret during a
// rotation; the key is the base64 after `whsec_`. Verify the raw body, before any JSON parsing.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type VerificationFailure =
  | 'missing_headers'
  | 'invalid_timestamp'
  | 'timestamp_out_of_tolerance'
  | 'invalid_secret'
  | 'no_matching_signature'
  | 'invalid_body';

export class WebhookVerificationError extends Error {
  constructor(
    readonly reason: VerificationFailure,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** A fetch `Headers`, or Node's `request.headers`. */
export type WebhookHeaders =
  { get(name: string): string | null } | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** Seconds a timestamp may be away from now (default 300). */
  toleranceSeconds?: number;
  /** Now, in Unix seconds (tests). */
  nowSeconds?: number;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof headers.get === 'function')
    return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(' ') : value;
}

function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0)
    throw new WebhookVerificationError('invalid_secret', 'The signing secret is empty or not base64');
  return key;
}

/**
 * Checks a delivery's signature and timestamp and returns its parsed JSON body; throws
 * WebhookVerificationError otherwise. `secret` may be several (the new and the previous one while
 * you roll a rotation out): any one matching signature is enough.
 */
export function verify<T = unknown>(
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): T {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError('missing_headers', 'Missing webhook headers');
  if (!/^\d{1,12}$/.test(timestamp))
    throw new WebhookVerificationError('invalid_timestamp', 'Invalid webhook-timestamp');
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      'Timestamp outside the tolerance window',
    );
  }
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : Buffer.from(payload);
  const presented = signatures
    .split(' ')
    .map((entry) => entry.split(','))
    .filter(([version, value]) => version === 'v1' && value)
    .map(([, value]) => Buffer.from(value!, 'base64'));
  const secrets = typeof secret === 'string' ? [secret] : secret;
  const matched = secrets.some((candidate) => {
    const expected = createHmac('sha256', secretKey(candidate))
      .update(`${id}.${timestamp}.`)
      .update(body)
      .digest();
    return presented.some((value) => value.length === expected.length && timingSafeEqual(value, expected));
  });
  if (!matched) throw new WebhookVerificationError('no_matching_signature', 'No matching signature');
  try {
    return JSON.parse(body.toString('utf8')) as T;
  } catch {
    throw new WebhookVerificationError('invalid_body', 'Body is not JSON');
  }
}
