// Calling a provider's content API through a connection: an access token from the lifecycle (refreshed
// on use), one forced refresh when the provider answers 401 (then reauth_required if it still refuses),
// a 429 that throttles the connection. What a failure means is told as the lifecycle's errors, which
// a route turns into an API error (apiErrorOf) and a worker into a run's next step (runFailureOf).
import type { Deps } from '../../platform/ports';
import { AppError, ConflictError, NotFoundError, ServiceUnavailableError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import type { ConnectorConfig } from '../infra/config';
import type { ContainerApi, ContentApi, ContentApiSettings } from '../infra/content';
import { ProviderApiError, containerApi, contentApi } from '../infra/content';
import type { ProviderId } from '../domain/providers';
import { PROVIDERS, providerExtraSetting } from '../domain/providers';
import type { RunFailure } from '../domain/sync-policy';
import { RUN_FAILURE_MESSAGES, classifyApiStatus } from '../domain/sync-policy';
import { EXPIRY_MARGIN_MS, TOKEN_REUSE_MS, effectiveStatus } from '../domain/token-policy';
import { AFTER_REFRESH } from '../domain/connection-decide';
import { isProviderEnabled } from './provider-settings';
import type { ConnectionItem } from '../infra/repositories/connections';
import { ConnectionRepository } from '../infra/repositories/connections';
import type { AccessToken, LifecycleDeps } from './token-lifecycle';
import {
  ConnectionThrottledError,
  ConnectionUnusableError,
  TokenUnavailableError,
  getAccessToken,
  markReauthRequired,
  refreshConnection,
  throttleConnection,
} from './token-lifecycle';

const settingsOf = (config: ConnectorConfig, provider: ProviderId): ContentApiSettings => ({
  apiUrl: config.provider(provider).apiUrl,
  setting: (name) => providerExtraSetting(provider, name),
  clientId: () => config.provider(provider).clientId,
});

/** The provider's whole client: the sync worker's imports and exports. */
export const contentFor = (config: ConnectorConfig, provider: ProviderId): Promise<ContentApi> =>
  contentApi(PROVIDERS[provider], settingsOf(config, provider));

/** What a route calls at the provider (browse, checkContainer), without the transfer code. */
export const containersFor = (config: ConnectorConfig, provider: ProviderId): Promise<ContainerApi> =>
  containerApi(PROVIDERS[provider], settingsOf(config, provider));

/**
 * Refuses work on a connection that cannot be used now (409, saying why) or whose provider is turned
 * off for the organization. A throttled connection is usable: the work waits for the throttle to end.
 */
export async function requireUsable(
  deps: Pick<Deps, 'tables' | 'clock'>,
  connection: ConnectionItem,
): Promise<void> {
  const status = effectiveStatus(connection, deps.clock.now());
  if (status === 'pending') throw new ConflictError('The connection has not finished its connect flow');
  if (status === 'revoked') throw new ConflictError('The connection was disconnected');
  if (status === 'reauth_required') {
    throw new ConflictError('The connection needs the user to reconnect (status reauth_required)');
  }
  if (!(await isProviderEnabled(deps, connection.organizationId, connection.provider))) {
    throw new ConflictError(
      `The ${connection.provider} provider is turned off for the organization (PATCH /connectors/v1/connections turns it on)`,
    );
  }
}

interface CallOptions {
  sleep?: (ms: number) => Promise<void>;
  /** Shared by the calls of one step (`reusedTokens()`): the token is read once, not per call. */
  reuse?: ReusedToken;
}

/**
 * The access token a run's step holds for its calls: the read (connection, tokens, decrypt) in flight
 * or done, and when it began. Concurrent calls share one read; it is read again after TOKEN_REUSE_MS,
 * close to the token's expiry, after a failed read and after the provider refused it.
 */
export interface ReusedToken {
  pending?: Promise<AccessToken>;
  readAt?: number;
}

export const reusedTokens = (): ReusedToken => ({});

function tokenFor(
  deps: LifecycleDeps,
  config: ConnectorConfig,
  connectionId: string,
  lifecycle: { log: Logger; sleep?: (ms: number) => Promise<void> },
  reuse: ReusedToken | undefined,
): Promise<AccessToken> {
  if (!reuse) return getAccessToken(deps, config, connectionId, lifecycle);
  const now = deps.clock.now();
  if (!reuse.pending || reuse.readAt === undefined || now - reuse.readAt >= TOKEN_REUSE_MS) {
    const pending = getAccessToken(deps, config, connectionId, lifecycle);
    reuse.pending = pending;
    reuse.readAt = now;
    // A failed read is not kept: the next call reads again (and fails as the lifecycle says).
    pending.catch(() => {
      if (reuse.pending === pending) reuse.pending = undefined;
    });
    return pending;
  }
  const held = reuse.pending;
  return held.then((token) => {
    if (token.expiresAt - deps.clock.now() > EXPIRY_MARGIN_MS) return token;
    if (reuse.pending === held) reuse.pending = undefined; // another call may have replaced it already
    return tokenFor(deps, config, connectionId, lifecycle, reuse);
  });
}

/**
 * Runs `call` with the connection's access token. A 401 gets one refresh and one more try; a second
 * 401 means the grant is gone (reauth_required, with its event). A 429 throttles the connection until
 * Retry-After and throws ConnectionThrottledError. Other provider failures are thrown as they are.
 */
export async function withProvider<T>(
  deps: LifecycleDeps,
  config: ConnectorConfig,
  connectionId: string,
  log: Logger,
  call: (accessToken: string) => Promise<T>,
  options: CallOptions = {},
): Promise<T> {
  const lifecycle = { log, sleep: options.sleep };
  for (let attempt = 1; ; attempt++) {
    // A retry after a refusal reads the refreshed token, never the one held.
    const token = await tokenFor(
      deps,
      config,
      connectionId,
      lifecycle,
      attempt === 1 ? options.reuse : undefined,
    );
    try {
      return await call(token.accessToken);
    } catch (error) {
      if (!(error instanceof ProviderApiError)) throw error;
      if (error.status === 429 || error.throttled) {
        const throttled = await throttleConnection(
          deps,
          connectionId,
          retryAfterOf(error, deps.clock.now()),
          lifecycle,
        );
        throw new ConnectionThrottledError(
          connectionId,
          new Date(throttled?.throttleEndsAt ?? deps.clock.now() + 60_000).toISOString(),
        );
      }
      if (error.status !== 401) throw error;
      // Refused: the next call of the step reads the token again (refreshed, or the connection's new state).
      if (options.reuse) options.reuse.pending = undefined;
      log.warn('provider refused the access token', { connectionId, attempt, operation: error.operation });
      if (
        attempt === 1 &&
        (await refreshedAfterRefusal(deps, config, connectionId, token.tokenVersion, lifecycle))
      )
        continue;
      // Refused again with a token just refreshed (or the refresh said the grant is gone).
      await markReauthRequired(deps, connectionId, token.tokenVersion, lifecycle);
      throw new ConnectionUnusableError(connectionId, 'reauth_required');
    }
  }
}

/** Forces a refresh of the token version the provider refused: true when a newer token is stored. */
async function refreshedAfterRefusal(
  deps: LifecycleDeps,
  config: ConnectorConfig,
  connectionId: string,
  refusedVersion: number,
  lifecycle: { log: Logger; sleep?: (ms: number) => Promise<void> },
): Promise<boolean> {
  const store = ConnectionRepository.of(deps);
  const [connection, tokens] = await Promise.all([store.get(connectionId), store.getTokens(connectionId)]);
  if (!connection || !tokens) throw new ConnectionUnusableError(connectionId, 'revoked');
  if (tokens.tokenVersion > refusedVersion) return true; // refreshed by someone else meanwhile
  const result = await refreshConnection(deps, config, connection, tokens, 'always', lifecycle);
  const action = AFTER_REFRESH[result.outcome].afterRefusal;
  switch (action) {
    case 'retry':
      return true;
    case 'reauth_required':
    case 'revoked':
      throw new ConnectionUnusableError(connectionId, action);
    case 'throttled':
      throw new ConnectionThrottledError(
        connectionId,
        new Date('until' in result ? result.until : deps.clock.now()).toISOString(),
      );
    case 'provider_unavailable':
    case 'refresh_in_progress':
      throw new TokenUnavailableError(connectionId, action);
  }
}

/** Retry-After in seconds from now (an HTTP date is read against our clock). */
function retryAfterOf(error: ProviderApiError, now: number): number | undefined {
  if (error.retryAfterSeconds !== undefined) return error.retryAfterSeconds;
  return error.retryAt !== undefined ? Math.max(0, (error.retryAt - now) / 1000) : undefined;
}

/** What a failed provider call tells an API client. */
export function apiErrorOf(
  error: unknown,
  now: number,
  notFound: AppError = new NotFoundError('Not found at the provider'),
): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof ConnectionUnusableError) {
    return new ConflictError(
      RUN_FAILURE_MESSAGES[
        error.reason === 'revoked' || error.reason === 'not_found'
          ? 'connection_revoked'
          : error.reason === 'pending'
            ? 'connection_pending'
            : 'reauth_required'
      ]!,
    );
  }
  if (error instanceof ConnectionThrottledError) {
    return new ServiceUnavailableError(
      'The provider is rate limiting this account; retry after the time in Retry-After',
      Math.max(1, (Date.parse(error.until) - now) / 1000),
    );
  }
  if (error instanceof TokenUnavailableError) {
    return new ServiceUnavailableError(
      'The provider could not be reached to renew the access; retry shortly',
      5,
    );
  }
  if (error instanceof ProviderApiError) {
    const failure = classifyApiStatus(error.status, error.providerError);
    if (failure.kind === 'transient')
      return new ServiceUnavailableError('The provider is unavailable; retry shortly', 5);
    if (failure.kind === 'fatal' && failure.reason === 'source_not_found') return notFound;
    if (failure.kind === 'fatal') return new ConflictError(RUN_FAILURE_MESSAGES[failure.reason]!);
  }
  return error;
}

/**
 * What a failed provider call means for a run at `now` (an HTTP-date Retry-After is read against it);
 * an unknown error is left to the worker's retry.
 */
export function runFailureOf(error: unknown, now: number): RunFailure | undefined {
  if (error instanceof ConnectionUnusableError) {
    const reason =
      error.reason === 'reauth_required'
        ? 'reauth_required'
        : error.reason === 'pending'
          ? 'connection_pending'
          : 'connection_revoked';
    return { kind: 'unusable', reason };
  }
  if (error instanceof ConnectionThrottledError) return { kind: 'throttled', until: Date.parse(error.until) };
  if (error instanceof TokenUnavailableError) return { kind: 'transient' };
  if (error instanceof ProviderApiError) {
    const failure = classifyApiStatus(error.status, error.providerError);
    const retryAfter = retryAfterOf(error, now);
    return failure.kind === 'transient' && retryAfter !== undefined
      ? { ...failure, retryAfterSeconds: retryAfter }
      : failure;
  }
  return undefined;
}
