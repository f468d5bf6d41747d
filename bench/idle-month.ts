// What 1,000 idle connections cost in a month: the refresh sweep on the development clock (a
// ManualClock moved five minutes per scheduled run, 8,640 runs) over connections that nothing uses,
// seeded as the connect flow leaves them (healthy, tokens version 1, obtained at moments spread over
// the first day), a quarter per real provider so each provider's idle policy is in the mix. Counted at
// the ports, one count per call the AWS adapters make (functions/adapters/aws: a Table method is one
// DynamoDB request, a Keys method one KMS request): DynamoDB and KMS calls, and the provider's token
// endpoint requests (a scripted endpoint: every refresh succeeds). In-memory tables, so it runs in
// seconds; `npm run bench -- idle-month` writes bench/results/idle-month.{json,md}.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLocalDeps } from '../functions/compose/local';
import { tokenContext } from '../functions/connectors/app/connections';
import { runRefreshSweep } from '../functions/connectors/app/sweep';
import type { ConnectorConfig } from '../functions/connectors/infra/config';
import type { RealProviderId } from '../functions/connectors/domain/providers';
import { PROVIDERS, REAL_PROVIDER_IDS } from '../functions/connectors/domain/providers';
import { STATUS_CHECK_MS, sweepDueAt } from '../functions/connectors/domain/token-policy';
import { ConnectionRepository } from '../functions/connectors/infra/repositories/connections';
import { ManualClock } from '../functions/platform/clock';
import { seal } from '../functions/platform/envelope';
import { Logger } from '../functions/platform/logger';
import type { KeyManagement, Table } from '../functions/platform/ports';

const CONNECTIONS = Number(process.env.BENCH_IDLE_CONNECTIONS ?? 1_000);
const DAYS = Number(process.env.BENCH_IDLE_DAYS ?? 30);
const ORGANIZATIONS = 10;
const SWEEP_EVERY_MS = 5 * 60_000;
const DAY = 86_400_000;
const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const RESULTS = process.env.BENCH_RESULTS_DIR ?? join(import.meta.dirname ?? 'bench', 'results');
const quiet = new Logger({}, 'error');
const round = (n: number, digits = 2) => Number(n.toFixed(digits));

/** Each Table method as the DynamoDB request the AWS adapter makes for it. */
const DYNAMODB_OPERATION: Record<string, string> = {
  get: 'GetItem',
  getMany: 'BatchGetItem',
  put: 'PutItem',
  update: 'UpdateItem',
  delete: 'DeleteItem',
  query: 'Query',
};
const KMS_OPERATION: Record<string, string> = {
  generateDataKey: 'GenerateDataKey',
  decryptDataKey: 'Decrypt',
};

/** `target` with each of its methods counted under `names[method]` (or the method's own name). */
function counted<T extends object>(
  target: T,
  service: string,
  names: Record<string, string>,
  counts: Map<string, number>,
): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver) as unknown;
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      return (...args: unknown[]) => {
        const key = `${service}:${names[property] ?? property}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(object, args);
      };
    },
  });
}

export async function runIdleMonthBench(): Promise<void> {
  const clock = new ManualClock(T0);
  const deps = createLocalDeps({ clock });
  const counts = new Map<string, number>();
  const repository = new ConnectionRepository(deps.tables.connectors);

  // Seeding is the connect flow's work, not the month's: done before counting starts.
  const providers = REAL_PROVIDER_IDS;
  const ids: string[] = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    clock.set(T0 + Math.floor((i * DAY) / CONNECTIONS));
    const id = `conn_idle${String(i).padStart(16, '0')}`;
    const organizationId = `org_idle${String(i % ORGANIZATIONS).padStart(17, '0')}`;
    const provider: RealProviderId = providers[i % providers.length]!;
    const now = clock.now();
    await repository.create({
      id,
      organizationId,
      provider,
      status: 'healthy',
      scopeTier: PROVIDERS[provider].defaultTier,
      returnUrl: 'https://app.example.com/',
      account: { external_id: `acct-${i}`, email: `u${i}@example.com`, display_name: `User ${i}` },
      createdAt: now,
      updatedAt: now,
    });
    const sealed = await seal(
      deps.keys,
      JSON.stringify({ access_token: `at-${i}-0`, refresh_token: `rt-${i}-0` }),
      tokenContext(organizationId, id),
    );
    await repository.putTokens(
      {
        connectionId: id,
        organizationId,
        provider,
        sealed,
        tokenVersion: 1,
        tokenType: 'Bearer',
        scopes: PROVIDERS[provider].scopeTiers[PROVIDERS[provider].defaultTier]!.required,
        accessTokenExpiresAt: now + PROVIDERS[provider].defaultAccessTokenSeconds * 1000,
        obtainedAt: now,
      },
      0,
    );
    ids.push(id);
  }

  // The provider's token endpoint: every refresh succeeds with a new hour-long access token.
  const tokenRequests = new Map<string, number>();
  let issued = 0;
  const realFetch = globalThis.fetch;
  globalThis.fetch = (async (url: string | URL) => {
    const host = new URL(String(url)).hostname;
    tokenRequests.set(host, (tokenRequests.get(host) ?? 0) + 1);
    issued++;
    return new Response(
      JSON.stringify({
        access_token: `at-r${issued}`,
        refresh_token: `rt-r${issued}`,
        token_type: 'Bearer',
        expires_in: 3600,
      }),
      { status: 200, headers: { 'Content-Type': 'application/json' } },
    );
  }) as typeof fetch;
  const settings = (provider: string) => ({
    authorizeUrl: `https://${provider}.provider.test/authorize`,
    tokenUrl: `https://${provider}.provider.test/token`,
    revokeUrl: `https://${provider}.provider.test/revoke`,
    accountUrl: `https://${provider}.provider.test/account`,
    apiUrl: `https://${provider}.provider.test/api`,
    clientId: 'client',
  });
  const config: ConnectorConfig = {
    stateKey: async () => Buffer.alloc(32, 1),
    provider: (provider) => settings(provider),
    client: async (provider) => ({ ...settings(provider), clientSecret: 'secret' }),
  };

  const counting = {
    ...deps,
    tables: new Proxy(deps.tables, {
      get: (tables, name) =>
        counted(Reflect.get(tables, name) as Table, 'DynamoDB', DYNAMODB_OPERATION, counts),
    }),
    keys: counted(deps.keys as KeyManagement, 'KMS', KMS_OPERATION, counts),
  };

  const started = performance.now();
  clock.set(T0);
  const end = T0 + DAYS * DAY;
  const outcomes: Record<string, number> = {};
  let runs = 0;
  try {
    while (clock.now() + SWEEP_EVERY_MS <= end) {
      clock.advance(SWEEP_EVERY_MS);
      runs++;
      const summary = await runRefreshSweep(counting, config, { log: quiet, sleep: async () => undefined });
      for (const [outcome, n] of Object.entries(summary)) {
        if (typeof n === 'number') outcomes[outcome] = (outcomes[outcome] ?? 0) + n;
      }
    }
  } finally {
    globalThis.fetch = realFetch;
  }
  const seconds = (performance.now() - started) / 1000;

  // Still healthy, and no refresh token went unused for its provider's idle lifetime.
  const lapsedRisk: string[] = [];
  for (const id of ids) {
    const [connection, tokens] = await Promise.all([repository.get(id), repository.getTokens(id)]);
    if (connection?.status !== 'healthy' || !tokens) throw new Error(`${id} is not healthy after the month`);
    const idle = PROVIDERS[tokens.provider].refreshTokenIdleSeconds;
    if (idle !== null && end - tokens.obtainedAt >= idle * 1000) lapsedRisk.push(id);
  }
  if (lapsedRisk.length) throw new Error(`${lapsedRisk.length} refresh tokens went unused too long`);

  const perConnection = (n: number) => round(n / CONNECTIONS, 3);
  const byOperation = Object.fromEntries(
    [...counts.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => [k, n]),
  );
  const total = (service: string) =>
    [...counts.entries()].filter(([k]) => k.startsWith(`${service}:`)).reduce((a, [, n]) => a + n, 0);
  const providerCalls = [...tokenRequests.values()].reduce((a, n) => a + n, 0);
  const result = {
    takenAt: new Date().toISOString(),
    connections: CONNECTIONS,
    days: DAYS,
    sweepRuns: runs,
    statusCheckHours: STATUS_CHECK_MS / 3_600_000,
    sweepIntervalHoursByProvider: Object.fromEntries(
      providers.map((p) => {
        const idle = PROVIDERS[p].refreshTokenIdleSeconds;
        return [p, round(sweepDueAt(0, idle === null ? null : idle * 1000) / 3_600_000, 1)];
      }),
    ),
    outcomes,
    totals: { DynamoDB: total('DynamoDB'), KMS: total('KMS'), providerTokenRequests: providerCalls },
    perConnectionMonth: {
      DynamoDB: perConnection(total('DynamoDB')),
      KMS: perConnection(total('KMS')),
      providerTokenRequests: perConnection(providerCalls),
      refreshes: perConnection(outcomes.refreshed ?? 0),
    },
    byOperation,
    seconds: round(seconds, 1),
  };
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(join(RESULTS, 'idle-month.json'), JSON.stringify(result, null, 2) + '\n');
  writeFileSync(join(RESULTS, 'idle-month.md'), markdown(result));
  console.log(markdown(result));
}

function markdown(result: {
  takenAt: string;
  connections: number;
  days: number;
  sweepRuns: number;
  statusCheckHours: number;
  sweepIntervalHoursByProvider: Record<string, number>;
  outcomes: Record<string, number>;
  totals: Record<string, number>;
  perConnectionMonth: Record<string, number>;
  byOperation: Record<string, number>;
}): string {
  const rows = Object.entries(result.byOperation)
    .map(([op, n]) => `| ${op} | ${n} | ${round(n / result.connections, 3)} |`)
    .join('\n');
  return `# A month of idle connections

${result.takenAt}. \`npm run bench -- idle-month\`; raw figures in [idle-month.json](idle-month.json).
${result.connections} connections that nothing uses (a quarter per real provider, seeded as the connect
flow leaves them), the refresh sweep run every 5 minutes on the development clock for ${result.days} days
(${result.sweepRuns} runs), counted at the ports: one count per DynamoDB or KMS request the AWS adapters
make, and each request to a provider's token endpoint. The sweep refreshes an idle connection only
before its refresh token would lapse unused or for its status check (every ${result.statusCheckHours} h):
every ${Object.entries(result.sweepIntervalHoursByProvider)
    .map(([p, h]) => `${h} h for ${p}`)
    .join(', ')}.

| | Month, all connections | Per connection |
|---|---:|---:|
| Refreshes (provider token requests) | ${result.totals.providerTokenRequests} | ${result.perConnectionMonth.providerTokenRequests} |
| DynamoDB requests | ${result.totals.DynamoDB} | ${result.perConnectionMonth.DynamoDB} |
| KMS requests | ${result.totals.KMS} | ${result.perConnectionMonth.KMS} |

Before (the sweep refreshed every access token 10 minutes before its hour ran out, used or not):
about 864 refreshes per connection per month, each with the same calls as one refresh here.

| Operation | Month | Per connection |
|---|---:|---:|
${rows}

Sweep outcomes: ${Object.entries(result.outcomes)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ')}.
`;
}
