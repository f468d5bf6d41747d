// The local server's sync sweep: scheduled import runs and re-driven jobs, on a timer as the
// EventBridge rule does in AWS (every 30 s; LOCAL_SYNC_SWEEP_INTERVAL_MS, 0 turns it off), and
// `POST /__dev/sync-sweep` with LOCAL_TEST_HOOKS=1.
import type { SyncSweepSummary } from '../connectors';
import { runSyncSweep } from '../connectors';
import type { Deps } from '../platform/ports';
import { logger } from '../platform/logger';
import { localSchedule } from './schedules';
import type { Extension } from './server';

export function localSyncSweep(deps: Deps): Extension {
  const log = logger.child({ worker: 'syncSweep' });
  return localSchedule<SyncSweepSummary>({
    log,
    intervalEnv: 'LOCAL_SYNC_SWEEP_INTERVAL_MS',
    defaultIntervalMs: 30_000,
    hookPath: '/__dev/sync-sweep',
    run: () => runSyncSweep(deps, { log }),
    done: 'sync sweep finished',
  });
}
