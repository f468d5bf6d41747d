// The hosted OAuth flow: opening a connect link (single use) and the provider's callback, which
// exchanges the code, stores the tokens sealed and sends the browser back to return_url.
import { timingSafeEqual } from 'node:crypto';
import type { Deps } from '../../platform/ports';
import { open, seal } from '../../platform/envelope';
import type { Logger } from '../../platform/logger';
import type { ConnectorConfig } from '../infra/config';
import { ACTIVE_STATUSES, RECORD_GRACE_SECONDS, revokeGrant, tokenContext } from './connections';
import {
  BROWSER_COOKIE,
  STATE_TTL_MS,
  appendQuery,
  authorizeUrl,
  bindingCookie,
  browserBinding,
  callbackUrl,
  isConnectToken,
  newNonce,
  newPkce,
  readCookie,
  sha256,
  signState,
  verifyState,
} from '../domain/flow-crypto';
import type { TokenSet } from '../infra/oauth-client';
import { ProviderDeadline, ProviderHttpError, exchangeCode, fetchAccount } from '../infra/oauth-client';
import { isProviderEnabled } from './provider-settings';
import type { ProviderId } from '../domain/providers';
import { PROVIDERS } from '../domain/providers';
import type { ConnectionParamSpec } from '../domain/provider-definition';
import { accountKey, missingParams, paramSpecs } from '../domain/connection-params';
import { flowParams } from './connection-params';
import { ProviderSettings } from '../infra/repositories/provider-settings';
import type { Account } from '../domain/connection';
import type { ConnectionItem, TokenItem, TokenRecord } from '../infra/repositories/connections';
import { ConnectionRepository } from '../infra/repositories/connections';
import type { FlowItem } from '../infra/repositories/connect-flows';
import { ConnectFlowRepository } from '../infra/repositories/connect-flows';
import { transition } from './connection-changes';
import { GoneError, NotFoundError } from '../../platform/errors';
import { invalidField } from '../../platform/validation';

export const RETURN_ERRORS = [
  'access_denied',
  'provider_error',
  'missing_code',
  'connector_scope_not_enabled',
  'oauth_flow_inactive',
  'oauth_exchange_failed',
  'issuer_mismatch',
] as const;
export type ReturnError = (typeof RETURN_ERRORS)[number];

export interface FlowRedirect {
  location: string;
  /** Set-Cookie value binding the browser to the flow (opening a link only). */
  cookie?: string;
  /** For the log: how the flow ended. */
  outcome: ReturnError | 'consent' | 'connected' | 'reconnected';
  connectionId: string;
}

/**
 * The callback's provider calls, bounded so that every outcome is a redirect well inside API Gateway's
 * 29 s (a gateway 504 would strand the user on an error page): the code exchange and the account lookup
 * each have a cap, and together with any revocation of a grant not kept they share one budget. The
 * route's Lambda timeout (routes.ts, 25 s) is the budget plus room for the table and KMS calls around
 * them; test/unit/connectors-callback-time.test.ts checks the arithmetic.
 */
export interface CallbackLimits {
  budgetMs: number;
  tokenMs: number;
  accountMs: number;
}

export const CALLBACK_LIMITS: CallbackLimits = { budgetMs: 20_000, tokenMs: 8_000, accountMs: 6_000 };

const verifierContext = (organizationId: string, connectionId: string) => ({
  ...tokenContext(organizationId, connectionId),
  purpose: 'pkce_verifier',
});

/** The link a connect token names, when it can still start a flow (404 unknown or used, 410 expired). */
async function usableLink(flows: ConnectFlowRepository, token: string, now: number) {
  if (!isConnectToken(token)) throw new NotFoundError('This connect link is not valid');
  const link = await flows.getLink(sha256(token));
  if (!link) throw new NotFoundError('This connect link is not valid');
  if (link.usedAt !== undefined) throw new NotFoundError('This connect link has already been used');
  if (now > link.linkExpiresAt) throw new GoneError('This connect link has expired; create a new connection');
  return link;
}

/**
 * GET {connect_url}: what the interstitial page needs, spending nothing. A link-preview bot that
 * fetches the URL sees the page; only the person's click (a POST) starts the flow.
 */
export async function describeConnectLink(
  deps: Pick<Deps, 'tables' | 'clock'>,
  token: string,
): Promise<{ providerName: string; ask: [string, ConnectionParamSpec][] }> {
  const link = await usableLink(ConnectFlowRepository.of(deps), token, deps.clock.now());
  const definition = PROVIDERS[link.provider];
  // The params the customer's server did not give: the page asks the user (defaults preselected).
  const connection = paramSpecs(definition).length
    ? await ConnectionRepository.of(deps).get(link.connectionId)
    : undefined;
  const missing = new Set(missingParams(definition, connection?.params));
  return {
    providerName: definition.displayName,
    ask: paramSpecs(definition).filter(([name]) => missing.has(name)),
  };
}

/** POST {connect_url} (the page's button): consume the link once, bind the browser, send it to the provider. */
export async function openConnectLink(
  deps: Deps,
  config: ConnectorConfig,
  input: {
    token: string;
    cookieHeader?: string;
    baseUrl: string;
    /** The page's answers for the params the customer's server did not give. */
    answers?: Record<string, string>;
  },
): Promise<FlowRedirect> {
  const flows = ConnectFlowRepository.of(deps);
  const hash = sha256(input.token);
  const now = deps.clock.now();
  const link = await usableLink(flows, input.token, now);
  const connections = ConnectionRepository.of(deps);
  // Checked before the link is spent: a wrong answer leaves the page usable for a second try. (A
  // pending connection's params do not change, so reading them before the link is spent is safe.)
  const params = paramSpecs(PROVIDERS[link.provider]).length
    ? await flowParams(
        link.provider,
        (await connections.get(link.connectionId))?.params,
        input.answers ?? {},
        () => ProviderSettings.of(deps).allowedHosts(link.organizationId, link.provider),
      )
    : undefined;
  if (!(await flows.consumeLink(hash, now)))
    throw new NotFoundError('This connect link has already been used');

  const connection = await connections.get(link.connectionId);
  if (!connection) throw new NotFoundError('This connect link is not valid');
  // A retried create reissued the link: only the newest one starts a flow.
  if (connection.linkHash !== undefined && connection.linkHash !== hash)
    throw new NotFoundError('This connect link was replaced by a newer one');
  const end = (outcome: ReturnError): FlowRedirect => ({
    location: appendQuery(connection.returnUrl, 'error', outcome),
    outcome,
    connectionId: connection.id,
  });
  if (connection.status !== 'pending') return end('oauth_flow_inactive');
  if (!(await isProviderEnabled(deps, connection.organizationId, link.provider))) {
    return end('connector_scope_not_enabled');
  }

  // The tier comes from the stored link, never from the request: the query string cannot change it.
  const tier = PROVIDERS[link.provider].scopeTiers[link.scopeTier]!;
  const binding = browserBinding(input.cookieHeader);
  const nonce = newNonce();
  const pkce = newPkce();
  const flowExpiresAt = now + STATE_TTL_MS;
  await flows.putFlow(nonce, {
    connectionId: connection.id,
    organizationId: connection.organizationId,
    provider: link.provider,
    scopeTier: link.scopeTier,
    ...(params ? { params } : {}),
    browserHash: sha256(binding.value),
    verifier: await seal(deps.keys, pkce.verifier, verifierContext(connection.organizationId, connection.id)),
    flowExpiresAt,
    ttl: Math.ceil(flowExpiresAt / 1000) + RECORD_GRACE_SECONDS,
  });
  const state = signState(await config.stateKey(), {
    c: connection.id,
    n: nonce,
    e: flowExpiresAt,
    p: link.provider,
    t: link.scopeTier,
  });
  const endpoints = config.provider(link.provider, params);
  return {
    location: authorizeUrl(endpoints.authorizeUrl, {
      clientId: endpoints.clientId,
      redirectUri: callbackUrl(input.baseUrl, link.provider),
      scopes: tier.scopes,
      separator: PROVIDERS[link.provider].scopeSeparator,
      state,
      challenge: pkce.challenge,
      extra: PROVIDERS[link.provider].authorizeParams,
    }),
    cookie: bindingCookie(binding.value, input.baseUrl),
    outcome: 'consent',
    connectionId: connection.id,
  };
}

const sameHash = (a: string, b: string): boolean => {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
};

export interface CallbackInput {
  provider: ProviderId;
  query: { code?: string; state?: string; error?: string; iss?: string };
  cookieHeader?: string;
  baseUrl: string;
}

interface ActiveFlow {
  /** The flow's one-time nonce (from the signed state). */
  nonce: string;
  flow: FlowItem;
  connection: ConnectionItem;
  /** Whether the signed state was still in date (an expired one still names its flow). */
  inDate: boolean;
}

/** Step 1: the signed state names a flow and its pending connection, or the callback is forged. */
async function loadFlow(
  deps: Pick<Deps, 'tables'>,
  config: ConnectorConfig,
  input: CallbackInput,
  now: number,
): Promise<ActiveFlow> {
  const invalid = () => invalidField('query parameters', 'state', 'missing, forged or unknown');
  const check = verifyState(await config.stateKey(), input.query.state, now);
  if (!check.ok && check.reason !== 'expired') throw invalid();
  const { payload } = check;
  if (payload.p !== input.provider) throw invalid();
  const [flow, connection] = await Promise.all([
    ConnectFlowRepository.of(deps).getFlow(payload.n),
    ConnectionRepository.of(deps).get(payload.c),
  ]);
  if (!flow || !connection || flow.connectionId !== connection.id) throw invalid();
  return { nonce: payload.n, flow, connection, inDate: check.ok };
}

/** Step 2: the flow is used once, in date, by the browser that started it, for a pending connection. */
async function flowRefusal(
  deps: Deps,
  config: ConnectorConfig,
  { nonce, flow, connection, inDate }: ActiveFlow,
  input: CallbackInput,
  now: number,
  log: Logger,
): Promise<ReturnError | undefined> {
  if (!inDate || now > flow.flowExpiresAt) return 'oauth_flow_inactive';
  if (!(await ConnectFlowRepository.of(deps).consumeFlow(nonce, now))) {
    return 'oauth_flow_inactive';
  }
  const cookie = readCookie(input.cookieHeader, BROWSER_COOKIE);
  if (!cookie || !sameHash(sha256(cookie), flow.browserHash)) return 'oauth_flow_inactive';
  if (connection.status !== 'pending') return 'oauth_flow_inactive';
  // RFC 9207 (mix-up defence): a provider that advertises `iss` must send its own, on errors too;
  // the code is never exchanged otherwise.
  const issuer = config.issuer?.(flow.provider, flow.params);
  if (issuer !== undefined && input.query.iss !== issuer) {
    log.warn('authorization response issuer mismatch', { connectionId: connection.id });
    return 'issuer_mismatch';
  }
  if (input.query.error) return input.query.error === 'access_denied' ? 'access_denied' : 'provider_error';
  if (!input.query.code) return 'missing_code';
  if (!(await isProviderEnabled(deps, connection.organizationId, flow.provider))) {
    return 'connector_scope_not_enabled';
  }
  return undefined;
}

type Grant = { tokens: TokenSet; granted: string[]; account: Account };

/** Step 3: code -> tokens (PKCE), the scopes checked, the account looked up; a grant not kept is revoked. */
async function obtainGrant(
  deps: Deps,
  config: ConnectorConfig,
  { flow, connection }: ActiveFlow,
  input: CallbackInput & { query: { code: string } },
  log: Logger,
  time: { deadline: ProviderDeadline; limits: CallbackLimits },
): Promise<Grant | ReturnError> {
  const definition = PROVIDERS[flow.provider];
  const client = await config.client(flow.provider, flow.params);
  const failed = (what: string, error: ProviderHttpError) => {
    log.warn(what, { connectionId: connection.id, status: error.status, oauthError: error.oauthError });
    return 'oauth_exchange_failed' as const;
  };
  let tokens: TokenSet;
  try {
    const verifier = await open(
      deps.keys,
      flow.verifier,
      verifierContext(connection.organizationId, connection.id),
    );
    tokens = await exchangeCode(
      client,
      definition,
      { code: input.query.code, verifier, redirectUri: callbackUrl(input.baseUrl, flow.provider) },
      time.deadline.timeout(time.limits.tokenMs),
    );
  } catch (error) {
    if (!(error instanceof ProviderHttpError)) throw error;
    return failed('provider code exchange failed', error);
  }
  const discard = async (outcome: ReturnError) => {
    await revokeGrant(config, flow, tokens, connection.id, log, time.deadline);
    return outcome;
  };
  const tier = definition.scopeTiers[flow.scopeTier]!;
  const granted = tokens.scopes ?? tier.scopes;
  const missing = tier.required.filter((scope) => !granted.includes(scope));
  if (missing.length) {
    log.info('provider granted fewer scopes than required', { connectionId: connection.id, missing });
    return discard('connector_scope_not_enabled');
  }
  try {
    const timeoutMs = time.deadline.timeout(time.limits.accountMs);
    return {
      tokens,
      granted,
      account: await fetchAccount(client, definition, tokens.accessToken, timeoutMs),
    };
  } catch (error) {
    if (!(error instanceof ProviderHttpError)) throw error;
    return discard(failed('provider account lookup failed', error));
  }
}

/** The provider's redirect back: every way it can end is a redirect to return_url, except a forged state. */
export async function completeConnection(
  deps: Deps,
  config: ConnectorConfig,
  input: CallbackInput,
  log: Logger,
  limits: CallbackLimits = CALLBACK_LIMITS,
): Promise<FlowRedirect> {
  // From the first line: the table and KMS calls before the exchange spend the same 29 s.
  const deadline = new ProviderDeadline(limits.budgetMs);
  const now = deps.clock.now();
  const active = await loadFlow(deps, config, input, now);
  const { connection } = active;
  const end = (outcome: ReturnError): FlowRedirect => ({
    location: appendQuery(connection.returnUrl, 'error', outcome),
    outcome,
    connectionId: connection.id,
  });
  const refusal = await flowRefusal(deps, config, active, input, now, log);
  if (refusal) return end(refusal);
  const grant = await obtainGrant(
    deps,
    config,
    active,
    { ...input, query: { ...input.query, code: input.query.code! } },
    log,
    { deadline, limits },
  );
  if (typeof grant === 'string') return end(grant);

  const attached = await attach(
    deps,
    config,
    log,
    // The flow holds every param the consent was given under (the connect page's answers too).
    { ...connection, ...(active.flow.params ? { params: active.flow.params } : {}) },
    grant.account,
    grant.tokens,
    grant.granted,
    deadline,
  );
  if (!attached) return end('oauth_flow_inactive');
  const reconnected = attached !== connection.id;
  log.info('connection completed', {
    connectionId: attached,
    pendingConnectionId: connection.id,
    reconnected,
  });
  return {
    location: appendQuery(connection.returnUrl, 'connection_id', attached),
    outcome: reconnected ? 'reconnected' : 'connected',
    connectionId: attached,
  };
}

async function sealTokens(
  deps: Pick<Deps, 'keys' | 'clock'>,
  connection: ConnectionItem,
  tokens: TokenSet,
  scopes: string[],
  tokenVersion: number,
): Promise<TokenRecord> {
  const now = deps.clock.now();
  const lifetime = tokens.expiresInSeconds ?? PROVIDERS[connection.provider].defaultAccessTokenSeconds;
  const secret = JSON.stringify({ access_token: tokens.accessToken, refresh_token: tokens.refreshToken });
  return {
    connectionId: connection.id,
    organizationId: connection.organizationId,
    provider: connection.provider,
    ...(connection.params ? { params: connection.params } : {}),
    sealed: await seal(deps.keys, secret, tokenContext(connection.organizationId, connection.id)),
    tokenVersion,
    tokenType: tokens.tokenType,
    scopes,
    accessTokenExpiresAt: now + lifetime * 1000,
    obtainedAt: now,
  };
}

/**
 * Replaces a connection's tokens with a new grant: version n+1 over whatever version is stored.
 * Returns the tokens it replaced (a reconnect's superseded grant), if any.
 */
async function storeTokens(
  deps: Deps,
  store: ConnectionRepository,
  connection: ConnectionItem,
  tokens: TokenSet,
  scopes: string[],
): Promise<TokenItem | undefined> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const previous = await store.getTokens(connection.id);
    const current = previous?.tokenVersion ?? 0;
    const item = await sealTokens(deps, connection, tokens, scopes, current + 1);
    if (await store.putTokens(item, current)) return previous;
  }
  throw new Error('token write lost to concurrent writers five times');
}

/**
 * A reconnect replaced a grant: end the old one at the provider (best effort), so one account has one
 * live grant and DELETE, which revokes what is stored, leaves nothing behind. A provider that handed
 * back the same grant (same refresh token) is left alone: revoking it would end the new one too.
 */
async function revokeSuperseded(
  deps: Deps,
  config: ConnectorConfig,
  previous: TokenItem,
  tokens: TokenSet,
  log: Logger,
  deadline: ProviderDeadline,
): Promise<void> {
  let old: { access_token: string; refresh_token?: string };
  try {
    old = JSON.parse(
      await open(deps.keys, previous.sealed, tokenContext(previous.organizationId, previous.connectionId)),
    ) as typeof old;
  } catch (error) {
    log.warn('superseded grant not revoked: tokens could not be opened', {
      connectionId: previous.connectionId,
      error,
    });
    return;
  }
  const sameGrant =
    (old.refresh_token !== undefined && old.refresh_token === tokens.refreshToken) ||
    old.access_token === tokens.accessToken;
  if (sameGrant) return;
  const revoked = await revokeGrant(
    config,
    previous,
    { accessToken: old.access_token, refreshToken: old.refresh_token },
    previous.connectionId,
    log,
    deadline,
  );
  log.info('superseded grant revoked at the provider', { connectionId: previous.connectionId, revoked });
}

/**
 * Gives the grant a home: the connection already holding this provider account (a reconnect keeps its
 * id, links, ledgers and cursors; the pending one is retired), or else the pending connection itself.
 * Returns the connection id, or undefined when the pending connection was disconnected meanwhile.
 */
async function attach(
  deps: Deps,
  config: ConnectorConfig,
  log: Logger,
  pending: ConnectionItem,
  account: Account,
  tokens: TokenSet,
  scopes: string[],
  deadline: ProviderDeadline,
): Promise<string | undefined> {
  const { organizationId, provider } = pending;
  const store = ConnectionRepository.of(deps);
  // The same user id at another region or server is another account: the key says where.
  const key = accountKey(PROVIDERS[provider], pending.params ?? {}, account.external_id);
  for (let attempt = 0; attempt < 5; attempt++) {
    const holderId = await store.accountHolder(organizationId, provider, key);
    const holder = holderId && holderId !== pending.id ? await store.get(holderId) : undefined;
    if (holder && ACTIVE_STATUSES.has(holder.status)) {
      const superseded = await storeTokens(deps, store, holder, tokens, scopes);
      if (superseded) await revokeSuperseded(deps, config, superseded, tokens, log, deadline);
      const reconnected = await transition(deps, holder.id, { kind: 'reconnect', account }, log);
      if (reconnected.outcome !== 'changed') continue; // disconnected meanwhile: it released the account
      await transition(deps, pending.id, { kind: 'supersede', by: holder.id }, log);
      return holder.id;
    }
    if (!(await store.claimAccount(organizationId, provider, key, pending.id, holderId))) continue;
    await storeTokens(deps, store, pending, tokens, scopes);
    const connected = await transition(
      deps,
      pending.id,
      { kind: 'connect', account, ...(pending.params ? { params: pending.params } : {}) },
      log,
    );
    if (connected.outcome === 'changed') return pending.id;
    await store.deleteTokens(pending.id);
    await store.releaseAccount(organizationId, provider, key, pending.id);
    return undefined;
  }
  throw new Error('provider account claim lost to concurrent flows five times');
}
