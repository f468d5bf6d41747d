// The worker table (functions/platform/workers.ts) holds together: every handler module it names
// exists and exports the factory the runtimes call, ids are unique, each queue's visibility is six
// times its worker's timeout, schedules finish within their rate, and a worker cannot name a queue
// the table does not have.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  QUEUE_NAMES,
  QUEUE_WORKERS,
  SCHEDULED_WORKERS,
  WORKFLOW_TASKS,
} from '../../functions/platform/workers';
import { PURGE_TASKS } from '../../functions/connectors/infra/purge-definition';

const FUNCTIONS = join(
  import.meta.dirname ?? new URL('.', import.meta.url).pathname,
  '..',
  '..',
  'functions',
);
const all = [...Object.values(QUEUE_WORKERS), ...SCHEDULED_WORKERS, ...WORKFLOW_TASKS];

describe('the worker table', () => {
  it.each(all.map((w) => [w.id, w.handler] as const))(
    '%s runs a handler module that exists and exports create(deps)',
    async (_id, handler) => {
      const file = join(FUNCTIONS, `${handler}.ts`);
      expect(existsSync(file)).toBe(true);
      const module = (await import(file)) as { create?: unknown };
      expect(typeof module.create).toBe('function');
    },
  );

  it('names each worker once', () => {
    const ids = all.map((w) => w.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives each queue a visibility timeout of six times its worker timeout, and sane SQS settings', () => {
    for (const name of QUEUE_NAMES) {
      const w = QUEUE_WORKERS[name];
      expect({ name, visibility: w.visibilityTimeoutSeconds }).toEqual({
        name,
        visibility: w.timeoutSeconds * 6,
      });
      expect(w.visibilityTimeoutSeconds).toBeLessThanOrEqual(12 * 3600); // SQS's maximum
      expect(w.batchSize).toBeGreaterThanOrEqual(1);
      // Without a batching window Lambda takes at most 10 records; with one, up to 10,000.
      expect(w.batchSize).toBeLessThanOrEqual(w.batchingWindowSeconds > 0 ? 10_000 : 10);
      expect(w.maxConcurrency).toBeGreaterThanOrEqual(2); // the event source's minimum
      // Receives the event source throttled count too: fewer than 5 can dead-letter work never run.
      expect({ name, maxReceiveCount: w.maxReceiveCount >= 5 }).toEqual({ name, maxReceiveCount: true });
      for (const queue of [...(w.uses.queues ?? []), ...(w.uses.deadLetters ?? [])]) {
        expect(QUEUE_NAMES).toContain(queue);
      }
    }
  });

  it('lets every scheduled worker finish before its next run', () => {
    for (const w of SCHEDULED_WORKERS) expect(w.timeoutSeconds).toBeLessThan(w.rateMinutes * 60);
  });

  it('has a task for every task of the purge definition, and nothing else for it', () => {
    const purge = WORKFLOW_TASKS.filter((t) => t.workflow === 'purge').map((t) => t.id);
    expect(purge.sort()).toEqual([...PURGE_TASKS].sort());
  });
});
