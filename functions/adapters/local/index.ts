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
import { MemoryTable } from './memory-table';

export interface LocalDeps extends Deps {
  queues: { events: LocalQueue; deliveries: LocalQueue };
}

/**
 * @param dataDir where state is kept; omitted: memory only (tests).
 * @param owner whether this process owns the data directory (compacts journals at open).
 */
export function createLocalDeps(
  options: { dataDir?: string; clock?: Clock; owner?: boolean } = {},
): LocalDeps {
  const { dataDir, clock = systemClock, owner = true } = options;
  const tables = Object.fromEntries(
    TABLE_NAMES.map((name) => [
      name,
      new MemoryTable(name, dataDir ? join(dataDir, 'tables', `${name}.jsonl`) : undefined, owner),
    ]),
  ) as unknown as Tables;
  return {
    tables,
    keys: new LocalKeyManagement(dataDir ? join(dataDir, 'master.key') : undefined),
    queues: { events: new LocalQueue('events'), deliveries: new LocalQueue('deliveries') },
    clock,
  };
}
