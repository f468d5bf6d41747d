// The purge workflow's tasks: the Lambda handler (both task functions run it) and the dispatcher the
// local runtime and the emulator worker call with the same envelope, {task, input}.
import * as z from 'zod/mini';
import { finishPurge, PurgeRefusedError, purgePage } from '../../app/purge';
import type { Deps } from '../../../platform/ports';
import { logger } from '../../../platform/logger';
import { loggedFailure } from '../../../platform/stack-trace';

const ids = { jobId: z.string().check(z.minLength(1)), organizationId: z.string().check(z.minLength(1)) };

const envelope = z.discriminatedUnion('task', [
  z.object({
    task: z.literal('purgePage'),
    input: z.object({
      ...ids,
      connectionId: z.string().check(z.minLength(1)),
      cursor: z.nullish(z.string()),
      pageSize: z.optional(z.number().check(z.int()).check(z.gte(1)).check(z.lte(1000))),
    }),
  }),
  z.object({
    task: z.literal('finishPurge'),
    input: z.object({
      ...ids,
      outcome: z.enum(['succeeded', 'failed']),
      pages: z.number().check(z.int()).check(z.gte(0)),
      error: z.optional(z.object({ Error: z.optional(z.string()), Cause: z.optional(z.string()) })),
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

/**
 * The Lambda handler: a task that fails is logged with its stack at the original source lines (the
 * Lambda runtime then prints the minified one and Step Functions retries or catches the failure).
 */
export const create =
  (deps: Deps) =>
  (event: unknown): Promise<unknown> =>
    loggedFailure(logger.child({ task: taskName(event) }), 'purge task failed', () =>
      runPurgeTask(deps, event),
    );

const taskName = (event: unknown): string =>
  typeof event === 'object' && event !== null && typeof (event as { task?: unknown }).task === 'string'
    ? String((event as { task: string }).task).slice(0, 40)
    : 'unknown';
