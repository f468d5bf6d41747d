// The local server runs the refresh sweep the way the EventBridge schedule does in AWS: on a timer
// (every 30 s; LOCAL_TOKEN_SWEEP_INTERVAL_MS, 0 turns it off; ./schedules.ts). With LOCAL_TEST_HOOKS=1
// two development-only routes (never deployed) let tests skip the wait:
//   POST /__dev/token-sweep                      runs one sweep now, answers its summary
//   POST /__dev/connections/{id}/access-token    an access token "on use", as a sync worker would get
//                                                one; answers its version, expiry and a fingerprint
//                                                (SHA-256 prefix), never the token
import { createHash } from 'node:crypto';
import { envConfig } from '../connectors';
import type { SweepSummary } from '../connectors';
import { runRefreshSweep } from '../connectors';
import {
  ConnectionThrottledError,
  ConnectionUnusableError,
  TokenUnavailableError,
  getAccessToken,
} from '../connectors';
import type { Deps } from '../platform/ports';
import { logger } from '../platform/logger';
import { localSchedule } from './schedules';
import type { Extension } from './server';

const ACCESS_TOKEN_PATH = /^\/__dev\/connections\/(conn_[a-z2-7]{20})\/access-token$/;

export function localTokenSweep(deps: Deps): Extension {
  const log = logger.child({ worker: 'refreshSweep' });
  const sweep = localSchedule<SweepSummary>({
    log,
    intervalEnv: 'LOCAL_TOKEN_SWEEP_INTERVAL_MS',
    defaultIntervalMs: 30_000,
    hookPath: '/__dev/token-sweep',
    run: () => runRefreshSweep(deps, envConfig, { log }),
    done: 'refresh sweep finished',
  });

  return async (request, response, url, body) => {
    if (await sweep(request, response, url, body)) return true;
    if (process.env.LOCAL_TEST_HOOKS !== '1' || request.method !== 'POST') return false;
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      response.end(JSON.stringify(body));
      return true;
    };
    const id = ACCESS_TOKEN_PATH.exec(url.pathname)?.[1];
    if (!id) return false;
    try {
      const token = await getAccessToken(deps, envConfig, id, { log });
      return answer(200, {
        connection_id: id,
        token_version: token.tokenVersion,
        expires_at: token.expiresAt,
        fingerprint: createHash('sha256').update(token.accessToken).digest('hex').slice(0, 16),
      });
    } catch (error) {
      if (error instanceof ConnectionUnusableError) return answer(409, { error: error.reason });
      if (error instanceof ConnectionThrottledError)
        return answer(429, { error: 'throttled', until: error.until });
      if (error instanceof TokenUnavailableError) return answer(503, { error: error.reason });
      throw error;
    }
  };
}
