// The sync sweep's due index (gsi2 of the connectors table, sparse), shared by import links and jobs:
//   SYNC_DUE#<shard> / <due ISO>#LINK#<link>   a scheduled link's next run
//   SYNC_DUE#<shard> / <due ISO>#JOB#<job>     a stepped job's heartbeat (re-driven when it passes)
// Only the import-link and job repositories write entries; the sweep reads them through here.
import { createHash } from 'node:crypto';
import { isoTime } from '../../../platform/clock';
import type { Deps, Item, Page } from '../../../platform/ports';

/** The index is spread over a few partitions, as the token sweep's is. */
export const SYNC_DUE_SHARDS = 4;
const partition = (shard: number) => `SYNC_DUE#${shard}`;
const shardOf = (id: string) => createHash('sha256').update(id).digest()[0]! % SYNC_DUE_SHARDS;

export const SYNC_DUE_ATTRIBUTES = ['gsi2pk', 'gsi2sk'];

/** Index attributes that make a link (or a job) come due for the sync sweep at `dueAt` (ms). */
export function syncDueEntry(kind: 'LINK' | 'JOB', id: string, dueAt: number) {
  return { gsi2pk: partition(shardOf(id)), gsi2sk: `${isoTime(dueAt)}#${kind}#${id}` };
}

/** When an entry (or an item holding one) comes due (ms); NaN without one. */
export const syncDueAtOf = (item: Item): number => Date.parse(String(item.gsi2sk ?? '').split('#')[0]!);

export interface SyncDueEntry {
  kind: 'LINK' | 'JOB';
  id: string;
  dueAt: number;
}

/** One page of a shard, earliest first. */
export async function syncDuePage(
  deps: Pick<Deps, 'tables'>,
  shard: number,
  cursor: string | undefined,
  limit: number,
): Promise<Page<SyncDueEntry>> {
  const page = await deps.tables.connectors.query<Item>({
    index: 'gsi2',
    partition: partition(shard),
    limit,
    cursor,
  });
  return {
    items: page.items.map((item) => ({
      kind: item.sk === 'ILINK' ? ('LINK' as const) : ('JOB' as const),
      id: String(item.id),
      dueAt: syncDueAtOf(item),
    })),
    cursor: page.cursor,
  };
}
