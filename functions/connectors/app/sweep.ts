// The scheduled refresh sweep: pages through the due index (every shard, earliest first) and takes
// each entry that is due as the sweep starts through the lifecycle's per-connection step.
import type { Logger } from '../../platform/logger';
import type { ConnectorConfig } from '../infra/config';
import { isProviderEnabled } from './provider-settings';
import { ConnectionRepository, DUE_SHARDS } from '../infra/repositories/connections';
import type { LifecycleDeps, SweepContext, SweepOutcome } from './token-lifecycle';
import { sweepEntry } from './token-lifecycle';

export interface SweepOptions {
  log: Logger;
  sleep?: (ms: number) => Promise<void>;
  /**
   * Milliseconds left to start new work (a Lambda's remaining time less what one entry may take);
   * no entry is started once it is 0. Unlimited when absent.
   */
  timeLeft?: () => number;
  /** Entries handled at once. */
  concurrency?: number;
  pageSize?: number;
}

export type SweepSummary = Partial<Record<SweepOutcome | 'errors', number>> & {
  entries: number;
  /** Stopped for lack of time: the rest waits for the next run (still due, so first in line). */
  truncated: boolean;
};

const MAX_PAGES = 1_000;

async function inPool<T>(items: T[], size: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await run(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}

export async function runRefreshSweep(
  deps: LifecycleDeps,
  config: ConnectorConfig,
  options: SweepOptions,
): Promise<SweepSummary> {
  const store = ConnectionRepository.of(deps);
  const startedAt = deps.clock.now();
  const switches = new Map<string, Promise<boolean>>();
  const context: SweepContext = {
    deps,
    config,
    log: options.log,
    sleep: options.sleep,
    providerEnabled: (organizationId, provider) => {
      const key = `${organizationId}#${provider}`;
      let enabled = switches.get(key);
      if (!enabled) {
        enabled = isProviderEnabled(deps, organizationId, provider);
        switches.set(key, enabled);
      }
      return enabled;
    },
  };
  const summary: SweepSummary = { entries: 0, truncated: false };
  const count = (what: SweepOutcome | 'errors') => (summary[what] = (summary[what] ?? 0) + 1);
  // Entries already taken this run: one that failed stays due, and a page read again must skip it.
  const seen = new Set<string>();
  let pages = 0;
  const outOfTime = () => (options.timeLeft?.() ?? Infinity) <= 0;

  for (let shard = 0; shard < DUE_SHARDS && !summary.truncated; shard++) {
    let cursor: string | undefined;
    do {
      if (outOfTime() || ++pages > MAX_PAGES) {
        summary.truncated = true;
        break;
      }
      const page = await store.queryDue(shard, cursor, options.pageSize ?? 50);
      const firstLater = page.items.findIndex((item) => item.dueAt > startedAt);
      const due = (firstLater === -1 ? page.items : page.items.slice(0, firstLater)).filter((item) => {
        const key = `${item.connectionId}|${item.kind}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      await inPool(due, options.concurrency ?? 4, async (item) => {
        if (summary.truncated || outOfTime()) {
          summary.truncated = true;
          return;
        }
        summary.entries++;
        try {
          count(await sweepEntry(context, item));
        } catch (error) {
          count('errors');
          options.log.error('refresh sweep entry failed', { ...item, error });
        }
      });
      if (firstLater !== -1 || summary.truncated) break;
      cursor = page.cursor;
    } while (cursor);
  }
  return summary;
}
