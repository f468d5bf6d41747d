// The connectors area's public face: its routes, and what the runtimes' compositions (the purge
// workflow's definition and tasks, the token sweep, the sandbox provider's setup) build it from.
export { CONNECTOR_ROUTES } from './api/route-docs';
export { runPurgeTask } from './api/handlers/purge-tasks';
export type { PurgeRetry } from './infra/purge-definition';
export { DEPLOYED_PURGE_SETTINGS, PURGE_TASKS, purgeDefinition } from './infra/purge-definition';
export type { ConnectorConfig } from './infra/config';
export {
  STATE_KEY_ENV,
  checkClientSecret,
  clientSecretName,
  connectorConfig,
  envConfig,
} from './infra/config';
export { create as createSyncWorker } from './api/handlers/sync-worker';
export type { SyncSweepSummary } from './app/sync-sweep';
export { redriveAbandonedJobs, runSyncSweep } from './app/sync-sweep';
export type { SweepSummary } from './app/sweep';
export { runRefreshSweep } from './app/sweep';
export { importDocument } from './app/ledger';
export { Ledger } from './infra/repositories/ledger';
export { Links } from './infra/repositories/import-links';
export { ConnectionRepository } from './infra/repositories/connections';
export { callbackUrl } from './domain/flow-crypto';
export type { ProviderId } from './domain/providers';
export {
  PROVIDERS,
  PROVIDER_IDS,
  isRealProvider,
  providerEnv,
  rebased,
  settingDefault,
} from './domain/providers';
export {
  ConnectionThrottledError,
  ConnectionUnusableError,
  TokenUnavailableError,
  getAccessToken,
} from './app/token-lifecycle';
