// The purge workflow's tasks: the Lambda handler (both task functions run it) and the dispatcher the
// local runtime and the emulator worker call with the same envelope, {task, input}.
import * as z from 'zod';
import { finishPurge, PurgeRefusedError, purgePage } from '../../app/purge';
import type { Deps } from '../../../platform/ports';
import { logger } from '../../../platform/logger';

const ids = { jobId: z.string().min(1), organizationId: z.string().min(1) };

const envelope = z.discriminatedUnion('task', [
  z.object({
    task: z.literal('purgePage'),
    input: z.object({
      ...ids,
      connectionId: z.string().min(1),
      cursor: z.string().nullish(),
      pageSize: z.number().int().min(1).max(1000).optional(),
    }),
  }),
  z.object({
    task: z.literal('finishPurge'),
    input: z.object({
      ...ids,
      outcome: z.enum(['succeeded', 'failed']),
      pages: z.number().int().min(0),
      error: z.object({ Error: z.string().optional(), Cause: z.string().optional() }).optional(),
    }),
  }),
]);

export async function runPurgeTask(deps: Deps, event: unknown): Promise<unknown> {
  const parsed = envelope.safeParse(event);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new PurgeRefusedError(`Malformed task input: ${issues}`);
  }
  const { task, input } = parsed.data;
  const log = logger.child({ task, jobId: input.jobId });
  if (task === 'finishPurge') return finishPurge(deps, input, log);
  return purgePage(deps, input, log);
}

export const create =
  (deps: Deps) =>
  (event: unknown): Promise<unknown> =>
    runPurgeTask(deps, event);
