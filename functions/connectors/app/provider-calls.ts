// A provider's clients for a connection's calls (made through the connector context, context.ts), the
// check that a connection can be used now, and what a failed call means: the lifecycle's errors and the
// provider's answers as an API error (apiErrorOf) or as a run's next step (runFailureOf).
import type { Deps } from '../../platform/ports';
import { AppError, ConflictError, NotFoundError, ServiceUnavailableError } from '../../platform/errors';
import type { ConnectorConfig } from '../infra/config';
import type { ContainerApi, ContentApi, ContentApiSettings } from '../infra/content';
import { ProviderApiError, containerApi, contentApi } from '../infra/content';
import type { ProviderId } from '../domain/providers';
import type { ConnectionParams } from '../domain/connection-params';
import { apiHostFromParams } from '../domain/connection-params';
import { PROVIDERS, providerExtraSetting } from '../domain/providers';
import type { RunFailure } from '../domain/sync-policy';
import { RUN_FAILURE_MESSAGES, classifyApiStatus } from '../domain/sync-policy';
import { effectiveStatus } from '../domain/token-policy';
import { isProviderEnabled } from './provider-settings';
import type { ConnectionItem } from '../infra/repositories/connections';
import { ConnectionThrottledError, ConnectionUnusableError, TokenUnavailableError } from './token-lifecycle';

/** Which provider a client is for, and the connection's params (its region or server), if any. */
export interface ProviderAt {
  provider: ProviderId;
  params?: ConnectionParams;
}

const settingsOf = (config: ConnectorConfig, { provider, params }: ProviderAt): ContentApiSettings => ({
  apiUrl: config.provider(provider, params).apiUrl,
  setting: (name) => providerExtraSetting(provider, name, params),
  clientId: () => config.provider(provider, params).clientId,
  // A customer's own server is an address the customer chose: vetted as any provider-supplied URL is.
  ...(apiHostFromParams(PROVIDERS[provider]) ? { guardApi: true } : {}),
});

/** The provider's whole client for a connection: the sync worker's imports and exports. */
export const contentFor = (config: ConnectorConfig, at: ProviderAt): Promise<ContentApi> =>
  contentApi(PROVIDERS[at.provider], settingsOf(config, at));

/** What a route calls at the provider (browse, checkContainer), without the transfer code. */
export const containersFor = (config: ConnectorConfig, at: ProviderAt): Promise<ContainerApi> =>
  containerApi(PROVIDERS[at.provider], settingsOf(config, at));

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

/** Retry-After in seconds from now (an HTTP date is read against our clock). */
export function retryAfterOf(error: ProviderApiError, now: number): number | undefined {
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
