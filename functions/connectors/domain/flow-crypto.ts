// The pure parts of the hosted OAuth flow: connect tokens, signed state, PKCE, the browser-binding
// cookie and the return redirect. No I/O here, so unit tests reach every rule directly.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const CONNECT_LINK_TTL_MS = 10 * 60 * 1000;
/** The consent step may take as long as the link's own lifetime. */
export const STATE_TTL_MS = 10 * 60 * 1000;
export const BROWSER_COOKIE = 'ces_connect_browser';

const randomToken = (): string => randomBytes(32).toString('base64url');
export const sha256 = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** 32 random bytes for the connect URL; only its SHA-256 is stored. */
export function newConnectToken(): { token: string; hash: string } {
  const token = randomToken();
  return { token, hash: sha256(token) };
}

/** A connect token as newConnectToken makes it: 32 random bytes in base64url. */
export const CONNECT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const isConnectToken = (value: string): boolean => CONNECT_TOKEN_PATTERN.test(value);

export interface StatePayload {
  /** Connection id. */
  c: string;
  /** Nonce: names the flow record, consumed once. */
  n: string;
  /** Expiry, epoch ms. */
  e: number;
  /** Provider and scope tier: what consent was asked for, so the callback checks against it. */
  p: string;
  t: string;
}

const mac = (key: Buffer, body: string): Buffer => createHmac('sha256', key).update(body, 'utf8').digest();

/** `<base64url JSON>.<base64url HMAC-SHA256>`: opaque to the provider, verifiable only by us. */
export function signState(key: Buffer, payload: StatePayload): string {
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${body}.${mac(key, body).toString('base64url')}`;
}

export type StateCheck =
  | { ok: true; payload: StatePayload }
  | { ok: false; reason: 'malformed' | 'signature' }
  | { ok: false; reason: 'expired'; payload: StatePayload };

/** What signState makes: the payload and its HMAC-SHA256, each in base64url. */
export const STATE_PATTERN = /^([A-Za-z0-9_-]{1,2048})\.([A-Za-z0-9_-]{43})$/;

export function verifyState(key: Buffer, state: string | undefined, now: number): StateCheck {
  const match = STATE_PATTERN.exec(state ?? '');
  if (!match) return { ok: false, reason: 'malformed' };
  const expected = mac(key, match[1]!);
  const presented = Buffer.from(match[2]!, 'base64url');
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
    return { ok: false, reason: 'signature' };
  }
  let payload: StatePayload;
  try {
    payload = JSON.parse(Buffer.from(match[1]!, 'base64url').toString('utf8')) as StatePayload;
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const fields = [payload?.c, payload?.n, payload?.p, payload?.t];
  if (fields.some((f) => typeof f !== 'string') || typeof payload.e !== 'number') {
    return { ok: false, reason: 'malformed' };
  }
  return now > payload.e ? { ok: false, reason: 'expired', payload } : { ok: true, payload };
}

/** RFC 7636: a 43-character verifier and its S256 challenge. */
export function newPkce(): { verifier: string; challenge: string } {
  const verifier = randomToken();
  return { verifier, challenge: pkceChallenge(verifier) };
}

export const pkceChallenge = (verifier: string): string =>
  createHash('sha256').update(verifier, 'ascii').digest('base64url');

export const newNonce = randomToken;

/** The browser-binding cookie value: reused when the browser already has a well-formed one. */
export function browserBinding(cookieHeader: string | undefined): { value: string; isNew: boolean } {
  const existing = readCookie(cookieHeader, BROWSER_COOKIE);
  return existing && isConnectToken(existing)
    ? { value: existing, isNew: false }
    : { value: randomToken(), isNew: true };
}

export function readCookie(cookieHeader: string | undefined, name: string): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [k, ...rest] = part.trim().split('=');
    if (k === name) return rest.join('=');
  }
  return undefined;
}

/** HttpOnly, SameSite=Lax (sent on the provider's top-level redirect back), Secure except on http. */
export function bindingCookie(value: string, baseUrl: string): string {
  const url = new URL(baseUrl);
  const path = `${url.pathname.replace(/\/+$/, '')}/connectors/v1`;
  const secure = url.protocol === 'https:' ? '; Secure' : '';
  return `${BROWSER_COOKIE}=${value}; Path=${path}; Max-Age=${STATE_TTL_MS / 1000}; HttpOnly; SameSite=Lax${secure}`;
}

/** Parameters the callback sets on return_url: one already there is dropped, never doubled. */
const OUTCOME_PARAMS = new Set(['connection_id', 'error']);

/**
 * Appends one parameter to a validated, normalised return_url, keeping the rest of its query string
 * byte for byte (URLSearchParams would re-encode it) and its fragment. A `connection_id` or `error`
 * the return_url already carries is removed first, so the receiver reads exactly one of ours.
 */
export function appendQuery(typed: string, name: string, value: string): string {
  // Connections stored before return_url was normalised at the API are normalised here too.
  const returnUrl = new URL(typed).href;
  const hashIndex = returnUrl.indexOf('#');
  const withoutHash = hashIndex >= 0 ? returnUrl.slice(0, hashIndex) : returnUrl;
  const hash = hashIndex >= 0 ? returnUrl.slice(hashIndex) : '';
  const queryIndex = withoutHash.indexOf('?');
  const base = queryIndex >= 0 ? withoutHash.slice(0, queryIndex) : withoutHash;
  const kept = (queryIndex >= 0 ? withoutHash.slice(queryIndex + 1) : '')
    .split('&')
    .filter((part) => part !== '' && !OUTCOME_PARAMS.has(decodedName(part)));
  kept.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  return `${base}?${kept.join('&')}${hash}`;
}

function decodedName(part: string): string {
  const name = part.split('=', 1)[0]!.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** The provider's authorize URL with our parameters; any query the configured URL carries is kept. */
export function authorizeUrl(
  base: string,
  params: {
    clientId: string;
    redirectUri: string;
    scopes: string[];
    separator: string;
    state: string;
    challenge: string;
    /** The provider's own parameters (Google's access_type=offline); ours above take precedence. */
    extra?: Record<string, string>;
  },
): string {
  const url = new URL(base);
  for (const [name, value] of Object.entries(params.extra ?? {})) url.searchParams.set(name, value);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', params.clientId);
  url.searchParams.set('redirect_uri', params.redirectUri);
  // A provider whose permissions are fixed at registration (Clio) takes no scope parameter.
  if (params.scopes.length) url.searchParams.set('scope', params.scopes.join(params.separator));
  url.searchParams.set('state', params.state);
  url.searchParams.set('code_challenge', params.challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  return url.toString();
}

export const callbackUrl = (baseUrl: string, provider: string): string =>
  `${baseUrl}/connectors/v1/oauth/${provider}/callback`;
