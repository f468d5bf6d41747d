// Scheduled (EventBridge, every 5 minutes): refresh the access tokens that are due, end the throttles
// whose window passed. No HTTP: the schedule is its only caller.
import type { Context } from 'aws-lambda';
import type { Deps } from '../../../platform/ports';
import { logger } from '../../../platform/logger';
import { loggedFailure } from '../../../platform/stack-trace';
import { connectorConfig } from '../../infra/config';
import type { SweepSummary } from '../../app/sweep';
import { runRefreshSweep } from '../../app/sweep';

/** No entry is started this close to the Lambda's timeout: one refresh may take ~35 s. */
const SAFETY_MS = 45_000;

export const create =
  (deps: Deps) =>
  async (_event: unknown, context: Context): Promise<SweepSummary> => {
    const log = logger.child({ requestId: context.awsRequestId, worker: 'refreshSweep' });
    const summary = await loggedFailure(log, 'refresh sweep failed', () =>
      runRefreshSweep(deps, connectorConfig(deps.secrets), {
        log,
        timeLeft: () => context.getRemainingTimeInMillis() - SAFETY_MS,
      }),
    );
    log.info('refresh sweep finished', summary);
    return summary;
  };
