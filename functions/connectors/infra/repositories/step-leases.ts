// The import steps that may be storing a connection's documents now, in the connectors table under the
// connection's partition. The only code that knows the key:
//   CONN#<connection> / WRITER#<job>#<lease id>   {until, ttl}: one invocation of a step of run <job>,
//                                                 which stores nothing after `until`
// A run's status cannot say this alone: two copies of one step message (SQS delivers at least once)
// can run at once, and after one copy commits, the run may go on, wait or finish while the other still
// stores files. Each invocation holds a lease of its own from before it reads the purge fence until
// after its last write (app/ledger.ts `whileWriting`); a purge ends only once no lease is live.
import { randomUUID } from 'node:crypto';
import type { Deps, Item, Table } from '../../../platform/ports';

const PREFIX = 'WRITER#';

type LeaseItem = Item & { until: number };

export interface StepLease {
  connectionId: string;
  sk: string;
}

export class StepLeases {
  constructor(private readonly table: Table) {}

  static of(deps: Pick<Deps, 'tables'>): StepLeases {
    return new StepLeases(deps.tables.connectors);
  }

  /** A lease of run `jobId`'s invocation, live until `until` (epoch ms); the table's TTL removes it later. */
  async take(connectionId: string, jobId: string, until: number): Promise<StepLease> {
    const lease = { connectionId, sk: `${PREFIX}${jobId}#${randomUUID()}` };
    await this.table.put({
      pk: `CONN#${connectionId}`,
      sk: lease.sk,
      until,
      ttl: Math.ceil(until / 1000) + 24 * 60 * 60,
    });
    return lease;
  }

  async release(lease: StepLease): Promise<void> {
    await this.table.delete({ pk: `CONN#${lease.connectionId}`, sk: lease.sk });
  }

  /** Whether any invocation may still be storing the connection's documents at `now` (consistent). */
  async anyLive(connectionId: string, now: number): Promise<boolean> {
    let cursor: string | undefined;
    do {
      const page = await this.table.query<LeaseItem>({
        partition: `CONN#${connectionId}`,
        beginsWith: PREFIX,
        limit: 25,
        cursor,
        consistent: true,
      });
      if (page.items.some((lease) => lease.until > now)) return true;
      cursor = page.cursor;
    } while (cursor);
    return false;
  }
}
