// Provider HTTP: code exchange, refresh, account info and revocation (RFC 6749, 7636, 7009). Errors carry the
// HTTP status and the OAuth error code only: never a code, a token or a provider response body.
import type { ProviderDefinition, ProviderEndpoints, RevocationStyle } from '../domain/providers';
import type { AddressPolicy } from '../../platform/pinned-connect';
import { accessTokenHeaders } from './access-token';
import { parseRetryAfter } from './retry-after';

export { parseRetryAfter } from './retry-after';

const TIMEOUT_MS = 10_000;
/** Below this, a call is not worth starting: it would time out before a provider could answer. */
const MIN_CALL_MS = 250;

/**
 * A time budget several provider calls share (the OAuth callback's, which must answer before API
 * Gateway's 29 s): each call gets its own cap or what is left, whichever is less, and none starts
 * once too little is left. Real elapsed time (network timeouts are real), not the clock port.
 */
export class ProviderDeadline {
  private readonly end: number;

  constructor(
    budgetMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.end = now() + budgetMs;
  }

  /** Milliseconds left of the budget. */
  left(): number {
    return Math.max(0, this.end - this.now());
  }

  /** The timeout for the next call: at most `capMs`; 0 when too little is left to start one. */
  timeout(capMs: number): number {
    // Whole milliseconds: AbortSignal.timeout refuses a fraction.
    const left = Math.floor(this.left());
    return left < MIN_CALL_MS ? 0 : Math.min(capMs, left);
  }
}

export class ProviderHttpError extends Error {
  constructor(
    readonly operation: 'token' | 'account' | 'revoke',
    readonly status: number | undefined,
    readonly oauthError?: string,
    readonly retryAfterSeconds?: number,
    /** Retry-After given as an HTTP date (epoch ms): the caller compares it with its own clock. */
    readonly retryAt?: number,
  ) {
    super(
      `provider ${operation} request failed${status ? ` with HTTP ${status}` : ''}${oauthError ? ` (${oauthError})` : ''}`,
    );
    this.name = 'ProviderHttpError';
  }
}

export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  tokenType: string;
  expiresInSeconds?: number;
  /** Granted scopes, when the provider says; undefined means "as requested" (RFC 6749 §5.1). */
  scopes?: string[];
}

export type ProviderClient = Pick<
  ProviderEndpoints,
  'tokenUrl' | 'revokeUrl' | 'accountUrl' | 'clientId' | 'clientSecret'
> & {
  /**
   * The endpoints are on a host the connection named (a customer's server), not configuration's: each
   * request connects through this address guard with the address pinned, as a provider-supplied URL
   * does (resolved and vetted per request, so a name cannot be rebound to an internal address).
   */
  guard?: AddressPolicy;
};

const basicAuth = (client: ProviderClient): string =>
  `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString('base64')}`;

async function send(
  operation: ProviderHttpError['operation'],
  url: string,
  init: RequestInit,
  timeoutMs = TIMEOUT_MS,
  guard?: AddressPolicy,
): Promise<Response> {
  // No time left in the caller's budget: fail as a timeout would, without a request.
  if (timeoutMs <= 0) throw new ProviderHttpError(operation, undefined, 'timeout');
  if (guard) return pinnedSend(operation, url, init, timeoutMs, guard);
  try {
    return await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError';
    throw new ProviderHttpError(operation, undefined, timedOut ? 'timeout' : 'network_error');
  }
}

/**
 * A request to a host the connection named: resolved and vetted by the guard, connected to exactly the
 * vetted addresses, no redirect followed (a 3xx is a failure, as `redirect: 'error'` makes it above).
 */
async function pinnedSend(
  operation: ProviderHttpError['operation'],
  url: string,
  init: RequestInit,
  timeoutMs: number,
  guard: AddressPolicy,
): Promise<Response> {
  const { BlockedAddressError, foreignRequest } = await import('./content/foreign-request');
  try {
    return await foreignRequest(new URL(url), {
      method: init.method ?? 'GET',
      headers: (init.headers ?? {}) as Record<string, string>,
      ...(typeof init.body === 'string' ? { body: Buffer.from(init.body) } : {}),
      guard,
      timeoutMs,
    });
  } catch (error) {
    throw new ProviderHttpError(
      operation,
      undefined,
      error instanceof BlockedAddressError ? 'blocked_address' : 'network_error',
    );
  }
}

async function failure(
  operation: ProviderHttpError['operation'],
  response: Response,
  retryAfterHeader = 'retry-after',
): Promise<ProviderHttpError> {
  let oauthError: string | undefined;
  try {
    const body = (await response.json()) as { error?: unknown };
    if (typeof body.error === 'string' && /^[\w.-]{1,64}$/.test(body.error)) oauthError = body.error;
  } catch {
    // not JSON: the status says enough
  }
  const retryAfter = parseRetryAfter(response.headers.get(retryAfterHeader));
  return new ProviderHttpError(operation, response.status, oauthError, retryAfter.seconds, retryAfter.at);
}

/** expires_in as a number, or as the numeric string some providers send; anything else is absent. */
function expiresIn(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  if (typeof value === 'string' && /^\d{1,10}$/.test(value.trim())) return Number(value.trim()) || undefined;
  return undefined;
}

function tokenSet(
  body: Record<string, unknown>,
  definition: Pick<ProviderDefinition, 'scopeSeparator' | 'grantedScopePrefix'>,
): TokenSet {
  const prefix = definition.grantedScopePrefix;
  const scope = (name: string) => (prefix && name.startsWith(prefix) ? name.slice(prefix.length) : name);
  if (typeof body.access_token !== 'string' || !body.access_token) {
    throw new ProviderHttpError('token', 200, 'no_access_token');
  }
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : undefined,
    tokenType: typeof body.token_type === 'string' ? body.token_type : 'Bearer',
    expiresInSeconds: expiresIn(body.expires_in),
    scopes:
      typeof body.scope === 'string'
        ? body.scope.split(definition.scopeSeparator).filter(Boolean).map(scope)
        : undefined,
  };
}

async function tokenRequest(
  client: ProviderClient,
  definition: ProviderDefinition,
  form: Record<string, string>,
  timeoutMs = TIMEOUT_MS,
): Promise<TokenSet> {
  const credentials = clientCredentials(definition.tokenEndpointAuthMethod, client);
  const response = await send(
    'token',
    client.tokenUrl,
    {
      method: 'POST',
      headers: {
        ...credentials.headers,
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: new URLSearchParams({ ...form, ...credentials.form }).toString(),
    },
    timeoutMs,
    client.guard,
  );
  if (!response.ok) throw await failure('token', response, definition.rateLimitHeaders.retryAfter);
  return tokenSet((await response.json()) as Record<string, unknown>, definition);
}

export function exchangeCode(
  client: ProviderClient,
  definition: ProviderDefinition,
  input: { code: string; verifier: string; redirectUri: string },
  timeoutMs = TIMEOUT_MS,
): Promise<TokenSet> {
  return tokenRequest(
    client,
    definition,
    {
      grant_type: 'authorization_code',
      code: input.code,
      code_verifier: input.verifier,
      redirect_uri: input.redirectUri,
    },
    timeoutMs,
  );
}

export function refreshTokens(
  client: ProviderClient,
  definition: ProviderDefinition,
  refreshToken: string,
  timeoutMs = TIMEOUT_MS,
): Promise<TokenSet> {
  return tokenRequest(
    client,
    definition,
    { grant_type: 'refresh_token', refresh_token: refreshToken },
    timeoutMs,
  );
}

/** A value of the account-info response at `path`: dotted (`user.emailAddress`), `|` for alternatives. */
export function accountField(body: unknown, path: string): string {
  for (const alternative of path.split('|')) {
    let at: unknown = body;
    for (const key of alternative.split('.'))
      at =
        at && typeof at === 'object' && Object.hasOwn(at, key)
          ? (at as Record<string, unknown>)[key]
          : undefined;
    if ((typeof at === 'string' && at !== '') || typeof at === 'number') return String(at);
  }
  return '';
}

export async function fetchAccount(
  client: ProviderClient,
  definition: ProviderDefinition,
  accessToken: string,
  timeoutMs = TIMEOUT_MS,
): Promise<{ external_id: string; email: string; display_name: string }> {
  const post = definition.accountRequest;
  const response = await send(
    'account',
    client.accountUrl,
    {
      method: post?.method ?? 'GET',
      headers: {
        ...accessTokenHeaders(definition.accessTokenHeader, accessToken),
        Accept: 'application/json',
        ...(post ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(post ? { body: post.jsonBody } : {}),
    },
    timeoutMs,
    client.guard,
  );
  if (!response.ok) throw await failure('account', response);
  const body = (await response.json()) as unknown;
  const externalId = accountField(body, definition.accountFields.externalId);
  if (!externalId) throw new ProviderHttpError('account', response.status, 'no_account_id');
  return {
    external_id: externalId,
    email: accountField(body, definition.accountFields.email),
    display_name: accountField(body, definition.accountFields.displayName),
  };
}

interface ClientCredentials {
  headers: Record<string, string>;
  form: Record<string, string>;
}

/** The client's credentials as the provider takes them: client_secret_basic (RFC 6749 §2.3.1's default) or client_secret_post. */
function clientCredentials(
  method: ProviderDefinition['tokenEndpointAuthMethod'],
  client: ProviderClient,
): ClientCredentials {
  return method === 'client_secret_post'
    ? { headers: {}, form: { client_id: client.clientId, client_secret: client.clientSecret } }
    : { headers: { Authorization: basicAuth(client) }, form: {} };
}

/**
 * Revokes a token as the provider does it (RevocationStyle): RFC 7009's form POST, with or without
 * the client's credentials, or a POST authorized by the access token itself (in the header the
 * provider's API takes it in).
 */
export async function revokeToken(
  client: ProviderClient,
  definition: Pick<ProviderDefinition, 'tokenEndpointAuthMethod' | 'accessTokenHeader'> & {
    revocation: Exclude<RevocationStyle, { style: 'none' }>;
  },
  token: string,
  hint: 'refresh_token' | 'access_token',
  timeoutMs = TIMEOUT_MS,
): Promise<void> {
  const { revocation } = definition;
  // RFC 7009 §2.1: the client authenticates at the revocation endpoint as at the token endpoint.
  const credentials: ClientCredentials =
    revocation.style === 'rfc7009' && revocation.clientAuth
      ? clientCredentials(definition.tokenEndpointAuthMethod, client)
      : { headers: {}, form: {} };
  const init: RequestInit =
    revocation.style === 'rfc7009'
      ? {
          method: 'POST',
          headers: { ...credentials.headers, 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ token, token_type_hint: hint, ...credentials.form }).toString(),
        }
      : {
          method: 'POST',
          headers: {
            ...accessTokenHeaders(definition.accessTokenHeader, token),
            ...(revocation.tokenField ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
          },
          ...(revocation.tokenField
            ? { body: new URLSearchParams({ [revocation.tokenField]: token }).toString() }
            : {}),
        };
  const response = await send('revoke', client.revokeUrl, init, timeoutMs, client.guard);
  if (!response.ok) throw await failure('revoke', response);
  await response.arrayBuffer();
}
