// Connection use cases: create a pending connection with its one-time link, read and list, disconnect.
import { isoTime } from '../../platform/clock';
import type { Deps } from '../../platform/ports';
import { open } from '../../platform/envelope';
import { newId } from '../../platform/ids';
import { ConflictError, NotFoundError } from '../../platform/errors';
import { invalidField } from '../../platform/validation';
import type { Logger } from '../../platform/logger';
import { logger } from '../../platform/logger';
import type { Pagination } from '../../platform/pagination';
import type { ConnectorConfig } from '../infra/config';
import { CONNECT_LINK_TTL_MS, STATE_TTL_MS, newConnectToken } from '../domain/flow-crypto';
import type { ProviderDeadline } from '../infra/oauth-client';
import { ProviderHttpError, revokeToken } from '../infra/oauth-client';
import { enabledProviders, isProviderEnabled } from './provider-settings';
import type { ProviderId } from '../domain/providers';
import type { ConnectionParams } from '../domain/connection-params';
import { accountKey } from '../domain/connection-params';
import { FROM_BODY, acceptParams } from './connection-params';
import { ProviderSettings } from '../infra/repositories/provider-settings';
import { PROVIDERS, providerConfigured } from '../domain/providers';
import type { ConnectionStatus } from '../domain/connection';
import { APPLIES_FROM } from '../domain/connection-decide';
import type { ConnectionItem, TokenItem } from '../infra/repositories/connections';
import { ConnectionRepository } from '../infra/repositories/connections';
import { ConnectFlowRepository } from '../infra/repositories/connect-flows';
import { flushConnection, transition } from './connection-changes';
import { effectiveStatus } from '../domain/token-policy';
import type { Connection, ConnectionDetail, ConnectionList, PendingConnection } from '../api/views';

/** Statuses of a connection that holds a live grant: completing a flow for its account reconnects it. */
export const ACTIVE_STATUSES: ReadonlySet<ConnectionStatus> = new Set(APPLIES_FROM.reconnect);

/** Links and flow records are kept a day past expiry so a late visit still reads 410, not 404. */
export const RECORD_GRACE_SECONDS = 24 * 3600;

export type { Connection } from '../api/views';

export const tokenContext = (organizationId: string, connectionId: string) => ({
  organization: organizationId,
  connection: connectionId,
});

/** `now`: a throttle whose window has passed reads as the status it returns to, even before the sweep. */
export function connectionView(item: ConnectionItem, enabled: boolean, now: number): Connection {
  return {
    id: item.id,
    provider: item.provider,
    status: effectiveStatus(item, now),
    enabled,
    scope_tier: item.scopeTier,
    ...(item.params ? { params: item.params } : {}),
    account: item.account ?? null,
    created_at: isoTime(item.createdAt),
    updated_at: isoTime(item.updatedAt),
    // The link lives 10 minutes from creation, the flow it opens 10 more: past both, nothing completes it.
    ...(item.status === 'pending' ? pendingWindow(item.createdAt, now) : {}),
  };
}

/** Until when a pending connection's flow can complete, and whether that time has passed (abandoned). */
function pendingWindow(createdAt: number, now: number): { pending_until: string; abandoned: boolean } {
  const until = createdAt + CONNECT_LINK_TTL_MS + STATE_TTL_MS;
  return { pending_until: isoTime(until), abandoned: now >= until };
}

export async function createConnection(
  deps: Deps,
  organizationId: string,
  input: {
    provider: ProviderId;
    return_url: string;
    scope_tier?: string;
    params?: Record<string, string | undefined>;
  },
  baseUrl: string,
): Promise<PendingConnection> {
  if (!providerConfigured(input.provider)) {
    throw invalidField(
      'request body',
      'provider',
      `${input.provider} is not configured in this deployment (GET /connectors/v1/providers lists those that are)`,
    );
  }
  const definition = PROVIDERS[input.provider];
  const tier = input.scope_tier ?? definition.defaultTier;
  if (!Object.hasOwn(definition.scopeTiers, tier)) {
    const known = Object.keys(definition.scopeTiers).join(', ');
    throw invalidField('request body', 'scope_tier', `unknown for ${input.provider}; known: ${known}`);
  }
  // What the server gives is kept; what it leaves out, the connect page asks the user for.
  const given = Object.entries(input.params ?? {}).filter(
    (entry): entry is [string, string] => entry[1] !== undefined,
  );
  const params = given.length
    ? await acceptParams(input.provider, Object.fromEntries(given), FROM_BODY, () =>
        ProviderSettings.of(deps).allowedHosts(organizationId, input.provider),
      )
    : undefined;
  const now = deps.clock.now();
  const id = newId('conn');
  const createdAt = now;
  await ConnectionRepository.of(deps).create({
    id,
    organizationId,
    provider: input.provider,
    status: 'pending',
    scopeTier: tier,
    returnUrl: input.return_url,
    ...(params ? { params } : {}),
    createdAt,
    updatedAt: createdAt,
  });
  return mintConnectLink(
    deps,
    { id, organizationId, provider: input.provider, scopeTier: tier },
    now,
    baseUrl,
  );
}

/**
 * A one-time connect link for a pending connection: only the token's hash is stored, and the
 * connection names it (`linkHash`), so a reissued link retires the one before it.
 */
async function mintConnectLink(
  deps: Deps,
  connection: {
    id: string;
    organizationId: string;
    provider: ProviderId;
    scopeTier: string;
    linkHash?: string;
  },
  now: number,
  baseUrl: string,
): Promise<PendingConnection> {
  const flows = ConnectFlowRepository.of(deps);
  const { token, hash } = newConnectToken();
  const linkExpiresAt = now + CONNECT_LINK_TTL_MS;
  await flows.putLink(hash, {
    connectionId: connection.id,
    organizationId: connection.organizationId,
    provider: connection.provider,
    scopeTier: connection.scopeTier,
    linkExpiresAt,
    ttl: Math.ceil(linkExpiresAt / 1000) + RECORD_GRACE_SECONDS,
  });
  // The newest link is the live one: the connect flow refuses a link the connection no longer names.
  const named = await transition(deps, connection.id, { kind: 'name_link', hash }, logger);
  if (named.outcome !== 'changed') {
    await flows.deleteLink(hash);
    throw new ConflictError('The connection is no longer pending');
  }
  if (connection.linkHash && connection.linkHash !== hash) await flows.deleteLink(connection.linkHash);
  return {
    connection_id: connection.id,
    connect_url: `${baseUrl}/connectors/v1/connect/${token}`,
    expires_at: isoTime(linkExpiresAt),
  };
}

/**
 * A retried create (same Idempotency-Key) answers with the same connection and a fresh connect link:
 * the first link's token is stored only as a hash, so it cannot be shown again. A connection that is
 * no longer pending has no use for a link: 409.
 */
export async function reissueConnectLink(
  deps: Deps,
  organizationId: string,
  connectionId: string,
  baseUrl: string,
): Promise<PendingConnection> {
  const connection = await owned(ConnectionRepository.of(deps), organizationId, connectionId);
  if (connection.status !== 'pending') {
    throw new ConflictError(
      `The connection created with this Idempotency-Key is ${connection.status}; GET /connectors/v1/connections/${connectionId}`,
    );
  }
  return mintConnectLink(deps, connection, deps.clock.now(), baseUrl);
}

/** The organization's connection; another organization's id reads as not found. */
export async function owned(
  connections: ConnectionRepository,
  organizationId: string,
  id: string,
): Promise<ConnectionItem> {
  const item = await connections.get(id);
  if (!item || item.organizationId !== organizationId) throw new NotFoundError('Connection not found');
  return item;
}

/** One connection, with the statuses it went through (newest first; the list view leaves them out). */
export async function getConnection(
  deps: Deps,
  organizationId: string,
  id: string,
): Promise<ConnectionDetail> {
  const store = ConnectionRepository.of(deps);
  const item = await owned(store, organizationId, id);
  const [enabled, history] = await Promise.all([
    isProviderEnabled(deps, organizationId, item.provider),
    store.statusHistory(id),
  ]);
  return {
    ...connectionView(item, enabled, deps.clock.now()),
    status_history: history.map((entry) => ({ status: entry.status, at: isoTime(entry.at) })),
  };
}

export async function listConnections(
  deps: Deps,
  organizationId: string,
  query: Pagination & { provider?: ProviderId; status?: ConnectionStatus },
): Promise<ConnectionList> {
  const now = deps.clock.now();
  const window = await ConnectionRepository.of(deps).list(
    organizationId,
    query,
    (c) =>
      (!query.provider || c.provider === query.provider) &&
      (!query.status || effectiveStatus(c, now) === query.status),
  );
  const enabled = await enabledProviders(deps, organizationId);
  return {
    data: window.items.map((item) => connectionView(item, enabled[item.provider], now)),
    limit: query.limit,
    offset: query.offset,
    has_more: window.hasMore,
  };
}

const REVOKE_ATTEMPTS = 3;
const REVOKE_ATTEMPT_TIMEOUT_MS = 2_000;

/** Opens a connection's stored tokens and revokes its grant at the provider (best effort). */
export async function revokeAtProvider(
  deps: Pick<Deps, 'keys'>,
  config: ConnectorConfig,
  tokens: TokenItem,
  log: Logger,
): Promise<boolean> {
  let plain: { access_token: string; refresh_token?: string };
  try {
    const context = tokenContext(tokens.organizationId, tokens.connectionId);
    plain = JSON.parse(await open(deps.keys, tokens.sealed, context)) as typeof plain;
  } catch (error) {
    log.warn('provider revocation skipped: tokens could not be opened', {
      connectionId: tokens.connectionId,
      error,
    });
    return false;
  }
  const grant = { accessToken: plain.access_token, refreshToken: plain.refresh_token };
  return revokeGrant(config, tokens, grant, tokens.connectionId, log);
}

/**
 * Revokes a grant at the provider (the refresh token, which ends the grant, else the access token):
 * a few quick retries on network errors, 429 and 5xx, bounded in time. Disconnecting never waits on,
 * or fails because of, the provider.
 */
export async function revokeGrant(
  config: ConnectorConfig,
  /** The provider, and the connection's params (its region or server) where it has any. */
  { provider, params }: { provider: ProviderId; params?: ConnectionParams },
  grant: { accessToken: string; refreshToken?: string },
  connectionId: string,
  log: Logger,
  /** The caller's time budget (the OAuth callback's): attempts and pauses stop when it runs out. */
  deadline?: ProviderDeadline,
): Promise<boolean> {
  const definition = PROVIDERS[provider];
  const revocation = definition.revocation;
  if (revocation.style === 'none') {
    // Nothing to call (Microsoft): our tokens are deleted; the user removes the consent at the provider.
    log.info('provider has no token revocation: tokens deleted here only', { connectionId, provider });
    return false;
  }
  // A bearer-style revocation is authorized by the access token; RFC 7009 ends the grant with the refresh token.
  const [token, hint] =
    grant.refreshToken && revocation.style === 'rfc7009'
      ? [grant.refreshToken, 'refresh_token' as const]
      : [grant.accessToken, 'access_token' as const];
  for (let attempt = 1; attempt <= REVOKE_ATTEMPTS; attempt++) {
    const timeoutMs = deadline ? deadline.timeout(REVOKE_ATTEMPT_TIMEOUT_MS) : REVOKE_ATTEMPT_TIMEOUT_MS;
    if (timeoutMs === 0) {
      log.warn('provider revocation given up: no time left', { connectionId, attempt });
      return false;
    }
    try {
      await revokeToken(
        await config.client(provider, params),
        { ...definition, revocation },
        token,
        hint,
        timeoutMs,
      );
      return true;
    } catch (error) {
      const retriable =
        error instanceof ProviderHttpError &&
        (error.status === undefined || error.status === 429 || error.status >= 500);
      const details =
        error instanceof ProviderHttpError ? { status: error.status, oauthError: error.oauthError } : {};
      log.warn('provider revocation failed', { connectionId, attempt, ...details });
      if (!retriable || attempt === REVOKE_ATTEMPTS) return false;
      const pauseMs = 100 * 3 ** attempt;
      if (deadline && deadline.left() < pauseMs + REVOKE_ATTEMPT_TIMEOUT_MS / 4) return false;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
  return false;
}

/**
 * DELETE: revoke and delete the tokens, mark revoked with connection.revoked in the same write (`purge`
 * as the caller asked; the purge itself is started by the caller), publish it. Idempotent: a repeat
 * publishes what an interrupted earlier call left in the outbox, nothing else.
 */
export async function disconnect(
  deps: Deps,
  config: ConnectorConfig,
  organizationId: string,
  id: string,
  log: Logger,
  options: { purge?: boolean } = {},
): Promise<void> {
  const purge = options.purge ?? false;
  const store = ConnectionRepository.of(deps);
  const connection = await owned(store, organizationId, id);
  if (connection.status === 'revoked') {
    await flushConnection(deps, connection, log);
    return;
  }
  const tokens = await store.getTokens(id);
  if (tokens) {
    const revoked = await revokeAtProvider(deps, config, tokens, log);
    log.info('connection tokens deleted', { connectionId: id, revokedAtProvider: revoked });
    await store.deleteTokens(id);
  }
  const result = await transition(deps, connection, { kind: 'revoke', purge }, log);
  if (result.outcome !== 'changed') return; // a concurrent DELETE made the change and sent its event
  const { account } = result.before;
  if (!account) return;
  const key = accountKey(PROVIDERS[connection.provider], connection.params ?? {}, account.external_id);
  await store.releaseAccount(organizationId, connection.provider, key, id);
}
