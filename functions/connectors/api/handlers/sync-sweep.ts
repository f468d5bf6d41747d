// Scheduled (EventBridge, every minute): start the scheduled import runs that are due, re-drive the
// jobs whose step message was lost. No HTTP: the schedule is its only caller.
import type { Context } from 'aws-lambda';
import type { Deps } from '../../../platform/ports';
import { logger } from '../../../platform/logger';
import { loggedFailure } from '../../../platform/stack-trace';
import type { SyncSweepSummary } from '../../app/sync-sweep';
import { runSyncSweep } from '../../app/sync-sweep';

/** No entry is started this close to the Lambda's timeout. */
const SAFETY_MS = 15_000;

export const create =
  (deps: Deps) =>
  async (_event: unknown, context: Context): Promise<SyncSweepSummary> => {
    const log = logger.child({ requestId: context.awsRequestId, worker: 'syncSweep' });
    const summary = await loggedFailure(log, 'sync sweep failed', () =>
      runSyncSweep(deps, {
        log,
        timeLeft: () => context.getRemainingTimeInMillis() - SAFETY_MS,
      }),
    );
    if (summary.entries) log.info('sync sweep finished', summary);
    return summary;
  };
