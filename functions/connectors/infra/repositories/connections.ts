// The connection aggregate over the Table port (the connectors table). The only code that knows its keys:
//   CONN#<id> / CONN            the connection (gsi1: the organization's connections, newest first);
//                               pending events in its outbox (outbox_<event id>)
//   CONN#<id> / TOKENS          its sealed provider tokens, version-fenced
//   CONN#<id> / HIST#<at ISO>#<status>   a status the connection entered (kept 90 days, by TTL)
//   ORG#<org> / ACCOUNT#<provider>#<external id>   which connection holds a provider account
// The refresh sweep's index (gsi2, sparse): TOKEN_DUE#<shard> / <due ISO>#<TOKENS|CONN>#<connection>
// on the tokens item (the sweep's refresh of an idle connection due) and on a connection (a throttle ends, or its outbox is to be
// flushed).
import { createHash } from 'node:crypto';
import type { IdempotentOutcome } from '../../../platform/idempotency';
import { idempotent } from '../../../platform/idempotency';
import type { OutboxEvent } from '../../../events';
import { outboxAttributes, outboxRemoval } from '../../../events';
import { isoTime } from '../../../platform/clock';
import type { SealedValue } from '../../../platform/envelope';
import { ConditionFailedError, won } from '../../../platform/errors';
import type { Pagination, Window } from '../../../platform/pagination';
import { queryWindow } from '../../../platform/pagination';
import type { Condition, Item, Page, Table, Deps } from '../../../platform/ports';
import type { ConnectionParams } from '../../domain/connection-params';
import type { ProviderId } from '../../domain/providers';
import type { ConnectionRecord, ConnectionStatus } from '../../domain/connection';
import type { Change } from '../../domain/connection-decide';
import { sweepDueAt } from '../../domain/token-policy';
import { PROVIDERS } from '../../domain/providers';

export interface TokenRecord {
  connectionId: string;
  organizationId: string;
  provider: ProviderId;
  /** The connection's params (its region or server: where refreshes and revocations go). */
  params?: ConnectionParams;
  /** JSON {access_token, refresh_token?} sealed with context {organization, connection}. */
  sealed: SealedValue;
  /** Fences every write: a refresh writes version n+1 only where version n is stored. */
  tokenVersion: number;
  tokenType: string;
  scopes: string[];
  accessTokenExpiresAt: number;
  obtainedAt: number;
  /** The refresher holding the connection, until leaseExpiresAt (epoch ms). Gone with the next version. */
  leaseOwner?: string;
  leaseExpiresAt?: number;
}

export type ConnectionItem = Item & ConnectionRecord;
export type TokenItem = Item & TokenRecord;

interface AccountClaimItem extends Item {
  connectionId: string;
}

const connectionKey = (id: string) => ({ pk: `CONN#${id}`, sk: 'CONN' });
const tokensKey = (connectionId: string) => ({ pk: `CONN#${connectionId}`, sk: 'TOKENS' });
const claimKey = (organizationId: string, provider: string, externalId: string) => ({
  pk: `ORG#${organizationId}`,
  sk: `ACCOUNT#${provider}#${externalId}`,
});
const organizationPartition = (organizationId: string) => `ORG#${organizationId}#CONNS`;

/** How long a connection's status history is kept. */
const HISTORY_DAYS = 90;

/** The due index is spread over a few partitions so no single key takes every write. */
export const DUE_SHARDS = 8;
const duePartition = (shard: number) => `TOKEN_DUE#${shard}`;
const dueShard = (connectionId: string) =>
  createHash('sha256').update(connectionId).digest()[0]! % DUE_SHARDS;
export type DueKind = 'TOKENS' | 'CONN';
const DUE_ATTRIBUTES = ['gsi2pk', 'gsi2sk'];

/** The index attributes that make an item come due at `dueAt` (ms). */
function dueEntry(connectionId: string, kind: DueKind, dueAt: number) {
  return {
    gsi2pk: duePartition(dueShard(connectionId)),
    gsi2sk: `${isoTime(dueAt)}#${kind}#${connectionId}`,
  };
}

/** When an index entry comes due (ms), read from its sort key; NaN for an item with no entry. */
export const dueAtOf = (item: Item): number => Date.parse(String(item.gsi2sk ?? '').split('#')[0]!);

/** A refresh-sweep entry: a connection's tokens (a refresh) or the connection itself, and when it is due. */
export interface DueEntry {
  connectionId: string;
  kind: DueKind;
  dueAt: number;
}

/**
 * The tokens item's entry: due when the sweep must refresh an idle connection (its refresh token about
 * to lapse unused, or its status check); a connection in use is refreshed on use, which moves it.
 */
function tokensDueEntry(tokens: TokenRecord) {
  const idleSeconds = PROVIDERS[tokens.provider].refreshTokenIdleSeconds;
  const idleMs = idleSeconds === null ? null : idleSeconds * 1000;
  return dueEntry(tokens.connectionId, 'TOKENS', sweepDueAt(tokens.obtainedAt, idleMs));
}

export class ConnectionRepository {
  constructor(private readonly table: Table) {}

  /** The repository over the connectors table of a composition's ports. */
  static of(deps: Pick<Deps, 'tables'>): ConnectionRepository {
    return new ConnectionRepository(deps.tables.connectors);
  }

  async create(connection: ConnectionRecord): Promise<void> {
    await this.table.put(
      {
        ...connectionKey(connection.id),
        gsi1pk: organizationPartition(connection.organizationId),
        gsi1sk: `${isoTime(connection.createdAt)}#${connection.id}`,
        ...connection,
        version: 1,
      },
      { itemExists: false },
    );
    await this.recordStatus(connection.id, connection.status, connection.createdAt);
  }

  /** Every write that sets a status records it: the connection's status history. */
  private async recordStatus(id: string, status: unknown, at: unknown): Promise<void> {
    if (typeof status !== 'string') return;
    // Every change that sets a status stamps updatedAt with the clock's time (decide does).
    if (typeof at !== 'number') throw new Error(`status ${status} of ${id} written without its time`);
    const when = at;
    await this.table.put({
      pk: `CONN#${id}`,
      sk: `HIST#${isoTime(when)}#${status}`,
      status,
      at: when,
      ttl: Math.floor(when / 1000) + HISTORY_DAYS * 86_400,
    });
  }

  /** The statuses the connection went through, newest first (repeats, such as a throttle extended, once). */
  async statusHistory(id: string, limit = 20): Promise<{ status: ConnectionStatus; at: number }[]> {
    const page = await this.table.query<Item & { status: ConnectionStatus; at: number }>({
      partition: `CONN#${id}`,
      beginsWith: 'HIST#',
      descending: true,
      limit: limit * 2,
    });
    const out: { status: ConnectionStatus; at: number }[] = [];
    for (const item of page.items) {
      if (out.at(-1)?.status === item.status) out[out.length - 1] = { status: item.status, at: item.at };
      else out.push({ status: item.status, at: item.at });
    }
    return out.slice(0, limit);
  }

  get(id: string): Promise<ConnectionItem | undefined> {
    return this.table.get<ConnectionItem>(connectionKey(id));
  }

  /**
   * Writes a decided change, with the events it emits in the item's outbox, over the version and
   * status it was decided on (as the next version). Undefined when another change came first: nothing
   * was written, no event is stored.
   */
  async apply(
    connection: ConnectionItem,
    change: Change,
    events: readonly OutboxEvent[],
  ): Promise<ConnectionItem | undefined> {
    const { version, status } = change.expect;
    const due =
      change.due === undefined
        ? {}
        : change.due === 'drop'
          ? { remove: DUE_ATTRIBUTES }
          : { set: dueEntry(connection.id, 'CONN', change.due) };
    const condition: Condition = {
      and: [
        { itemExists: true },
        { attr: 'status', op: '=', value: status },
        version === 0 ? { attr: 'version', exists: false } : { attr: 'version', op: '=', value: version },
      ],
    };
    try {
      const updated = await this.table.update<ConnectionItem>(
        connectionKey(connection.id),
        {
          set: { ...change.set, ...due.set, ...outboxAttributes(events), version: version + 1 },
          remove: [...change.remove, ...(due.remove ?? [])],
        },
        condition,
      );
      await this.recordStatus(connection.id, change.set.status, change.set.updatedAt);
      return updated;
    } catch (error) {
      if (error instanceof ConditionFailedError) return undefined;
      throw error;
    }
  }

  /** Takes a published event out of the connection's outbox (if a concurrent flush did not already). */
  acknowledge(connectionId: string, eventId: string): Promise<boolean> {
    const { update, condition } = outboxRemoval(eventId);
    return won(this.table.update(connectionKey(connectionId), update, condition));
  }

  list(
    organizationId: string,
    page: Pagination,
    keep: (c: ConnectionItem) => boolean,
  ): Promise<Window<ConnectionItem>> {
    return queryWindow<ConnectionItem>(
      this.table,
      { index: 'gsi1', partition: organizationPartition(organizationId), descending: true },
      page,
      keep,
    );
  }

  getTokens(connectionId: string): Promise<TokenItem | undefined> {
    return this.table.get<TokenItem>(tokensKey(connectionId));
  }

  /** The tokens item as `putTokens` stores it (what a refresher hands on without reading it back). */
  tokenItem(tokens: TokenRecord): TokenItem {
    return { ...tokensKey(tokens.connectionId), ...tokens };
  }

  /**
   * Writes version `previous + 1` only if `previous` (or nothing, for 0) is what is stored. The write
   * replaces the item: any refresh lease ends with it, and the sweep's entry moves to the new due time.
   */
  putTokens(tokens: TokenRecord, previousVersion: number): Promise<boolean> {
    const { leaseOwner: _owner, leaseExpiresAt: _expiry, ...record } = tokens;
    return won(
      this.table.put(
        { ...tokensKey(tokens.connectionId), ...record, ...tokensDueEntry(tokens) },
        previousVersion === 0
          ? { itemExists: false }
          : { attr: 'tokenVersion', op: '=', value: previousVersion },
      ),
    );
  }

  /**
   * Takes the refresh lease on version `version`: only while that version is stored and no other
   * refresher holds an unexpired lease. Of any number of concurrent callers, at most one wins.
   */
  acquireRefreshLease(
    connectionId: string,
    version: number,
    owner: string,
    now: number,
    leaseMs: number,
  ): Promise<boolean> {
    return won(
      this.table.update(
        tokensKey(connectionId),
        { set: { leaseOwner: owner, leaseExpiresAt: now + leaseMs } },
        {
          and: [
            { attr: 'tokenVersion', op: '=', value: version },
            {
              or: [
                { attr: 'leaseExpiresAt', exists: false },
                { attr: 'leaseExpiresAt', op: '<=', value: now },
              ],
            },
          ],
        },
      ),
    );
  }

  /** Gives the lease back, if `owner` still holds it (a new version already ended it). */
  releaseRefreshLease(connectionId: string, owner: string): Promise<boolean> {
    return won(
      this.table.update(
        tokensKey(connectionId),
        { remove: ['leaseOwner', 'leaseExpiresAt'] },
        { attr: 'leaseOwner', op: '=', value: owner },
      ),
    );
  }

  /** Moves the tokens item's sweep entry to `dueAt`, if `version` is still stored. */
  deferRefresh(connectionId: string, version: number, dueAt: number): Promise<boolean> {
    return won(
      this.table.update(
        tokensKey(connectionId),
        { set: dueEntry(connectionId, 'TOKENS', dueAt) },
        { attr: 'tokenVersion', op: '=', value: version },
      ),
    );
  }

  /** Takes the tokens item out of the sweep (a connection that cannot be refreshed). */
  dropRefreshEntry(connectionId: string, version: number): Promise<boolean> {
    return won(
      this.table.update(
        tokensKey(connectionId),
        { remove: DUE_ATTRIBUTES },
        { attr: 'tokenVersion', op: '=', value: version },
      ),
    );
  }

  /** One page of a due-index partition, earliest first. */
  async queryDue(shard: number, cursor: string | undefined, limit: number): Promise<Page<DueEntry>> {
    const page = await this.table.query<Item>({
      index: 'gsi2',
      partition: duePartition(shard),
      cursor,
      limit,
    });
    return {
      items: page.items.map((item) => ({
        connectionId: item.pk.slice('CONN#'.length),
        kind: item.sk === 'CONN' ? 'CONN' : 'TOKENS',
        dueAt: dueAtOf(item),
      })),
      cursor: page.cursor,
    };
  }

  async deleteTokens(connectionId: string): Promise<void> {
    await this.table.delete(tokensKey(connectionId));
  }

  async accountHolder(
    organizationId: string,
    provider: string,
    externalId: string,
  ): Promise<string | undefined> {
    return (await this.table.get<AccountClaimItem>(claimKey(organizationId, provider, externalId)))
      ?.connectionId;
  }

  /** Claims a provider account for a connection, if it is unclaimed or still held by `current`. */
  claimAccount(
    organizationId: string,
    provider: string,
    externalId: string,
    connectionId: string,
    current: string | undefined,
  ): Promise<boolean> {
    return won(
      this.table.put(
        { ...claimKey(organizationId, provider, externalId), connectionId },
        current === undefined ? { itemExists: false } : { attr: 'connectionId', op: '=', value: current },
      ),
    );
  }

  /** Frees the account for a new connection, if `connectionId` still holds it. */
  releaseAccount(
    organizationId: string,
    provider: string,
    externalId: string,
    connectionId: string,
  ): Promise<boolean> {
    return won(
      this.table.delete(claimKey(organizationId, provider, externalId), {
        attr: 'connectionId',
        op: '=',
        value: connectionId,
      }),
    );
  }
}

/** Runs `create` once per Idempotency-Key of the calling key (platform/idempotency.ts), kept in the connectors table. */
export function createOnce<S>(
  deps: Pick<Deps, 'tables' | 'clock'>,
  scope: { keyId: string; route: string; key: string | undefined; request: unknown },
  create: () => Promise<S>,
): Promise<IdempotentOutcome<S>> {
  return idempotent(deps.tables.connectors, deps.clock, scope, create);
}
