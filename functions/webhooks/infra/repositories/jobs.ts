// The recover-job repository: the only code that knows how jobs are keyed, and the conditions that
// let one message (of duplicates) commit a page.
import { won } from '../../../platform/errors';
import type { Deps, Item } from '../../../platform/ports';
import type { JobItem } from '../../domain/recover-job';

type TableDeps = Pick<Deps, 'tables'>;

const jobKey = (id: string) => ({ pk: `JOB#${id}`, sk: 'JOB' });

export function createJob(deps: TableDeps, job: JobItem): Promise<void> {
  return deps.tables.webhooks.put({ ...job, ...jobKey(job.id) }, { itemExists: false });
}

export async function getJob(deps: TableDeps, id: string): Promise<JobItem | undefined> {
  const item = await deps.tables.webhooks.get<Item>(jobKey(id));
  return item as unknown as JobItem | undefined;
}

/**
 * Commits a page of a processing job: `set` applied only while the job is at `job.page` (absent on a
 * job started before paging: its first commit sets it). false: a duplicate message committed it first.
 */
export function commitJobPage(
  deps: TableDeps,
  job: Pick<JobItem, 'id' | 'page'>,
  set: Partial<JobItem>,
  remove: (keyof JobItem)[],
): Promise<boolean> {
  return won(
    deps.tables.webhooks.update(
      jobKey(job.id),
      { set, ...(remove.length ? { remove } : {}) },
      {
        and: [
          { attr: 'status', op: '=', value: 'processing' },
          job.page === undefined
            ? { attr: 'page', exists: false }
            : { attr: 'page', op: '=', value: job.page },
        ],
      },
    ),
  );
}

/** Marks a processing job failed; false when it was no longer processing. */
export function failProcessingJob(deps: TableDeps, id: string, set: Partial<JobItem>): Promise<boolean> {
  return won(
    deps.tables.webhooks.update(
      jobKey(id),
      { set: { ...set, status: 'failed' } },
      { attr: 'status', op: '=', value: 'processing' },
    ),
  );
}
