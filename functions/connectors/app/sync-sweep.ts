// The scheduled sync sweep (EventBridge, every minute; a timer locally): pages through the sync due
// index and takes each entry that is due. A scheduled link starts its run, or records why it did not
// (the provider turned off, the connection needing the user, a run still in flight) and moves on to
// its next time. A job whose step message was lost (nothing advanced it for STALE_JOB_MS) is re-driven;
// a single-process runtime re-drives every job in flight at its start (redriveAbandonedJobs).
import type { Deps } from '../../platform/ports';
import { AppError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { effectiveStatus } from '../domain/token-policy';
import { queueStep } from './job-steps';
import type { SteppedJob } from './job-steps';
import type { ImportLinkItem } from './links';
import { advanceSchedule } from './links';
import { Links } from '../infra/repositories/import-links';
import { JobRepository } from '../infra/repositories/jobs';
import { SYNC_DUE_SHARDS, syncDueAtOf, syncDuePage } from '../infra/repositories/sync-due';
import { isProviderEnabled } from './provider-settings';
import { ConnectionRepository } from '../infra/repositories/connections';
import { recordSkippedRun, startRun } from './sync-runs';

export type SyncSweepOutcome = 'started' | 'skipped' | 'redriven' | 'not_due' | 'cleaned' | 'errors';

export type SyncSweepSummary = Partial<Record<SyncSweepOutcome, number>> & {
  entries: number;
  truncated: boolean;
};

const PAGE_SIZE = 50;
const MAX_PAGES = 200;

export async function runSyncSweep(
  deps: Deps,
  options: { log: Logger; timeLeft?: () => number },
): Promise<SyncSweepSummary> {
  const startedAt = deps.clock.now();
  const summary: SyncSweepSummary = { entries: 0, truncated: false };
  const count = (outcome: SyncSweepOutcome) => (summary[outcome] = (summary[outcome] ?? 0) + 1);
  let pages = 0;
  for (let shard = 0; shard < SYNC_DUE_SHARDS && !summary.truncated; shard++) {
    let cursor: string | undefined;
    do {
      if ((options.timeLeft?.() ?? Infinity) <= 0 || ++pages > MAX_PAGES) {
        summary.truncated = true;
        break;
      }
      const page = await syncDuePage(deps, shard, cursor, PAGE_SIZE);
      const due = page.items.filter((item) => item.dueAt <= startedAt);
      for (const item of due) {
        summary.entries++;
        try {
          count(
            item.kind === 'LINK'
              ? await scheduledRun(deps, item.id, options.log)
              : await redrive(deps, item.id, options.log),
          );
        } catch (error) {
          count('errors');
          options.log.error('sync sweep entry failed', { kind: item.kind, id: item.id, error });
        }
      }
      if (due.length < page.items.length) break; // the rest comes due later
      cursor = page.cursor;
    } while (cursor);
  }
  return summary;
}

/** Why a scheduled run cannot start now, or undefined when it can. */
async function skipReason(deps: Deps, link: ImportLinkItem): Promise<string | undefined> {
  const connection = await ConnectionRepository.of(deps).get(link.connectionId);
  const status = connection ? effectiveStatus(connection, deps.clock.now()) : 'revoked';
  if (status === 'revoked' || status === 'pending' || status === 'reauth_required')
    return `connection_${status}`;
  if (!(await isProviderEnabled(deps, link.organizationId, link.provider))) return 'provider_disabled';
  return undefined;
}

async function scheduledRun(deps: Deps, linkId: string, log: Logger): Promise<SyncSweepOutcome> {
  const links = Links.of(deps);
  const link = await links.get(linkId);
  const now = deps.clock.now();
  if (!link) return 'cleaned';
  if (!link.schedule || link.pausedAt !== undefined) {
    // Conditional: an edit that scheduled or resumed the link meanwhile set a new nextRunAt.
    await links.update(
      link.id,
      { remove: ['nextRunAt'] },
      { attr: 'updatedAt', op: '=', value: link.updatedAt },
    );
    return 'cleaned';
  }
  if ((link.nextRunAt ?? 0) > now) return 'not_due';
  let reason = await skipReason(deps, link);
  if (!reason) {
    try {
      const run = await startRun(deps, link.organizationId, link.id, 'schedule', log);
      if (!run.started) reason = 'previous_run_in_progress';
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      reason = 'refused';
      log.warn('scheduled run refused', { linkId: link.id, message: error.message });
    }
  }
  if (reason) await recordSkippedRun(deps, link, link.nextRunAt!, reason);
  // A revoked connection never runs again: its link leaves the schedule (the link and ledger stay).
  const unschedule = reason === 'connection_revoked';
  await links.update(
    link.id,
    {
      set: {
        ...(unschedule ? {} : advanceSchedule(link, now)),
        ...(reason ? { lastSkip: { at: now, reason } } : {}),
        updatedAt: now,
      },
      ...(unschedule ? { remove: ['nextRunAt'] } : {}),
    },
    { attr: 'nextRunAt', op: '=', value: link.nextRunAt! },
  );
  if (reason) log.info('scheduled run skipped', { linkId: link.id, reason });
  return reason ? 'skipped' : 'started';
}

/** `abandoned`: the caller knows nobody holds the job (a restart of a single process), due or not. */
async function redrive(deps: Deps, jobId: string, log: Logger, abandoned = false): Promise<SyncSweepOutcome> {
  const jobs = JobRepository.of(deps);
  const job = await jobs.get<SteppedJob>(jobId);
  if (!job) return 'cleaned';
  if (job.status !== 'processing') {
    await jobs.clearHeartbeat(jobId);
    return 'cleaned';
  }
  if (!abandoned && syncDueAtOf(job) > deps.clock.now()) return 'not_due';
  log.warn(abandoned ? 're-driving a job the last process held' : 're-driving a job nobody advanced', {
    jobId,
    kind: job.kind,
    ticket: job.ticket,
  });
  return (await queueStep(deps, job)) ? 'redriven' : 'not_due';
}

/**
 * For a single-process runtime's start (`npm start`, before its workers consume): every stepped job
 * still processing was in the hands of the process that stopped, since no other consumer exists, so
 * each is re-driven now instead of when its heartbeat passes (STALE_JOB_MS, 20 minutes). That covers a
 * step message lost between the job's write and the send, which no queue hands back. The new ticket
 * makes the message the last process held stale, so the step runs once; a job waiting out a rate limit
 * or a backoff goes back to its wait (advanceJob hops to `waitUntil`). Never called on AWS: there a job
 * whose heartbeat has not passed may be in a live worker's hands, and the sweep's rule stands.
 */
export async function redriveAbandonedJobs(deps: Deps, log: Logger): Promise<number> {
  // Read first, then re-drive: a re-driven job moves later in the index, where the walk would meet it again.
  const jobIds: string[] = [];
  for (let shard = 0; shard < SYNC_DUE_SHARDS; shard++) {
    let cursor: string | undefined;
    do {
      const page = await syncDuePage(deps, shard, cursor, PAGE_SIZE);
      jobIds.push(...page.items.filter((entry) => entry.kind === 'JOB').map((entry) => entry.id));
      cursor = page.cursor;
    } while (cursor);
  }
  let redriven = 0;
  for (const jobId of jobIds) if ((await redrive(deps, jobId, log, true)) === 'redriven') redriven++;
  return redriven;
}
