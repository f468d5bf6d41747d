// Connector jobs: the long-running operations a client polls at GET /connectors/jobs/{id} (a purge on
// disconnect, an import run, an export). Stored by infra/repositories/jobs.ts.
import { isoTime } from '../../platform/clock';
import type { JobBase } from '../infra/repositories/jobs';

export type { JobBase, JobItem, JobKind, JobStatus } from '../infra/repositories/jobs';

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
