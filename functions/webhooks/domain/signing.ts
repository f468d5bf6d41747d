// Standard Webhooks signing (https://www.standardwebhooks.com): `webhook-id`, `webhook-timestamp` and
// `webhook-signature` = space-separated `v1,<base64 HMAC-SHA256("id.timestamp.body")>`, one per active
// secret. The HMAC key is the base64 part of `whsec_<base64>` decoded. verifyWebhook is for receivers.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { epochSeconds, systemClock } from '../../platform/clock';

export const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;
const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

// A type, not an interface, so it is assignable to the header records verifyWebhook accepts.
export type WebhookHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new WebhookVerificationError('The signing secret is empty or not base64');
  return key;
}

function hmac(key: Buffer, id: string, timestamp: string, body: string | Buffer): Buffer {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`, 'utf8').update(body).digest();
}

/** One `v1,<base64>` signature. */
export function sign(secret: string, id: string, timestampSeconds: number, body: string | Buffer): string {
  return `v1,${hmac(secretKey(secret), id, String(timestampSeconds), body).toString('base64')}`;
}

/** The three headers of a delivery signed with every secret given (newest first, during rotation). */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string | Buffer,
): WebhookHeaders {
  if (secrets.length === 0) throw new Error('At least one signing secret is needed');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => sign(s, id, timestampSeconds, body)).join(' '),
  };
}

type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(' ') : value;
}

/**
 * Verifies a delivery against the raw request body, before any JSON parsing, and returns the parsed
 * body. Accepts any of several signatures (secret rotation); refuses timestamps more than five minutes
 * from now (replays). Throws WebhookVerificationError.
 * @param headers a fetch `Headers`, or Node's `request.headers`
 */
export function verifyWebhook(
  secret: string,
  headers: HeaderSource,
  rawBody: string | Buffer,
  options: { nowSeconds?: number; toleranceSeconds?: number } = {},
): unknown {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('Missing webhook headers');
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('Invalid webhook-timestamp');
  // A receiver checks the sender's timestamp against its own wall clock.
  const now = options.nowSeconds ?? epochSeconds(systemClock.now());
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(now - Number(timestamp)) > tolerance) {
    throw new WebhookVerificationError('Timestamp outside the tolerance window');
  }
  const expected = hmac(secretKey(secret), id, timestamp, rawBody);
  const matched = signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const presented = Buffer.from(value, 'base64');
    return presented.length === expected.length && timingSafeEqual(presented, expected);
  });
  if (!matched) throw new WebhookVerificationError('No matching signature');
  const text = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new WebhookVerificationError('Body is not JSON');
  }
}
