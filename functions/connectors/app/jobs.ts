// Connector jobs: the long-running operations a client polls at GET /connectors/jobs/{id} (a purge on
// disconnect, an import run, an export). One record per job in the connectors table (JOB#<id> / JOB);
// each kind keeps its own progress fields beside the common ones.
import { isoTime } from '../../platform/clock';
import { won } from '../../platform/errors';
import { isId } from '../../platform/ids';
import type { Item, Table } from '../../platform/ports';

export type JobKind = 'purge' | 'sync' | 'export';
export type JobStatus = 'processing' | 'succeeded' | 'failed';

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

export const jobKey = (id: string) => ({ pk: `JOB#${id}`, sk: 'JOB' });

/** A job by id, of any kind; undefined for a malformed id, an unknown one or another organization's. */
export async function findJob<T extends JobBase = JobBase>(
  table: Table,
  organizationId: string,
  id: string,
): Promise<JobItem<T> | undefined> {
  const job = isId('job', id) ? await table.get<JobItem<T>>(jobKey(id)) : undefined;
  return job && job.organizationId === organizationId ? job : undefined;
}

/** The fields every job view shows, in API form. */
export function jobViewBase(job: JobBase) {
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    connection_id: job.connectionId,
    ...(job.reason ? { reason: job.reason } : {}),
    created_at: isoTime(job.createdAt),
    updated_at: isoTime(job.updatedAt),
    ...(job.finishedAt ? { finished_at: isoTime(job.finishedAt) } : {}),
  };
}

/** Marks a job failed with its reason, unless it already reached an outcome; true when this call did. */
export function failProcessingJob(
  table: Table,
  jobId: string,
  reason: string,
  now: number,
  extra: { set?: Record<string, unknown>; remove?: string[] } = {},
): Promise<boolean> {
  return won(
    table.update(
      jobKey(jobId),
      {
        set: { status: 'failed', reason, updatedAt: now, finishedAt: now, ...extra.set },
        remove: extra.remove,
      },
      { attr: 'status', op: '=', value: 'processing' },
    ),
  );
}
