// Development-only routes (never deployed) around the token lifecycle, with LOCAL_TEST_HOOKS=1, so tests
// need not wait for the refresh sweep's schedule (./schedules.ts runs it on a timer):
//   POST /__dev/token-sweep                      runs the scheduled refresh sweep's handler now (after
//                                                a run under way), answers its summary
//   POST /__dev/connections/{id}/access-token    an access token "on use", as a sync worker would get
//                                                one; answers its version, expiry and a fingerprint
//                                                (SHA-256 prefix), never the token
import { createHash } from 'node:crypto';
import { connectorConfig } from '../../connectors/index';
import {
  ConnectionThrottledError,
  ConnectionUnusableError,
  TokenUnavailableError,
  getAccessToken,
} from '../../connectors/index';
import type { Deps } from '../../platform/ports';
import { logger } from '../../platform/logger';
import type { Schedules } from '../server/schedules';
import type { Extension } from '../server/server';

const ACCESS_TOKEN_PATH = /^\/__dev\/connections\/(conn_[a-z2-7]{20})\/access-token$/;

export function devTokenHooks(deps: Deps, schedules: Schedules): Extension {
  const log = logger.child({ worker: 'refreshSweep' });
  // The secret settings as the workers read them (Secrets Manager on the emulated AWS runtime).
  const config = connectorConfig(deps.secrets);
  return async (request, response, url) => {
    if (process.env.LOCAL_TEST_HOOKS !== '1' || request.method !== 'POST') return false;
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      response.end(JSON.stringify(body));
      return true;
    };
    if (url.pathname === '/__dev/token-sweep') return answer(200, await schedules.run('refreshSweep'));
    const id = ACCESS_TOKEN_PATH.exec(url.pathname)?.[1];
    if (!id) return false;
    try {
      const token = await getAccessToken({ deps, config, log }, id);
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
