// The sandbox OAuth provider: a real authorization server on its own origin for the local server and
// the tests (never bundled into a Lambda). Per provider id, under /<provider>/:
//   GET  authorize   consent page (HTML): exact redirect_uri match, PKCE S256 required
//   POST authorize   approve or decline; `simulate` injects provider_error, missing_code, reduced_scopes,
//                    exchange_failed (invalid_grant at the token endpoint), rate_limited (429 + Retry-After)
//   POST token       authorization_code (one-time codes, 60 s, PKCE checked) and refresh_token (rotating
//                    when the client says so; a reused rotated token revokes the grant)
//   POST revoke      RFC 7009
//   GET  account     the account behind a bearer access token
//   /api/v1/...      the provider's content API (practice and drive; content/mount.ts documents it)
// Test hooks (exposeIssued): GET /__sandbox/issued lists every code and token issued and revoked, and
// every token-endpoint request with its grant type and answer (tests count refreshes with it);
// POST /__sandbox/next-token-error {provider, error: invalid_grant|rate_limited|server_error, retry_after?}
// makes the next token request for that provider fail; the content APIs' hooks (API errors, revoking
// grants, adding, changing, deleting and listing files) are in content/hooks.ts.
// GET /return shows what a return_url received.
// The fakes of real providers (./providers/<id>/) are served by the same authorization server at their
// own paths under their prefix (`/google/o/oauth2/v2/auth`, `/google/token`, ...), behaving as that
// provider does where providers differ (./providers/fake.ts, FakeOAuthShape): what earns a refresh
// token, whether a refresh rotates it, how revocation is asked for, whether `iss` is sent.
// Issued values carry recognisable prefixes (sbx_code_, sbx_at_, sbx_rt_) so a log scan can find leaks.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from './clock';
import { systemClock } from './clock';
import type { BearerGrant, GrantDirectory } from './content/types';
import { mountSandboxContent } from './content/mount';
import type { FakeOAuthShape, ProviderFake } from './providers/fake';
import { fakeOwning, fakePath, oauthAction, presentedToken } from './providers/mount';
import { PROVIDER_FAKES } from './providers';

export interface SandboxClient {
  provider: string;
  clientId: string;
  clientSecret: string;
  /** Matched exactly, as a real authorization server does. */
  redirectUris: string[];
  /** Scopes the provider knows; a request for another is refused with invalid_scope. */
  scopes: string[];
  rotateRefreshTokens: boolean;
  accessTokenSeconds?: number;
}

export interface SandboxEndpoints {
  authorizeUrl: string;
  tokenUrl: string;
  /** Absent for a fake of a provider without a revocation endpoint (Microsoft). */
  revokeUrl?: string;
  accountUrl: string;
  /** RFC 9207: the `iss` every authorization response carries (absent: the provider sends none). */
  issuer?: string;
  /** A fake's own settings (PROVIDER_<ID>_<NAME>), e.g. Dropbox's CONTENT_URL. */
  extra?: Record<string, string>;
  /** Base of the provider's content API (content/mount.ts), e.g. `<url>/practice/api/v1`. */
  apiUrl: string;
}

export interface IssuedValues {
  codes: string[];
  accessTokens: string[];
  refreshTokens: string[];
  revoked: string[];
  /** Every request that reached a token endpoint, in order, with the status it was answered. */
  tokenRequests: { provider: string; grantType: string; status: number }[];
}

export interface SandboxProvider {
  url: string;
  endpoints(provider: string): SandboxEndpoints;
  register(client: SandboxClient): void;
  issued(): IssuedValues;
  close(): Promise<void>;
}

type Simulation =
  | 'none'
  | 'provider_error'
  | 'missing_code'
  | 'reduced_scopes'
  | 'exchange_failed'
  | 'rate_limited'
  | 'wrong_issuer';
const SIMULATIONS: Simulation[] = [
  'none',
  'provider_error',
  'missing_code',
  'reduced_scopes',
  'exchange_failed',
  'rate_limited',
  'wrong_issuer',
];
type TokenError = 'invalid_grant' | 'rate_limited' | 'server_error';

interface Account {
  id: string;
  email: string;
  name: string;
}

interface AuthorizationRequest {
  client: SandboxClient;
  redirectUri: string;
  state?: string;
  scopes: string[];
  challenge: string;
  expiresAt: number;
  /** Whether the request earns a refresh token (the provider's offline parameter or scope). */
  offline: boolean;
  /** The tenant (region, server) the request came under: its code and grant are good there only. */
  tenant: string;
}

interface CodeGrant {
  client: SandboxClient;
  redirectUri: string;
  challenge: string;
  scopes: string[];
  account: Account;
  expiresAt: number;
  tokenError?: TokenError;
  offline: boolean;
  tenant: string;
}

interface Grant {
  id: string;
  client: SandboxClient;
  account: Account;
  scopes: string[];
  revoked: boolean;
  offline: boolean;
  tenant: string;
}

const CODE_TTL_MS = 60_000;
const REQUEST_TTL_MS = 10 * 60_000;

const random = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;
const s256 = (verifier: string) => createHash('sha256').update(verifier, 'ascii').digest('base64url');
const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

function constantEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json',
    'Cache-Control': 'no-store',
    ...headers,
  });
  response.end(text);
}

function redirectTo(
  response: ServerResponse,
  base: string,
  params: Record<string, string | undefined>,
): void {
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  response.writeHead(302, { Location: url.toString(), 'Cache-Control': 'no-store' });
  response.end();
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:38rem;margin:3rem auto;padding:0 1rem}label{display:block;margin:.6rem 0}
input,select{width:100%;padding:.3rem}button{margin:.8rem .5rem 0 0;padding:.5rem 1.2rem}code{background:#eee;padding:0 .2rem}</style>
</head><body>${body}</body></html>`;
}

/** The authorization server's state and its endpoints, one method each. */
class SandboxAuthorizationServer implements GrantDirectory {
  readonly clients = new Map<string, SandboxClient>(); // by `${provider}:${clientId}`
  private readonly requests = new Map<string, AuthorizationRequest>();
  private readonly codes = new Map<string, CodeGrant>();
  private readonly usedCodes = new Map<string, string | undefined>(); // code -> grant id it produced
  private readonly accessTokens = new Map<string, { grant: Grant; expiresAt: number }>();
  private readonly refreshTokens = new Map<string, { grant: Grant; spent: boolean }>();
  private readonly nextTokenError = new Map<string, { error: TokenError; retryAfter: number }>();
  readonly issued: IssuedValues = {
    codes: [],
    accessTokens: [],
    refreshTokens: [],
    revoked: [],
    tokenRequests: [],
  };
  url = '';

  constructor(
    private readonly clock: Clock,
    private readonly options: { exposeIssued?: boolean },
    readonly fakes: readonly ProviderFake[] = [],
  ) {}

  /** A fake's OAuth shape, or the sandbox's own behaviour (its client's rotation setting). */
  private shapeOf(provider: string): FakeOAuthShape | undefined {
    return this.fakes.find((fake) => fake.id === provider)?.oauth;
  }

  /** Where the consent form posts back: the provider's authorize path. */
  private authorizePath(provider: string, tenant: string): string {
    const fake = this.fakes.find((f) => f.id === provider);
    const under = tenant ? `/${encodeURIComponent(tenant)}` : '';
    return fake ? `${fake.prefix}${under}${fake.oauth.authorizePath}` : `/${provider}/authorize`;
  }

  private clientFor(provider: string, clientId: string | null | undefined) {
    return clientId ? this.clients.get(`${provider}:${clientId}`) : undefined;
  }

  authenticate(provider: string, request: IncomingMessage, form: URLSearchParams): SandboxClient | undefined {
    let id = form.get('client_id') ?? undefined;
    let secret = form.get('client_secret') ?? undefined;
    const basic = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    if (basic) {
      const [rawId, ...rest] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':');
      id = decodeURIComponent(rawId ?? '');
      secret = decodeURIComponent(rest.join(':'));
    }
    const client = this.clientFor(provider, id);
    return client && secret !== undefined && constantEqual(secret, client.clientSecret) ? client : undefined;
  }

  issueTokens(grant: Grant): Record<string, unknown> & { access_token: string; refresh_token?: string } {
    const lifetime = grant.client.accessTokenSeconds ?? 3600;
    const access = random('sbx_at_');
    this.accessTokens.set(access, { grant, expiresAt: this.clock.now() + lifetime * 1000 });
    this.issued.accessTokens.push(access);
    const extras = this.shapeOf(grant.client.provider)?.tokenExtras?.({ accountId: grant.account.id }) ?? {};
    const tokens = {
      access_token: access,
      token_type: 'Bearer',
      expires_in: lifetime,
      scope: grant.scopes.join(this.shapeOf(grant.client.provider)?.scopeSeparator ?? ' '),
      ...extras,
    };
    if (!grant.offline) return tokens;
    const refresh = random('sbx_rt_');
    this.refreshTokens.set(refresh, { grant, spent: false });
    this.issued.refreshTokens.push(refresh);
    return { ...tokens, refresh_token: refresh };
  }

  revokeGrant(grant: Grant) {
    grant.revoked = true;
    for (const [token, entry] of this.accessTokens)
      if (entry.grant === grant) this.issued.revoked.push(token);
    for (const [token, entry] of this.refreshTokens)
      if (entry.grant === grant) this.issued.revoked.push(token);
  }

  authorizeGet(provider: string, tenant: string, query: URLSearchParams, response: ServerResponse) {
    const client = this.clientFor(provider, query.get('client_id'));
    const redirectUri = query.get('redirect_uri') ?? '';
    if (!client)
      return send(response, 400, page('Error', '<h1>Unknown client</h1><p>client_id is not registered.</p>'));
    if (!client.redirectUris.includes(redirectUri)) {
      return send(
        response,
        400,
        page('Error', '<h1>redirect_uri mismatch</h1><p>It must match a registered URI exactly.</p>'),
      );
    }
    const state = query.get('state') ?? undefined;
    if (query.get('response_type') !== 'code')
      return redirectTo(response, redirectUri, { error: 'unsupported_response_type', state });
    const challenge = query.get('code_challenge') ?? '';
    if (query.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
      return redirectTo(response, redirectUri, {
        error: 'invalid_request',
        error_description: 'PKCE S256 is required',
        state,
      });
    }
    const shape = this.shapeOf(provider);
    // A provider whose permissions come from the app's registration (Clio) grants those.
    const scopes =
      shape && !shape.scopesInRequest
        ? client.scopes
        : (query.get('scope') ?? '').split(shape?.scopeSeparator ?? ' ').filter(Boolean);
    if (!scopes.length || scopes.some((s) => !client.scopes.includes(s))) {
      return redirectTo(response, redirectUri, { error: 'invalid_scope', state });
    }
    const offline =
      !shape || shape.offline === 'always'
        ? true
        : 'scope' in shape.offline
          ? scopes.includes(shape.offline.scope)
          : query.get(shape.offline.param) === shape.offline.value;
    const requestId = random('req_');
    this.requests.set(requestId, {
      client,
      redirectUri,
      state,
      scopes,
      challenge,
      expiresAt: this.clock.now() + REQUEST_TTL_MS,
      offline,
      tenant,
    });
    const choices = SIMULATIONS.map(
      (s) => `<option value="${s}">${s === 'none' ? 'behave normally' : s}</option>`,
    ).join('');
    send(
      response,
      200,
      page(
        'Sandbox consent',
        `<h1>Sandbox provider: ${escapeHtml(provider)}</h1>
<p><code>${escapeHtml(client.clientId)}</code> asks for: ${scopes.map((s) => `<code>${escapeHtml(s)}</code>`).join(' ')}</p>
<form method="post" action="${escapeHtml(this.authorizePath(provider, tenant))}">
<input type="hidden" name="request_id" value="${requestId}">
<label>Account id <input name="account_id" value="acct-1001"></label>
<label>Email <input name="email" value="user@example.com"></label>
<label>Display name <input name="display_name" value="Sandbox User"></label>
<label>Simulate <select name="simulate">${choices}</select></label>
<button name="decision" value="approve" type="submit">Approve</button>
<button name="decision" value="decline" type="submit">Decline</button>
</form>`,
      ),
    );
  }

  authorizePost(form: URLSearchParams, response: ServerResponse) {
    const requestId = form.get('request_id') ?? '';
    const request = this.requests.get(requestId);
    this.requests.delete(requestId);
    if (!request || this.clock.now() > request.expiresAt) {
      return send(
        response,
        400,
        page('Error', '<h1>This consent request has expired or was already answered</h1>'),
      );
    }
    const simulate = (form.get('simulate') ?? 'none') as Simulation;
    // RFC 9207: every authorization response names its issuer (a wrong one, when asked to simulate it).
    const shape = this.shapeOf(request.client.provider);
    const own = shape ? shape.issuer?.(this.url) : `${this.url}/${request.client.provider}`;
    const iss = simulate === 'wrong_issuer' ? 'https://mix-up.example.test' : own;
    const { redirectUri: base, state } = request;
    const redirectUri = { base, iss };
    if (form.get('decision') !== 'approve') {
      return redirectTo(response, redirectUri.base, {
        iss: redirectUri.iss,
        error: 'access_denied',
        error_description: 'The user declined',
        state,
      });
    }
    if (simulate === 'provider_error')
      return redirectTo(response, redirectUri.base, { iss: redirectUri.iss, error: 'server_error', state });
    if (simulate === 'missing_code')
      return redirectTo(response, redirectUri.base, { iss: redirectUri.iss, state });
    const code = random('sbx_code_');
    this.issued.codes.push(code);
    this.codes.set(code, {
      client: request.client,
      redirectUri: base,
      challenge: request.challenge,
      scopes: simulate === 'reduced_scopes' ? request.scopes.slice(1) : request.scopes,
      account: {
        id: form.get('account_id') || 'acct-1001',
        email: form.get('email') ?? '',
        name: form.get('display_name') ?? '',
      },
      expiresAt: this.clock.now() + CODE_TTL_MS,
      offline: request.offline,
      tenant: request.tenant,
      tokenError:
        simulate === 'exchange_failed'
          ? 'invalid_grant'
          : simulate === 'rate_limited'
            ? 'rate_limited'
            : undefined,
    });
    redirectTo(response, redirectUri.base, { iss: redirectUri.iss, code, state });
  }

  tokenError(response: ServerResponse, error: TokenError, retryAfter = 30) {
    if (error === 'rate_limited')
      return send(response, 429, { error: 'rate_limited' }, { 'Retry-After': String(retryAfter) });
    if (error === 'server_error') return send(response, 503, { error: 'temporarily_unavailable' });
    return send(response, 400, { error: 'invalid_grant' });
  }

  token(
    provider: string,
    tenant: string,
    request: IncomingMessage,
    form: URLSearchParams,
    response: ServerResponse,
  ) {
    const client = this.authenticate(provider, request, form);
    if (!client) return send(response, 401, { error: 'invalid_client' }, { 'WWW-Authenticate': 'Basic' });
    const injected = this.nextTokenError.get(provider);
    if (injected) {
      this.nextTokenError.delete(provider);
      return this.tokenError(response, injected.error, injected.retryAfter);
    }
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') return this.codeGrant(client, tenant, form, response);
    if (grantType === 'refresh_token') return this.refreshGrant(client, tenant, form, response);
    return send(response, 400, { error: 'unsupported_grant_type' });
  }

  /** authorization_code: one-time codes, 60 s, the client, redirect_uri and PKCE verifier checked. */
  private codeGrant(client: SandboxClient, tenant: string, form: URLSearchParams, response: ServerResponse) {
    const code = form.get('code') ?? '';
    const entry = this.codes.get(code);
    this.codes.delete(code);
    if (!entry) {
      // A code presented twice: refuse, and revoke what it produced (RFC 6749 §4.1.2).
      if (this.usedCodes.has(code)) {
        for (const t of this.accessTokens.values())
          if (t.grant.id === this.usedCodes.get(code)) this.revokeGrant(t.grant);
      }
      return send(response, 400, { error: 'invalid_grant' });
    }
    this.usedCodes.set(code, undefined);
    const verifier = form.get('code_verifier') ?? '';
    const valid =
      entry.client === client &&
      entry.tenant === tenant &&
      this.clock.now() <= entry.expiresAt &&
      form.get('redirect_uri') === entry.redirectUri &&
      /^[A-Za-z0-9._~-]{43,128}$/.test(verifier) &&
      constantEqual(s256(verifier), entry.challenge);
    if (!valid) return send(response, 400, { error: 'invalid_grant' });
    if (entry.tokenError) return this.tokenError(response, entry.tokenError);
    const grant: Grant = {
      id: random('grant_'),
      client,
      account: entry.account,
      scopes: entry.scopes,
      revoked: false,
      offline: entry.offline,
      tenant,
    };
    this.usedCodes.set(code, grant.id);
    return send(response, 200, this.issueTokens(grant));
  }

  /**
   * refresh_token: rotating when the provider (a fake's shape) or the client says so, a rotated token
   * used again ends the grant; else the same refresh token again, or none (Google's refresh answers none).
   */
  private refreshGrant(
    client: SandboxClient,
    tenant: string,
    form: URLSearchParams,
    response: ServerResponse,
  ) {
    const presented = form.get('refresh_token') ?? '';
    const entry = this.refreshTokens.get(presented);
    if (!entry || entry.grant.client !== client || entry.grant.tenant !== tenant || entry.grant.revoked)
      return send(response, 400, { error: 'invalid_grant' });
    if (entry.spent) {
      this.revokeGrant(entry.grant); // assume theft
      return send(response, 400, { error: 'invalid_grant' });
    }
    const mode = this.shapeOf(client.provider)?.refresh ?? (client.rotateRefreshTokens ? 'rotate' : 'same');
    const { refresh_token: fresh, ...tokens } = this.issueTokens(entry.grant);
    if (mode === 'rotate') {
      entry.spent = true;
      return send(response, 200, { ...tokens, refresh_token: fresh });
    }
    if (fresh) {
      this.refreshTokens.delete(fresh);
      this.issued.refreshTokens.pop();
    }
    return send(response, 200, mode === 'same' ? { ...tokens, refresh_token: presented } : tokens);
  }

  /**
   * Revocation as the provider asks for it: RFC 7009 (client authenticated, or not: Google), or the
   * access token ending its grant (Dropbox's /2/auth/token/revoke, Clio's deauthorize), presented as
   * the provider's API takes it (presentedToken).
   */
  revoke(
    provider: string,
    tenant: string,
    request: IncomingMessage,
    form: URLSearchParams,
    response: ServerResponse,
  ) {
    const style = this.shapeOf(provider)?.revocation ?? 'rfc7009';
    if (style === 'bearer') {
      const fake = this.fakes.find((f) => f.id === provider);
      const grant = this.liveGrant((fake && presentedToken(fake, request)) ?? '');
      if (!grant || grant.client.provider !== provider || grant.tenant !== tenant)
        return this.invalidToken(response);
      this.revokeGrant(grant);
      return send(response, 200, null);
    }
    const presented = form.get('token') ?? '';
    const refresh = this.refreshTokens.get(presented);
    const access = this.accessTokens.get(presented);
    if (style === 'rfc7009-public') {
      // No client authentication: the token itself says which grant; one unknown is refused.
      const grant = (refresh ?? access)?.grant;
      if (!grant || grant.client.provider !== provider || grant.tenant !== tenant || grant.revoked)
        return send(response, 400, { error: 'invalid_token', error_description: 'Token expired or revoked' });
      this.revokeGrant(grant);
      return send(response, 200, {});
    }
    const client = this.authenticate(provider, request, form);
    if (!client) return send(response, 401, { error: 'invalid_client' }, { 'WWW-Authenticate': 'Basic' });
    if (refresh && refresh.grant.client === client && refresh.grant.tenant === tenant)
      this.revokeGrant(refresh.grant);
    else if (access && access.grant.client === client && access.grant.tenant === tenant) {
      this.accessTokens.delete(presented);
      this.issued.revoked.push(presented);
    }
    send(response, 200, {}); // RFC 7009: unknown tokens are not an error
  }

  private invalidToken(response: ServerResponse) {
    send(response, 401, { error: 'invalid_token' }, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
  }

  /** The grant behind an access token while the token lives: not expired, its grant not revoked. */
  private liveGrant(token: string): Grant | undefined {
    const entry = this.accessTokens.get(token);
    return entry && !entry.grant.revoked && this.clock.now() <= entry.expiresAt ? entry.grant : undefined;
  }

  /** GrantDirectory, for the content APIs: only a token issued for that provider counts. */
  bearer(provider: string, token: string, tenant = ''): BearerGrant | undefined {
    const grant = this.liveGrant(token);
    if (!grant || grant.client.provider !== provider || grant.tenant !== tenant) return undefined;
    const { id: accountId, email, name } = grant.account;
    return { accountId, email, name, scopes: grant.scopes, clientId: grant.client.clientId };
  }

  /** As when the user removes the app at the provider: every grant of that provider (account) ends. */
  revokeGrants(provider: string, accountId?: string): number {
    const grants = new Set<Grant>();
    for (const { grant } of [...this.accessTokens.values(), ...this.refreshTokens.values()]) {
      const matches = grant.client.provider === provider && (!accountId || grant.account.id === accountId);
      if (matches && !grant.revoked) grants.add(grant);
    }
    for (const grant of grants) this.revokeGrant(grant);
    return grants.size;
  }

  account(request: IncomingMessage, response: ServerResponse) {
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
    const grant = this.liveGrant(bearer);
    if (!grant) {
      return send(
        response,
        401,
        { error: 'invalid_token' },
        { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
      );
    }
    const { id, email, name } = grant.account;
    send(response, 200, { id, email, name });
  }

  returnPage(query: URLSearchParams, response: ServerResponse) {
    const rows = [...query]
      .map(([k, v]) => `<li><code>${escapeHtml(k)}</code> = <code>${escapeHtml(v)}</code></li>`)
      .join('');
    send(response, 200, page('Returned', `<h1>Back at the return_url</h1><ul>${rows}</ul>`));
  }

  async handle(request: IncomingMessage, response: ServerResponse, body: string) {
    const target = new URL(request.url ?? '/', this.url);
    const form = new URLSearchParams(body);
    // A fake's OAuth endpoints are at its provider's own paths; the sandbox's at /<provider>/<action>.
    const fake = fakeOwning(this.fakes, target.pathname);
    const [, provider = '', action = ''] = fake
      ? ['', fake.id, oauthAction(fake, target.pathname) ?? '']
      : target.pathname.split('/');
    const tenant = (fake && fakePath(fake, target.pathname)?.tenant) ?? '';
    if (this.options.exposeIssued && target.pathname === '/__sandbox/issued')
      return send(response, 200, this.issued);
    if (
      this.options.exposeIssued &&
      target.pathname === '/__sandbox/next-token-error' &&
      request.method === 'POST'
    ) {
      const input = JSON.parse(body || '{}') as {
        provider?: string;
        error?: TokenError;
        retry_after?: number;
      };
      this.nextTokenError.set(input.provider ?? '', {
        error: input.error ?? 'invalid_grant',
        retryAfter: input.retry_after ?? 30,
      });
      return send(response, 204, '');
    }
    if (target.pathname === '/return') return this.returnPage(target.searchParams, response);
    const known = [...this.clients.values()].some((c) => c.provider === provider);
    if (!known) return send(response, 404, { error: 'not_found' });
    if (action === 'authorize' && request.method === 'GET')
      return this.authorizeGet(provider, tenant, target.searchParams, response);
    if (action === 'authorize' && request.method === 'POST') return this.authorizePost(form, response);
    if (action === 'token' && request.method === 'POST') {
      this.token(provider, tenant, request, form, response);
      const grantType = form.get('grant_type') ?? '';
      this.issued.tokenRequests.push({ provider, grantType, status: response.statusCode });
      return;
    }
    if (action === 'revoke' && request.method === 'POST')
      return this.revoke(provider, tenant, request, form, response);
    if (action === 'account' && request.method === 'GET' && !fake) return this.account(request, response);
    send(response, 404, { error: 'not_found' });
  }
}

export interface SandboxOptions {
  port?: number;
  host?: string;
  clock?: Clock;
  /** The test hooks under /__sandbox/ (LOCAL_TEST_HOOKS=1 under `npm start`). */
  exposeIssued?: boolean;
  /** Content-API requests per account per minute before 429 (default 100,000). */
  apiRequestsPerMinute?: number;
  /** Upload bodies larger than this are refused with 413 (default 100 MiB). */
  maxUploadBytes?: number;
  /** The fakes of real providers to serve (default: all of ./providers/). */
  fakes?: readonly ProviderFake[];
  /**
   * Every request waits this long before it is served (default 0): a provider across a network, for
   * the import bench's latency mode, which measures how an importer overlaps its waits.
   */
  latencyMs?: number;
}

export async function startSandboxProvider(options: SandboxOptions = {}): Promise<SandboxProvider> {
  const clock = options.clock ?? systemClock;
  const fakes = options.fakes ?? PROVIDER_FAKES;
  const sandbox = new SandboxAuthorizationServer(clock, options, fakes);
  // The content APIs read and write bodies as streams, so they take their requests before buffering.
  const content = mountSandboxContent({
    clock,
    grants: sandbox,
    testHooks: Boolean(options.exposeIssued),
    apiRequestsPerMinute: options.apiRequestsPerMinute,
    maxUploadBytes: options.maxUploadBytes,
    fakes,
    origin: () => sandbox.url,
  });
  const serve = (request: IncomingMessage, response: ServerResponse) => {
    if (content.serve(request, response)) return;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      sandbox.handle(request, response, Buffer.concat(chunks).toString('utf8')).catch(() => {
        if (!response.headersSent) send(response, 500, { error: 'server_error' });
      });
    });
  };
  const latency = options.latencyMs ?? 0;
  // A request's body is not read until it is served, so the wait holds the whole exchange back.
  const server: Server = createServer(
    latency > 0 ? (request, response) => void setTimeout(serve, latency, request, response) : serve,
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const url = `http://localhost:${(server.address() as AddressInfo).port}`;
  sandbox.url = url;

  return {
    url,
    endpoints: (provider) => {
      const fake = fakes.find((f) => f.id === provider);
      return fake
        ? fake.endpoints(url)
        : {
            authorizeUrl: `${url}/${provider}/authorize`,
            tokenUrl: `${url}/${provider}/token`,
            revokeUrl: `${url}/${provider}/revoke`,
            accountUrl: `${url}/${provider}/account`,
            issuer: `${url}/${provider}`,
            apiUrl: `${url}/${provider}/api/v1`,
          };
    },
    register: (client) => sandbox.clients.set(`${client.provider}:${client.clientId}`, client),
    issued: () => structuredClone(sandbox.issued),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
