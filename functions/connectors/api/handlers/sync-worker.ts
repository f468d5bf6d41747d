// SQS (syncs queue) -> one step of an import run or an export (see app/job-steps.ts).
import { sqsHandler } from '../../../platform/sqs';
import { connectorConfig } from '../../infra/config';
import { runExportStep } from '../../app/exports';
import { stepMessageSchema } from '../../app/job-steps';
import { runSyncStep } from '../../app/sync-runs';

export const create = sqsHandler('sync-worker', stepMessageSchema(), async ({ message, deps, log }) => {
  const run = message.kind === 'sync' ? runSyncStep : runExportStep;
  await run(deps, connectorConfig(deps.secrets), message, { log: log.child({ jobId: message.jobId }) });
  return 'done';
});
