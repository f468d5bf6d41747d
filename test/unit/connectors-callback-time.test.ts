// The OAuth callback answers with a redirect inside API Gateway's 29 s whatever the provider does: its
// provider calls share a budget, each capped, and the Lambda's timeout leaves room around them. A
// provider that never answers ends the flow in `oauth_exchange_failed` at return_url, not a 504.
import type { Server, Socket } from 'node:net';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLocalDeps } from '../../functions/compose/local';
import {
  CALLBACK_LIMITS,
  completeConnection,
  openConnectLink,
} from '../../functions/connectors/app/connect-flow';
import type { CallbackLimits } from '../../functions/connectors/app/connect-flow';
import { createConnection } from '../../functions/connectors/app/connections';
import { CONNECTOR_ROUTE } from '../../functions/connectors/api/routes';
import type { ConnectorConfig } from '../../functions/connectors/infra/config';
import { ProviderDeadline } from '../../functions/connectors/infra/oauth-client';
import { startSandboxProvider } from '../../sandbox';
import type { SandboxProvider } from '../../sandbox';
import { ManualClock } from '../../functions/platform/clock';
import { Logger } from '../../functions/platform/logger';
import type { Deps } from '../../functions/platform/ports';
import { approveAtSandbox, sandboxConnectorConfig } from '../support/sandbox';

/** API Gateway's integration timeout: the callback must have answered before it. */
const GATEWAY_LIMIT_MS = 29_000;
/** What the callback's table, KMS and secret reads around the provider calls may take at most. */
const AROUND_PROVIDER_CALLS_MS = 4_000;

describe('the callback time budget', () => {
  const timeoutMs = CONNECTOR_ROUTE.oauthCallback.timeoutSeconds * 1000;

  it('caps the exchange and the account lookup inside the budget', () => {
    expect(CALLBACK_LIMITS.tokenMs + CALLBACK_LIMITS.accountMs).toBeLessThanOrEqual(CALLBACK_LIMITS.budgetMs);
  });

  it("gives the Lambda the budget plus room for its other calls, under API Gateway's 29 s", () => {
    expect(timeoutMs).toBeGreaterThanOrEqual(CALLBACK_LIMITS.budgetMs + AROUND_PROVIDER_CALLS_MS);
    expect(timeoutMs).toBeLessThan(GATEWAY_LIMIT_MS);
  });
});

describe('ProviderDeadline', () => {
  it('hands each call its cap or what is left, and nothing once too little is left', () => {
    let now = 1_000;
    const deadline = new ProviderDeadline(10_000, () => now);
    expect(deadline.timeout(8_000)).toBe(8_000);
    now += 8_000;
    expect(deadline.timeout(6_000)).toBe(2_000);
    now += 1_799.5;
    expect(deadline.timeout(6_000)).toBe(0);
    now -= 100;
    expect(deadline.timeout(6_000)).toBe(300); // whole milliseconds, as AbortSignal.timeout needs
    now += 100;
    expect(deadline.left()).toBe(200.5);
    expect(deadline.timeout(6_000)).toBe(0);
    now += 1_000;
    expect(deadline.left()).toBe(0);
  });
});

describe('a provider that does not answer', () => {
  const BASE_URL = 'https://api.test.example';
  const log = new Logger({ test: 'callback-time' }, 'error');
  /** Short limits, so the test waits well under a second for each timeout. */
  const limits: CallbackLimits = { budgetMs: 1_500, tokenMs: 500, accountMs: 400 };
  let sandbox: SandboxProvider;
  let silent: Server;
  let silentUrl: string;
  const sockets = new Set<Socket>();
  let deps: Deps;
  let config: ConnectorConfig;
  let accounts = 0;

  beforeAll(async () => {
    const clock = new ManualClock(Date.now());
    sandbox = await startSandboxProvider({ clock });
    config = sandboxConnectorConfig(sandbox, BASE_URL);
    deps = createLocalDeps({ clock });
    // Accepts every connection and never answers.
    silent = createServer(() => undefined);
    silent.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
    await sandbox.close();
  });

  /** A flow up to the provider's redirect back, with some provider endpoints replaced. */
  async function callback(endpoints: Partial<Record<'tokenUrl' | 'accountUrl' | 'revokeUrl', string>>) {
    const flowConfig: ConnectorConfig = {
      ...config,
      provider: (id) => ({ ...config.provider(id), ...endpoints }),
      client: async (id) => ({ ...(await config.client(id)), ...endpoints }),
    };
    const created = await createConnection(
      deps,
      'org_timeoutaaaaaaaaaaaaa',
      { provider: 'practice', return_url: 'https://app.example.com/back' },
      BASE_URL,
    );
    const token = created.connect_url.split('/').pop()!;
    const opened = await openConnectLink(deps, flowConfig, { token, baseUrl: BASE_URL });
    const { code, state } = await approveAtSandbox(opened.location, `acct-timeout-${++accounts}`);
    const started = performance.now();
    const result = await completeConnection(
      deps,
      flowConfig,
      {
        provider: 'practice',
        query: { code, state },
        cookieHeader: opened.cookie!.split(';')[0]!,
        baseUrl: BASE_URL,
      },
      log,
      limits,
    );
    return { result, elapsedMs: performance.now() - started };
  }

  it('ends in oauth_exchange_failed when the token endpoint hangs, after its cap', async () => {
    const { result, elapsedMs } = await callback({ tokenUrl: `${silentUrl}/token` });
    expect(result.location).toBe('https://app.example.com/back?error=oauth_exchange_failed');
    expect(elapsedMs).toBeGreaterThanOrEqual(limits.tokenMs - 50);
    expect(elapsedMs).toBeLessThan(limits.budgetMs);
  });

  it('ends in oauth_exchange_failed when the account lookup and the revocation hang, within the budget', async () => {
    const { result, elapsedMs } = await callback({
      accountUrl: `${silentUrl}/me`,
      revokeUrl: `${silentUrl}/revoke`,
    });
    expect(result.location).toBe('https://app.example.com/back?error=oauth_exchange_failed');
    // The account lookup took its cap; revoking the grant not kept took what was left, and no more.
    expect(elapsedMs).toBeGreaterThanOrEqual(limits.budgetMs - 250);
    expect(elapsedMs).toBeLessThan(limits.budgetMs + 250);
  });
});
