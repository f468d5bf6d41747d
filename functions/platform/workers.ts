// The worker table: every asynchronous worker of the service, as the route table holds every route.
// The CDK stack (lib/messaging.ts, lib/workers.ts, lib/purge.ts), the local runtime
// (functions/dev-runtime) and the emulated AWS runtime's event-source runner all read it, so a
// queue's visibility timeout, receive limit, batch and concurrency cannot differ between them.
//
// It lives in platform/ (not in sections per area like the routes) because the ports name its queues:
// adding a queue and its consumer is its name in ./resource-names.ts (QUEUE_NAMES, which QUEUES must
// match) and one entry here. Handler modules are named by path, as in the route table, so no area is
// imported.
import type { QueueName, TableName, WorkflowName } from './resource-names';
import { QUEUE_NAMES } from './resource-names';

export { QUEUE_NAMES } from './resource-names';
export type { QueueName } from './resource-names';

/** What a function may touch: its IAM grants in AWS, and the environment variables that go with them. */
export interface ResourceUses<Q extends string = QueueName> {
  tables?: Partial<Record<TableName, 'read' | 'write'>>;
  /** encrypt: GenerateDataKey; decrypt: Decrypt; both. */
  kms?: 'encrypt' | 'decrypt' | 'both';
  /** Sends to these queues. */
  queues?: readonly Q[];
  /** Reads these queues' dead-letter queues (sqs:ReceiveMessage on the DLQ only). */
  deadLetters?: readonly Q[];
  /** start: StartExecution (and DescribeExecution); describe: DescribeExecution only. */
  workflows?: Partial<Record<WorkflowName, 'start' | 'describe'>>;
  /** The vault stand-in's content bucket: read (GetObject), write (and Put/Delete), delete only. */
  vault?: 'read' | 'write' | 'delete';
}

interface QueueWorkerEntry {
  /** Names the Lambda (its construct id) and the consumer in logs. */
  id: string;
  /** Module under functions/ (no extension) exporting `create(deps)`, an SQS handler's factory. */
  handler: string;
  description: string;
  /** Records per invocation (Lambda's BatchSize; at most 10 without a batching window). */
  batchSize: number;
  /** How long the event source may wait to fill a batch (MaximumBatchingWindowInSeconds). */
  batchingWindowSeconds: number;
  /** The function's timeout; the queue's visibility timeout is six times this (AWS's guidance). */
  timeoutSeconds: number;
  /** Receives before SQS moves a message to the dead-letter queue (the redrive policy). */
  maxReceiveCount: number;
  /**
   * Concurrent invocations the event source may run (its ScalingConfig.MaximumConcurrency, 2-1000).
   * This, not reserved concurrency, bounds the workers: an account with a low concurrency quota
   * refuses reserved concurrency, and maximum concurrency costs nothing from the account's pool.
   */
  maxConcurrency: number;
  /** How long SQS keeps an unconsumed message. */
  retentionDays: number;
  /** The age of the oldest message worth an alarm: the queue is not being drained. */
  oldestMessageAlarmMinutes: number;
  uses: ResourceUses<string>;
}

/** Dead-letter queues keep a message this long, whatever the queue (time to look and to redrive). */
export const DEAD_LETTER_RETENTION_DAYS = 14;

/** One entry per queue: the queue's settings and its one consumer. */
const QUEUES = {
  events: {
    id: 'fanOut',
    handler: 'webhooks/api/handlers/fan-out',
    description: 'Matches each event to subscribed endpoints and queues one delivery per endpoint',
    batchSize: 10,
    batchingWindowSeconds: 1,
    timeoutSeconds: 30,
    maxReceiveCount: 5,
    maxConcurrency: 5,
    retentionDays: 4,
    oldestMessageAlarmMinutes: 10, // fan-out is quick
    uses: { tables: { webhooks: 'write' }, queues: ['deliveries'] },
  },
  deliveries: {
    id: 'deliver',
    handler: 'webhooks/api/handlers/deliver',
    description: 'Sends signed webhook attempts, schedules retries, runs recover jobs',
    batchSize: 10,
    batchingWindowSeconds: 1,
    // Two attempts of 15 s and the inline pause, with room for the table and KMS calls.
    timeoutSeconds: 45,
    // Retries travel as new messages; only an exhausted delivery is reported failed on purpose. Five,
    // as the other queues: a receive the event source throttles or a crashed worker holds counts too,
    // and on a throttled new account three could dead-letter a step that never ran.
    maxReceiveCount: 5,
    maxConcurrency: 20,
    retentionDays: 14,
    oldestMessageAlarmMinutes: 30, // delivery hops re-send at least every 15 minutes
    // events: webhook.endpoint.disabled
    uses: { tables: { webhooks: 'write' }, kms: 'decrypt', queues: ['deliveries', 'events'] },
  },
  syncs: {
    id: 'syncWorker',
    handler: 'connectors/api/handlers/sync-worker',
    description: 'Runs one step of an import run or an export: a page of files between provider and vault',
    // A step streams up to 100 files, eight at a time, each up to 1 GiB: one message per invocation.
    batchSize: 1,
    batchingWindowSeconds: 0,
    timeoutSeconds: 300,
    // A step that keeps failing for our own reasons; the sync sweep re-drives its job after that.
    maxReceiveCount: 5,
    maxConcurrency: 10,
    retentionDays: 14,
    // Waits (Retry-After, backoff) travel as messages delayed up to 15 minutes.
    oldestMessageAlarmMinutes: 60,
    // Refreshes (seals) tokens on use; events: vault.ingest.completed, connector.sync.*, reauth.
    uses: {
      tables: { connectors: 'write', vault: 'write' },
      vault: 'write',
      kms: 'both',
      queues: ['syncs', 'events'],
    },
  },
} as const satisfies Record<QueueName, QueueWorkerEntry>;

export interface QueueWorker extends Omit<QueueWorkerEntry, 'uses'> {
  queue: QueueName;
  visibilityTimeoutSeconds: number;
  uses: ResourceUses;
}

function checkedUses(owner: string, uses: ResourceUses<string>): ResourceUses {
  for (const queue of [...(uses.queues ?? []), ...(uses.deadLetters ?? [])]) {
    if (!(queue in QUEUES)) throw new Error(`Worker table: ${owner} uses the unknown queue ${queue}`);
  }
  return uses as ResourceUses;
}

/** Each queue's worker, by queue name. */
export const QUEUE_WORKERS: Readonly<Record<QueueName, QueueWorker>> = Object.fromEntries(
  QUEUE_NAMES.map((queue) => {
    const entry: QueueWorkerEntry = QUEUES[queue];
    const worker: QueueWorker = {
      ...entry,
      queue,
      visibilityTimeoutSeconds: entry.timeoutSeconds * 6,
      uses: checkedUses(entry.id, entry.uses),
    };
    return [queue, worker];
  }),
) as Record<QueueName, QueueWorker>;

/** A worker run on a schedule (an EventBridge rule in AWS); a missed run is not retried. */
export interface ScheduledWorker {
  id: string;
  /** Module under functions/ exporting `create(deps)`, the scheduled handler's factory. */
  handler: string;
  description: string;
  rateMinutes: number;
  /** Shorter than the rate, so runs do not overlap. */
  timeoutSeconds: number;
  uses: ResourceUses;
}

const SCHEDULES: (Omit<ScheduledWorker, 'uses'> & { uses: ResourceUses<string> })[] = [
  {
    id: 'refreshSweep',
    handler: 'connectors/api/handlers/refresh-sweep',
    description: 'Refreshes provider access tokens before expiry and ends provider throttles',
    // Tokens come due 10 minutes before expiry, so a 5-minute sweep refreshes each at least once in time.
    rateMinutes: 5,
    timeoutSeconds: 240,
    // Opens the stored tokens and seals the refreshed ones; events: connection.reauth_required.
    uses: { tables: { connectors: 'write' }, kms: 'both', queues: ['events'] },
  },
  {
    id: 'syncSweep',
    handler: 'connectors/api/handlers/sync-sweep',
    description: 'Starts the scheduled import runs that are due and re-drives jobs whose step was lost',
    rateMinutes: 1,
    timeoutSeconds: 50,
    // Events: connector.sync.skipped for a scheduled run that did not start (its outbox is flushed to
    // the events queue). Found by the emulated runtime, where the function has only its template's
    // environment: without the queue it failed each skipped run as deployed.
    uses: { tables: { connectors: 'write' }, queues: ['syncs', 'events'] },
  },
];

/**
 * How often EventBridge and Lambda retry a scheduled run that failed: never (the next run finds
 * everything still due); a failed run goes to the failures queue (lib/workers.ts).
 */
export const SCHEDULE_RETRY_ATTEMPTS = 0;

export const SCHEDULED_WORKERS: readonly ScheduledWorker[] = SCHEDULES.map((w) => ({
  ...w,
  uses: checkedUses(w.id, w.uses),
}));

/** A task of a workflow's state machine (a Lambda in AWS), run by the handler module's `create(deps)`. */
export interface WorkflowTask {
  /** The task's name in the workflow's definition. */
  id: string;
  workflow: WorkflowName;
  handler: string;
  description: string;
  /** Well inside the definition's per-attempt timeout, so a stuck attempt is retried, not waited on. */
  timeoutSeconds: number;
  uses: ResourceUses;
}

const TASKS: (Omit<WorkflowTask, 'uses'> & { uses: ResourceUses<string> })[] = [
  {
    id: 'purgePage',
    workflow: 'purge',
    handler: 'connectors/api/handlers/purge-tasks',
    description: 'Purge workflow: delete the vault documents of one page of a ledger',
    timeoutSeconds: 60,
    uses: { tables: { connectors: 'write', vault: 'write' }, vault: 'delete' },
  },
  {
    id: 'finishPurge',
    workflow: 'purge',
    handler: 'connectors/api/handlers/purge-tasks',
    description: 'Purge workflow: record the job outcome',
    timeoutSeconds: 10,
    uses: { tables: { connectors: 'write' } },
  },
];

export const WORKFLOW_TASKS: readonly WorkflowTask[] = TASKS.map((t) => ({
  ...t,
  uses: checkedUses(t.id, t.uses),
}));
