// The composition of the local runtime (`npm start`, unit and e2e tests): in-process tables journaled
// under a data directory, a master key on disk, in-process queues, the purge workflow's deployed
// definition run by the ASL interpreter with its task handler in process. Never bundled into a Lambda.
import { join } from 'node:path';
import type { Clock } from '../platform/clock';
import { systemClock } from '../platform/clock';
import type { Deps } from '../platform/ports';
import type { Tables } from '../platform/ports';
import { TABLE_NAMES } from '../platform/tables';
import type { QueueName } from '../platform/workers';
import { QUEUE_NAMES } from '../platform/workers';
import { EnvSecrets } from '../adapters/local/env-secrets';
import { LOCAL_KEY_ID, LocalKeyManagement } from '../adapters/local/local-keys';
import { LocalQueue } from '../adapters/local/local-queue';
import { LocalWorkflows } from '../adapters/local/local-workflows';
import { MemoryTable } from '../adapters/local/memory-table';
import { FileBlobStore, removeTemporaryBlobs } from '../adapters/local/file-blobs';
import { VaultStandIn } from '../adapters/vault/stand-in';
import type { PurgeRetry } from '../connectors';
import { PURGE_TASKS, purgeDefinition } from '../connectors';
import { runPurgeTask } from '../connectors';

/** The in-process queue: the local runtime attaches the worker table's consumers to it. */
export { LocalQueue };
/** A local data file that cannot be used as it is (the local runtime refuses to start, naming it). */
export { LocalDataError, parseDataFile } from '../adapters/local/local-data-error';
/** The ASL interpreter, which the emulated runtime's Step Functions endpoint runs executions on too. */
export type { AslDefinition, TaskInvoker } from '../adapters/local/asl-interpreter';
export { StatesError, runStateMachine, validateDefinition } from '../adapters/local/asl-interpreter';

export interface LocalDeps extends Deps {
  queues: Record<QueueName, LocalQueue>;
  workflows: LocalWorkflows;
  /** What opening the data directory found damaged or lost, one sentence per file (printed at start). */
  startupReport: string[];
  /** Temporary vault files a crash left, removed at this start (owner only). */
  blobTemporariesRemoved?: number;
}

/** Values sealed under the local master key anywhere in an item (a SealedValue, at any depth). */
function sealedValuesIn(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const sealed = value as { keyId?: unknown; dataKey?: unknown; ciphertext?: unknown };
  if (
    sealed.keyId === LOCAL_KEY_ID &&
    typeof sealed.dataKey === 'string' &&
    typeof sealed.ciphertext === 'string'
  )
    return 1;
  return Object.values(value).reduce((sum: number, v) => sum + sealedValuesIn(v), 0);
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
  const memoryTables = TABLE_NAMES.map(
    (name) => new MemoryTable(name, dataDir ? join(dataDir, 'tables', `${name}.jsonl`) : undefined, owner),
  );
  const tables = Object.fromEntries(memoryTables.map((t) => [t.name, t])) as unknown as Tables;
  const sealedValues = () =>
    memoryTables.reduce(
      (sum, table) => sum + [...table.scan()].reduce((n, item) => n + sealedValuesIn(item), 0),
      0,
    );
  const deps: LocalDeps = {
    tables,
    // Checked before anything is opened with it: a missing or wrong key refuses to start (LocalDataError).
    keys: new LocalKeyManagement(dataDir ? join(dataDir, 'master.key') : undefined, sealedValues),
    // Journaled under the data directory and driven by the clock, like the tables.
    queues: Object.fromEntries(
      QUEUE_NAMES.map((name) => [
        name,
        new LocalQueue(name, {
          clock,
          journal: dataDir ? join(dataDir, 'queues', `${name}.jsonl`) : undefined,
          owner,
        }),
      ]),
    ) as Record<QueueName, LocalQueue>,
    clock,
    // The sandbox provider's client secrets and the state key, set in the environment at start.
    secrets: new EnvSecrets(),
    // Document metadata in the journaled vault table, content in files under the data directory.
    vault: new VaultStandIn(
      tables.vault,
      new FileBlobStore(dataDir ? join(dataDir, 'vault') : undefined),
      clock,
    ),
    // The deployed definition, its Lambda tasks run in process.
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
    startupReport: [],
  };
  deps.startupReport = [...memoryTables, ...Object.values(deps.queues)]
    .map((journaled) => journaled.report)
    .filter((report): report is string => report !== undefined);
  // Vault content a write was streaming when the last process died: the document's
  // metadata never pointed at it, so nothing else refers to it.
  if (dataDir && owner) deps.blobTemporariesRemoved = removeTemporaryBlobs(join(dataDir, 'vault'));
  return deps;
}
