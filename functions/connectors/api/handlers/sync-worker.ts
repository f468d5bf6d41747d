// SQS (syncs queue) -> one step of an import run or an export (see app/job-steps.ts).
import { sqsHandler } from '../../../platform/sqs';
import { invocationContext } from '../../app/context';
import { stepMessageSchema } from '../../app/job-steps';
import { runSyncStep } from '../../app/sync-runs';

// The export's own code loads with the first export step: most of the worker's messages are import
// steps, and what every cold start loads stays within the bundle budget.
const exportStep = async () => (await import('../../app/exports')).runExportStep;

export const create = sqsHandler('sync-worker', stepMessageSchema(), async ({ message, deps, log }) => {
  const run = message.kind === 'sync' ? runSyncStep : await exportStep();
  // One context for the message: its step's provider calls share one token read.
  await run(invocationContext(deps, log.child({ jobId: message.jobId })), message);
  return 'done';
});
