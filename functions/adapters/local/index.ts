// The local adapter set: in-process tables journaled under a data directory, a master key on disk,
// in-process queues. Node only; never bundled into a Lambda.
import { join } from 'node:path';
import type { Clock } from '../../platform/clock';
import { systemClock } from '../../platform/clock';
import type { Deps } from '../../platform/deps';
import type { Tables } from '../../platform/ports';
import { TABLE_NAMES } from '../../platform/tables';
import { LocalKeyManagement } from './local-keys';
import { LocalQueue } from './local-queue';
import { LocalWorkflows } from './local-workflows';
import { MemoryTable } from './memory-table';
import { MemoryVault } from './memory-vault';
import type { PurgeRetry } from '../../workflows/purge-definition';
import { PURGE_TASKS, purgeDefinition } from '../../workflows/purge-definition';
import { runPurgeTask } from '../../workflows/purge-tasks';

export interface LocalDeps extends Deps {
  queues: { events: LocalQueue; deliveries: LocalQueue };
  workflows: LocalWorkflows;
  vault: MemoryVault;
}

/** Quicker than production's: a local run retries for seconds, not minutes. */
const LOCAL_RETRY: PurgeRetry = { intervalSeconds: 1, backoffRate: 2, maxAttempts: 3 };

/**
 * @param dataDir where state is kept; omitted: memory only (tests).
 * @param owner whether this process owns the data directory (compacts journals at open).
 */
export function createLocalDeps(
  options: {
    dataDir?: string;
    clock?: Clock;
    owner?: boolean;
    /** How workflow retries wait (tests skip the wait). */
    sleep?: (ms: number) => Promise<void>;
  } = {},
): LocalDeps {
  const { dataDir, clock = systemClock, owner = true } = options;
  const tables = Object.fromEntries(
    TABLE_NAMES.map((name) => [
      name,
      new MemoryTable(name, dataDir ? join(dataDir, 'tables', `${name}.jsonl`) : undefined, owner),
    ]),
  ) as unknown as Tables;
  const deps: LocalDeps = {
    tables,
    keys: new LocalKeyManagement(dataDir ? join(dataDir, 'master.key') : undefined),
    queues: { events: new LocalQueue('events'), deliveries: new LocalQueue('deliveries') },
    clock,
    vault: new MemoryVault(),
    // The deployed definition, its Lambda tasks run in process (vault documents live in memory only).
    workflows: new LocalWorkflows(
      {
        purge: {
          definition: purgeDefinition({
            target: {
              kind: 'lambda',
              functionArns: Object.fromEntries(
                PURGE_TASKS.map((t) => [t, `arn:aws:lambda:local:000000000000:function:${t}`]),
              ) as Record<(typeof PURGE_TASKS)[number], string>,
            },
            retry: LOCAL_RETRY,
          }),
          invoke: (_resource, payload) => runPurgeTask(deps, payload),
        },
      },
      { sleep: options.sleep },
    ),
  };
  return deps;
}
