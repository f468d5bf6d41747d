// Replay: the same event (same id) sent again now, as a new cycle of the delivery's state machine.
// Recover: every failed or skipped delivery of an endpoint in a time window replayed, as a job.
import { isoTime } from '../../platform/clock';
import type { Deps } from '../../platform/ports';
import { ConflictError, InvalidRequestError, NotFoundError } from '../../platform/errors';
import { isId, newId } from '../../platform/ids';
import type { Logger } from '../../platform/logger';
import { loadEndpoint } from './endpoints';
import { step } from '../domain/delivery-step';
import type { RecoverMessage } from '../domain/messages';
import { attemptBody, recoverBody } from '../domain/messages';
import type { DeliveryItem } from '../domain/records';
import type { DeliveryView, WebhookJob } from '../api/views';
import { toDeliveryView } from '../api/views';
import type { JobItem } from '../domain/recover-job';
import {
  applyChange,
  endpointDeliveryPage,
  findDelivery,
  getDelivery,
} from '../infra/repositories/deliveries';
import * as jobs from '../infra/repositories/jobs';

type ReplayDeps = Pick<Deps, 'tables' | 'queues' | 'clock'>;

/** The most deliveries one recover job replays. */
export const MAX_RECOVER_DELIVERIES = 10_000;

/**
 * Starts a new cycle of the delivery (step `replay`) and sends its first message; undefined when
 * another replay started one first.
 */
async function startCycle(
  deps: ReplayDeps,
  delivery: DeliveryItem,
  recoveredBy?: string,
): Promise<DeliveryItem | undefined> {
  const decided = step(delivery, undefined, { kind: 'replay', recoveredBy }, deps.clock.now());
  if (decided.kind === 'refuse') return undefined;
  const updated = await applyChange(deps, delivery.id, decided.change!);
  if (!updated) return undefined;
  for (const send of decided.send) await deps.queues.deliveries.send({ body: attemptBody(send.message) });
  return updated;
}

export async function replayDelivery(
  deps: ReplayDeps,
  organizationId: string,
  id: string,
): Promise<DeliveryView> {
  const delivery = isId('dlv', id) ? await findDelivery(deps, organizationId, id) : undefined;
  if (!delivery) throw new NotFoundError('Delivery not found');
  const replayed = await startCycle(deps, delivery);
  if (!replayed) throw new ConflictError('The delivery was replayed at the same time; retry');
  return toDeliveryView(replayed);
}

export type { JobItem, JobStatus } from '../domain/recover-job';

export type JobView = WebhookJob;

const jobView = (job: JobItem): JobView => ({
  id: job.id,
  type: job.type,
  status: job.status,
  endpointId: job.endpointId,
  since: isoTime(job.since),
  until: isoTime(job.until),
  counts: job.counts,
  error: job.error ?? null,
  createdAt: isoTime(job.createdAt),
  updatedAt: isoTime(job.updatedAt),
});

export async function startRecovery(
  deps: ReplayDeps & Pick<Deps, 'keys'>,
  organizationId: string,
  endpointId: string,
  window: { since: string; until?: string },
): Promise<JobView> {
  await loadEndpoint(deps, organizationId, endpointId);
  const now = deps.clock.now();
  const since = Date.parse(window.since);
  const until = window.until === undefined ? now : Date.parse(window.until);
  if (since >= until) throw new InvalidRequestError('since: must be before until');
  const id = newId('job');
  const job: JobItem = {
    id,
    organizationId,
    type: 'webhooks.endpoint.recover',
    endpointId,
    since,
    until,
    status: 'processing',
    counts: { matched: 0, replayed: 0, failed: 0 },
    page: 0,
    createdAt: now,
    updatedAt: now,
  };
  await jobs.createJob(deps, job);
  await deps.queues.deliveries.send({ body: recoverBody({ organizationId, jobId: id, page: 0 }) });
  return jobView(job);
}

export async function getJob(
  deps: Pick<Deps, 'tables'>,
  organizationId: string,
  id: string,
): Promise<JobView> {
  const job = isId('job', id) ? await jobs.getJob(deps, id) : undefined;
  if (!job || job.organizationId !== organizationId) throw new NotFoundError('Job not found');
  return jobView(job);
}

/**
 * A pending or retrying delivery whose next step is this long overdue has lost its queue message (a
 * message that reached a dead-letter queue, or a runtime that lost it): recover starts it again.
 */
export const STUCK_AFTER_MS = 15 * 60_000;

/** What a recover job replays: failed and skipped deliveries, and those stuck past their due time. */
export function recoverable(delivery: DeliveryItem, now: number): boolean {
  if (delivery.status === 'failed' || delivery.status === 'skipped_disabled') return true;
  if (delivery.status === 'retrying')
    return (delivery.nextAttemptAt ?? delivery.updatedAt) + STUCK_AFTER_MS < now;
  if (delivery.status === 'pending') return delivery.updatedAt + STUCK_AFTER_MS < now;
  return false;
}

/** How many of the endpoint's deliveries one recover message reads (and at most replays). */
export const RECOVER_PAGE_SIZE = 200;
/** Replays in flight at once within a page. */
const REPLAY_CONCURRENCY = 8;

type Counts = JobItem['counts'];

interface PageOutcome {
  counts: Counts;
  /** Where the next page starts; undefined when the job is done. */
  cursor?: string;
}

/**
 * Replays one recoverable delivery for the job, or recognises one this job already replayed (a page
 * run again after a crash or a duplicate message): counted either way, replayed once.
 */
async function recoverOne(deps: ReplayDeps, job: JobItem, delivery: DeliveryItem): Promise<keyof Counts> {
  if (delivery.recoveredBy === job.id) return 'replayed';
  if (await startCycle(deps, delivery, job.id)) return 'replayed';
  // The index is eventually consistent: read the item itself before deciding who replayed it.
  const now = await getDelivery(deps, delivery.id);
  return now?.recoveredBy === job.id ? 'replayed' : 'failed'; // failed: replayed by someone else
}

/** One page of a job: the next `pageSize` deliveries of the endpoint, newest first, down to `since`. */
async function recoverPage(deps: ReplayDeps, job: JobItem, pageSize: number): Promise<PageOutcome> {
  const page = await endpointDeliveryPage(deps, job.endpointId, pageSize, job.cursor);
  const counts: Counts = { matched: 0, replayed: 0, failed: 0 };
  const chosen: DeliveryItem[] = [];
  let finished = page.cursor === undefined;
  for (const delivery of page.items) {
    if (delivery.createdAt < job.since) {
      finished = true;
      break;
    }
    const ours = delivery.recoveredBy === job.id;
    if (delivery.createdAt > job.until || !(ours || recoverable(delivery, deps.clock.now()))) continue;
    if (job.counts.matched + ++counts.matched > MAX_RECOVER_DELIVERIES) {
      finished = true;
      break;
    }
    chosen.push(delivery);
  }
  for (let i = 0; i < chosen.length; i += REPLAY_CONCURRENCY) {
    const outcomes = await Promise.all(
      chosen.slice(i, i + REPLAY_CONCURRENCY).map((delivery) => recoverOne(deps, job, delivery)),
    );
    for (const outcome of outcomes) counts[outcome]++;
  }
  return { counts, cursor: finished ? undefined : page.cursor };
}

const sendPage = (deps: ReplayDeps, job: JobItem, page: number) =>
  deps.queues.deliveries.send({
    body: recoverBody({ organizationId: job.organizationId, jobId: job.id, page }),
  });

/**
 * Commits a page: the counts added and the next page's start recorded, or the job finished, in one
 * write conditional on the page still being the job's current one. false: a duplicate message
 * committed it first.
 */
async function commitPage(deps: ReplayDeps, job: JobItem, outcome: PageOutcome): Promise<boolean> {
  const counts = {
    matched: job.counts.matched + outcome.counts.matched,
    replayed: job.counts.replayed + outcome.counts.replayed,
    failed: job.counts.failed + outcome.counts.failed,
  };
  const done = outcome.cursor === undefined;
  return jobs.commitJobPage(
    deps,
    job,
    {
      counts,
      page: (job.page ?? 0) + 1,
      updatedAt: deps.clock.now(),
      ...(done ? { status: 'succeeded' } : { cursor: outcome.cursor }),
    },
    done ? ['cursor'] : [],
  );
}

/**
 * Runs one page of a recover job and hands the next page to a new message, so a job of any size
 * finishes, each message well inside the worker's timeout. The job record holds the progress (page,
 * cursor, counts): a redelivered message whose page was committed only makes sure its successor was
 * sent; one whose page was not runs it again, replaying nothing twice.
 */
export async function runRecovery(
  deps: ReplayDeps,
  message: RecoverMessage,
  log: Logger,
  options: { pageSize?: number } = {},
): Promise<void> {
  const job = await jobs.getJob(deps, message.jobId);
  if (!job || job.status !== 'processing') return; // finished: a redelivered message
  const current = job.page ?? 0; // jobs started before paging have no page: their first
  if (message.page < current) {
    // Committed already; a crash may have come between the commit and sending the next page.
    if (message.page === current - 1) await sendPage(deps, job, current);
    return;
  }
  if (message.page > current) {
    log.warn('recover message ahead of its job: dropped', { jobId: job.id, page: message.page, current });
    return;
  }
  try {
    const outcome = await recoverPage(deps, job, options.pageSize ?? RECOVER_PAGE_SIZE);
    if (!(await commitPage(deps, job, outcome))) return; // a duplicate committed it
    if (outcome.cursor !== undefined) await sendPage(deps, job, current + 1);
    else log.info('recover job finished', { jobId: job.id, endpointId: job.endpointId, pages: current + 1 });
  } catch (error) {
    log.error('recover job failed', { jobId: job.id, page: current, error });
    await failJob(deps, job.id);
  }
}

/** Marks a processing job failed (a page that threw, or whose message is being given up on). */
export async function failJob(deps: Pick<Deps, 'tables' | 'clock'>, jobId: string): Promise<void> {
  await jobs.failProcessingJob(deps, jobId, {
    updatedAt: deps.clock.now(),
    error: 'The job stopped on an internal error; deliveries replayed so far stay replayed',
  });
}
