// SQS (syncs queue) -> one step of an import run or an export (see app/job-steps.ts).
import { sqsHandler } from '../../../platform/sqs';
import { connectorConfig } from '../../infra/config';
import { stepMessageSchema } from '../../app/job-steps';
import { runSyncStep } from '../../app/sync-runs';

// The export's own code loads with the first export step: most of the worker's messages are import
// steps, and what every cold start loads stays within the bundle budget.
const exportStep = async () => (await import('../../app/exports')).runExportStep;

export const create = sqsHandler('sync-worker', stepMessageSchema(), async ({ message, deps, log }) => {
  const run = message.kind === 'sync' ? runSyncStep : await exportStep();
  await run(deps, connectorConfig(deps.secrets), message, { log: log.child({ jobId: message.jobId }) });
  return 'done';
});
