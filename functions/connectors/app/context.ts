// The connector context: what one handler invocation works with (its ports, the connector config, the
// logger), built once, and the one place a provider call through a connection is made. A connection's
// calls share one token read (renewed after TOKEN_REUSE_MS, near the token's expiry, after a failed
// read and after a refusal); a token due or expired is refreshed on use; a 401 gets one forced refresh
// and one more try, a second means the grant is gone (reauth_required, with its event); a 429
// throttles the connection. What a failure means is told as the lifecycle's errors, which a route
// turns into an API error (apiErrorOf) and a worker into a run's next step (runFailureOf).
import type { Clock } from '../../platform/clock';
import type { Deps } from '../../platform/ports';
import type { Logger } from '../../platform/logger';
import type { ConnectorConfig } from '../infra/config';
import { connectorConfig } from '../infra/config';
import { ProviderApiError } from '../infra/content';
import { EXPIRY_MARGIN_MS, TOKEN_REUSE_MS } from '../domain/token-policy';
import { ConnectionRepository } from '../infra/repositories/connections';
import { retryAfterOf } from './provider-calls';
import type { AccessToken, Lifecycle } from './token-lifecycle';
import {
  ConnectionThrottledError,
  ConnectionUnusableError,
  getAccessToken,
  markReauthRequired,
  readRefresh,
  refreshConnection,
  throttleConnection,
} from './token-lifecycle';

/** Calls at the provider through one connection, as the context holds it for the invocation. */
export interface ConnectionCalls {
  readonly id: string;
  /**
   * Runs `fn` with the connection's access token. A 401 gets one refresh and one more try; a second
   * 401 means the grant is gone (reauth_required, with its event). A 429 throttles the connection until
   * Retry-After and throws ConnectionThrottledError. Other provider failures are thrown as they are.
   */
  call<T>(fn: (accessToken: string) => Promise<T>): Promise<T>;
}

/**
 * One handler invocation's ports (stores, clock, the outbox written through the connection store),
 * config and logger. The token lifecycle works with it as it is: it is a Lifecycle.
 */
export interface ConnectorContext extends Lifecycle {
  readonly deps: Deps;
  readonly clock: Clock;
  readonly connections: ConnectionRepository;
  /** The connection's calls; asked twice for one id, the same (its token read is shared). */
  connection(id: string): ConnectionCalls;
}

export type ContextOptions = Pick<Lifecycle, 'log' | 'sleep'>;

/**
 * A handler invocation's context: its ports, the deployment's configuration (secret settings through
 * the Secrets port) and its logger. Built once by the handler and handed to the use case.
 */
export const invocationContext = (deps: Deps, log: Logger): ConnectorContext =>
  connectorContext(deps, connectorConfig(deps.secrets), { log });

export function connectorContext(
  deps: Deps,
  config: ConnectorConfig,
  options: ContextOptions,
): ConnectorContext {
  const handles = new Map<string, ConnectionCalls>();
  const context: ConnectorContext = {
    deps,
    config,
    log: options.log,
    sleep: options.sleep,
    clock: deps.clock,
    connections: ConnectionRepository.of(deps),
    connection(id) {
      let handle = handles.get(id);
      if (!handle) {
        handle = connectionCalls(context, id);
        handles.set(id, handle);
      }
      return handle;
    },
  };
  return context;
}

/**
 * The access token the connection's calls hold: the read (connection, tokens, decrypt) in flight or
 * done, and when it began. Concurrent calls share one read.
 */
interface HeldToken {
  pending?: Promise<AccessToken>;
  readAt?: number;
}

function connectionCalls(context: ConnectorContext, connectionId: string): ConnectionCalls {
  const { clock, log } = context;
  const held: HeldToken = {};

  const freshRead = (): Promise<AccessToken> => getAccessToken(context, connectionId);

  const heldToken = (): Promise<AccessToken> => {
    const now = clock.now();
    if (!held.pending || held.readAt === undefined || now - held.readAt >= TOKEN_REUSE_MS) {
      const pending = freshRead();
      held.pending = pending;
      held.readAt = now;
      // A failed read is not kept: the next call reads again (and fails as the lifecycle says).
      pending.catch(() => {
        if (held.pending === pending) held.pending = undefined;
      });
      return pending;
    }
    const reading = held.pending;
    return reading.then((token) => {
      if (token.expiresAt - clock.now() > EXPIRY_MARGIN_MS) return token;
      if (held.pending === reading) held.pending = undefined; // another call may have replaced it already
      return heldToken();
    });
  };

  /** Forces a refresh of the token version the provider refused: true when a newer token is stored. */
  const refreshedAfterRefusal = async (refusedVersion: number): Promise<boolean> => {
    const store = context.connections;
    const [connection, tokens] = await Promise.all([store.get(connectionId), store.getTokens(connectionId)]);
    if (!connection || !tokens) throw new ConnectionUnusableError(connectionId, 'revoked');
    if (tokens.tokenVersion > refusedVersion) return true; // refreshed by someone else meanwhile
    const result = await refreshConnection(context, connection, tokens, 'always');
    // A refresh that did not give a newer token stops the call with its error (thrown by readRefresh).
    return readRefresh(result, 'afterRefusal', connectionId, clock.now()) === 'retry';
  };

  return {
    id: connectionId,
    async call<T>(fn: (accessToken: string) => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        // A retry after a refusal reads the refreshed token, never the one held.
        const token = await (attempt === 1 ? heldToken() : freshRead());
        try {
          return await fn(token.accessToken);
        } catch (error) {
          if (!(error instanceof ProviderApiError)) throw error;
          if (error.status === 429 || error.throttled) {
            const throttled = await throttleConnection(
              context,
              connectionId,
              retryAfterOf(error, clock.now()),
            );
            throw new ConnectionThrottledError(
              connectionId,
              new Date(throttled?.throttleEndsAt ?? clock.now() + 60_000).toISOString(),
            );
          }
          if (error.status !== 401) throw error;
          // Refused: the next call reads the token again (refreshed, or the connection's new state).
          held.pending = undefined;
          log.warn('provider refused the access token', {
            connectionId,
            attempt,
            operation: error.operation,
          });
          if (attempt === 1 && (await refreshedAfterRefusal(token.tokenVersion))) continue;
          // Refused again with a token just refreshed (or the refresh said the grant is gone).
          await markReauthRequired(context, connectionId, token.tokenVersion);
          throw new ConnectionUnusableError(connectionId, 'reauth_required');
        }
      }
    },
  };
}
