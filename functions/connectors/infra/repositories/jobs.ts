// Connector jobs over the Table port (the connectors table): the long-running operations a client polls
// at GET /connectors/jobs/{id} (a purge on disconnect, an import run, an export). The only code that
// knows their keys and conditions:
//   JOB#<id> / JOB              one job; each kind keeps its own progress fields beside the common ones
//                               (gsi1 for an import run: ILINK#<link>#RUNS / <created ISO>#<job>, its
//                               link's runs; gsi2 while a stepped job runs: its heartbeat, sync-due.ts)
//   CONN#<connection> / PURGE   which job purges the connection (one at a time)
import { ConditionFailedError, won } from '../../../platform/errors';
import { isId } from '../../../platform/ids';
import type { Pagination, Window } from '../../../platform/pagination';
import { queryWindow } from '../../../platform/pagination';
import type { Condition, Item, Table, Update, Deps } from '../../../platform/ports';
import { isoTime } from '../../../platform/clock';
import { SYNC_DUE_ATTRIBUTES, syncDueEntry } from './sync-due';

export type JobKind = 'purge' | 'sync' | 'export';
export type JobStatus = 'processing' | 'succeeded' | 'failed' | 'skipped';

export interface JobBase {
  id: string;
  organizationId: string;
  kind: JobKind;
  connectionId: string;
  status: JobStatus;
  /** Why it failed (a code a client can branch on), with `message` for people. */
  reason?: string;
  createdAt: number;
  updatedAt: number;
  finishedAt?: number;
}

export type JobItem<T extends JobBase = JobBase> = Item & T;

const jobKey = (id: string) => ({ pk: `JOB#${id}`, sk: 'JOB' });
const runsPartition = (linkId: string) => `ILINK#${linkId}#RUNS`;
const purgePointerKey = (connectionId: string) => ({ pk: `CONN#${connectionId}`, sk: 'PURGE' });

const PROCESSING: Condition = { attr: 'status', op: '=', value: 'processing' };
/** A stepped job's step is current while the job processes under the ticket it was queued with. */
const onTicket = (ticket: number): Condition => ({
  and: [PROCESSING, { attr: 'ticket', op: '=', value: ticket }],
});

async function unlessConditionFails<T>(write: Promise<T>): Promise<T | undefined> {
  try {
    return await write;
  } catch (error) {
    if (error instanceof ConditionFailedError) return undefined;
    throw error;
  }
}

export class JobRepository {
  constructor(private readonly table: Table) {}

  /** The repository over the connectors table of a composition's ports. */
  static of(deps: Pick<Deps, 'tables'>): JobRepository {
    return new JobRepository(deps.tables.connectors);
  }

  /** A job by id, of any kind; undefined for a malformed or unknown id. */
  get<T extends JobBase = JobBase>(id: string): Promise<JobItem<T> | undefined> {
    return isId('job', id) ? this.table.get<JobItem<T>>(jobKey(id)) : Promise.resolve(undefined);
  }

  /** The organization's job; another organization's reads as unknown. */
  async find<T extends JobBase = JobBase>(
    organizationId: string,
    id: string,
  ): Promise<JobItem<T> | undefined> {
    const job = await this.get<T>(id);
    return job && job.organizationId === organizationId ? job : undefined;
  }

  /**
   * Stores a new job. `runOf`: an import run, listed under its link. `heartbeatAt`: a stepped job the
   * sync sweep re-drives if nothing advanced it by then.
   */
  async create(job: JobBase, options: { runOf?: string; heartbeatAt?: number } = {}): Promise<void> {
    await this.table.put(
      {
        ...jobKey(job.id),
        ...(options.runOf
          ? { gsi1pk: runsPartition(options.runOf), gsi1sk: `${isoTime(job.createdAt)}#${job.id}` }
          : {}),
        ...job,
        ...(options.heartbeatAt !== undefined ? syncDueEntry('JOB', job.id, options.heartbeatAt) : {}),
      },
      { itemExists: false },
    );
  }

  async delete(id: string): Promise<void> {
    await this.table.delete(jobKey(id));
  }

  /** A link's runs, newest first. */
  listRuns<T extends JobBase>(linkId: string, page: Pagination): Promise<Window<JobItem<T>>> {
    return queryWindow<JobItem<T>>(
      this.table,
      { index: 'gsi1', partition: runsPartition(linkId), descending: true },
      page,
    );
  }

  /** Moves a stepped job to its next ticket (and heartbeat) over `ticket`; false when it moved on. */
  nextTicket(
    id: string,
    ticket: number,
    set: Record<string, unknown>,
    heartbeatAt: number,
  ): Promise<boolean> {
    return won(
      this.table.update(
        jobKey(id),
        { set: { ...set, ticket: ticket + 1, ...syncDueEntry('JOB', id, heartbeatAt) } },
        onTicket(ticket),
      ),
    );
  }

  /**
   * A step's progress, over the ticket it ran under, once per ticket: the write records the ticket as
   * committed, so a copy of the step running at the same time (SQS delivers at least once) cannot
   * commit it again. Undefined when a duplicate committed first.
   */
  commitStep<T extends JobBase>(id: string, ticket: number, update: Update): Promise<JobItem<T> | undefined> {
    return unlessConditionFails(
      this.table.update<JobItem<T>>(
        jobKey(id),
        { ...update, set: { ...update.set, committedTicket: ticket } },
        {
          and: [
            onTicket(ticket),
            {
              or: [
                { attr: 'committedTicket', exists: false },
                { attr: 'committedTicket', op: '<>', value: ticket },
              ],
            },
          ],
        },
      ),
    );
  }

  /** Records how a processing job ended (out of the sync sweep); undefined when it already had. */
  finish<T extends JobBase>(
    id: string,
    set: Partial<JobBase> & Record<string, unknown>,
    remove: string[] = [],
  ): Promise<JobItem<T> | undefined> {
    return unlessConditionFails(
      this.table.update<JobItem<T>>(
        jobKey(id),
        { set, remove: [...remove, ...SYNC_DUE_ATTRIBUTES] },
        PROCESSING,
      ),
    );
  }

  /** Marks a job failed with its reason, unless it already reached an outcome; true when this call did. */
  async failProcessing(
    id: string,
    reason: string,
    now: number,
    extra: { set?: Record<string, unknown>; remove?: string[] } = {},
  ): Promise<boolean> {
    const failed = await this.finish(
      id,
      { status: 'failed', reason, updatedAt: now, finishedAt: now, ...extra.set },
      extra.remove,
    );
    return failed !== undefined;
  }

  /** Takes a job whose heartbeat entry is stale but that is no longer processing out of the sweep. */
  async clearHeartbeat(id: string): Promise<void> {
    await this.table.update(jobKey(id), { remove: SYNC_DUE_ATTRIBUTES });
  }

  /** A purge's workflow execution. */
  async setExecution(id: string, executionId: string): Promise<void> {
    await this.table.update(jobKey(id), { set: { executionId } });
  }

  /** A purge page about to be deleted, recorded before its deletions (a retried task finds it). */
  async startPage(id: string, start: string, entries: unknown[], next: string | null): Promise<void> {
    await this.table.update(jobKey(id), { set: { pageStart: start, pageEntries: entries, pageNext: next } });
  }

  /** Counts a deleted page once: only while the page started at `start` is still recorded. */
  commitPage(id: string, start: string, count: number, now: number): Promise<boolean> {
    return won(
      this.table.update(
        jobKey(id),
        {
          add: { deleted: count },
          set: { updatedAt: now },
          remove: ['pageStart', 'pageEntries', 'pageNext'],
        },
        { attr: 'pageStart', op: '=', value: start },
      ),
    );
  }

  /** Which job purges the connection, if one was ever started. */
  async purgeOf(connectionId: string): Promise<string | undefined> {
    return (await this.table.get<Item & { jobId: string }>(purgePointerKey(connectionId)))?.jobId;
  }

  /** Makes `jobId` the connection's purge, over `previous` (none for the first); false when another won. */
  claimPurge(connectionId: string, jobId: string, previous: string | undefined): Promise<boolean> {
    return won(
      this.table.put(
        { ...purgePointerKey(connectionId), jobId },
        previous ? { attr: 'jobId', op: '=', value: previous } : { itemExists: false },
      ),
    );
  }
}
