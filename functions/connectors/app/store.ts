// Connector records over the Table port (the connectors table):
//   CONN#<id> / CONN            the connection (gsi1: the organization's connections, newest first)
//   CONN#<id> / TOKENS          its sealed provider tokens, version-fenced
//   LINK#<sha256(token)> / LINK a connect link, consumed once
//   FLOW#<nonce> / FLOW         one consent flow: browser binding, sealed PKCE verifier, consumed once
//   ORG#<org> / ACCOUNT#<provider>#<external id>   which connection holds a provider account
//   CONN#<id> / HIST#<at ISO>#<status>   a status the connection entered (kept 90 days, by TTL)
// The refresh sweep's index (gsi2, sparse): TOKEN_DUE#<shard> / <due ISO>#<TOKENS|CONN>#<connection>
// on the tokens item (refresh due) and on a throttled connection (throttle ends).
import { createHash } from 'node:crypto';
import { isoTime } from '../../platform/clock';
import type { SealedValue } from '../../platform/envelope';
import { ConditionFailedError, won } from '../../platform/errors';
import type { Pagination, Window } from '../../platform/pagination';
import { queryWindow } from '../../platform/pagination';
import type { Condition, Item, Page, Table, Update } from '../../platform/ports';
import type { ProviderId } from '../domain/providers';
import type { ConnectionStatus } from '../domain/connection';
import { refreshDueAt } from '../domain/token-policy';

export interface Account {
  external_id: string;
  email: string;
  display_name: string;
}

export interface ConnectionRecord {
  id: string;
  organizationId: string;
  provider: ProviderId;
  status: ConnectionStatus;
  scopeTier: string;
  returnUrl: string;
  account?: Account;
  /** Epoch ms, as every stored instant (ISO only in API views). */
  createdAt: number;
  updatedAt: number;
  /** Set when a reconnect folded this pending connection into an existing one. */
  supersededBy?: string;
  /** The hash of its one live connect link: a reissued link retires the one before it. */
  linkHash?: string;
  revokedAt?: number;
  /** connection.revoked still to be published (a repeated DELETE publishes it). */
  revokedEventPending?: boolean;
  /** While throttled: when the throttle ends and the status it returns to. */
  throttleEndsAt?: number;
  previousStatus?: ConnectionStatus;
  /** Consecutive throttles since the last successful refresh (drives the backoff without Retry-After). */
  throttleCount?: number;
  /** connection.reauth_required still to be published, with the status it replaced (the sweep retries). */
  reauthEventPending?: ConnectionStatus;
}

export interface LinkRecord {
  connectionId: string;
  organizationId: string;
  provider: ProviderId;
  scopeTier: string;
  linkExpiresAt: number;
  usedAt?: number;
  ttl?: number;
}

export interface FlowRecord {
  connectionId: string;
  organizationId: string;
  provider: ProviderId;
  scopeTier: string;
  browserHash: string;
  verifier: SealedValue;
  flowExpiresAt: number;
  consumedAt?: number;
  ttl?: number;
}

export interface TokenRecord {
  connectionId: string;
  organizationId: string;
  provider: ProviderId;
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
export type LinkItem = Item & LinkRecord;
export type FlowItem = Item & FlowRecord;
export type TokenItem = Item & TokenRecord;

interface AccountClaimItem extends Item {
  connectionId: string;
}

const connectionKey = (id: string) => ({ pk: `CONN#${id}`, sk: 'CONN' });
const tokensKey = (connectionId: string) => ({ pk: `CONN#${connectionId}`, sk: 'TOKENS' });
const linkKey = (hash: string) => ({ pk: `LINK#${hash}`, sk: 'LINK' });
const flowKey = (nonce: string) => ({ pk: `FLOW#${nonce}`, sk: 'FLOW' });
const claimKey = (organizationId: string, provider: string, externalId: string) => ({
  pk: `ORG#${organizationId}`,
  sk: `ACCOUNT#${provider}#${externalId}`,
});
const organizationPartition = (organizationId: string) => `ORG#${organizationId}#CONNS`;

/** How long a connection's status history is kept. */
const HISTORY_DAYS = 90;

/** The due index is spread over a few partitions so no single key takes every write. */
export const DUE_SHARDS = 8;
export const duePartition = (shard: number) => `TOKEN_DUE#${shard}`;
const dueShard = (connectionId: string) =>
  createHash('sha256').update(connectionId).digest()[0]! % DUE_SHARDS;
export type DueKind = 'TOKENS' | 'CONN';
export const DUE_ATTRIBUTES = ['gsi2pk', 'gsi2sk'];

/** The index attributes that make an item come due at `dueAt` (ms). */
export function dueEntry(connectionId: string, kind: DueKind, dueAt: number) {
  return {
    gsi2pk: duePartition(dueShard(connectionId)),
    gsi2sk: `${isoTime(dueAt)}#${kind}#${connectionId}`,
  };
}

/** When an index entry comes due (ms), read from its sort key. */
export const dueAtOf = (item: Item): number => Date.parse(String(item.gsi2sk ?? '').split('#')[0]!);

/** The tokens item's entry: due when the access token should be refreshed. */
export const tokensDueEntry = (tokens: TokenRecord) =>
  dueEntry(tokens.connectionId, 'TOKENS', refreshDueAt(tokens.accessTokenExpiresAt, tokens.obtainedAt));

export class ConnectorStore {
  constructor(private readonly table: Table) {}

  async putConnection(connection: ConnectionRecord): Promise<void> {
    await this.table.put(
      {
        ...connectionKey(connection.id),
        gsi1pk: organizationPartition(connection.organizationId),
        gsi1sk: `${isoTime(connection.createdAt)}#${connection.id}`,
        ...connection,
      },
      { itemExists: false },
    );
    await this.recordStatus(connection.id, connection.status, connection.createdAt);
  }

  /** Every write that sets a status records it: the connection's status history. */
  private async recordStatus(id: string, status: unknown, at: unknown): Promise<void> {
    if (typeof status !== 'string') return;
    const when = typeof at === 'number' ? at : Date.now();
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

  getConnection(id: string): Promise<ConnectionItem | undefined> {
    return this.table.get<ConnectionItem>(connectionKey(id));
  }

  /** Sets attributes; with `fromStatus`, only while the connection is still in that status. */
  async updateConnection(
    id: string,
    set: Partial<ConnectionItem>,
    fromStatus?: ConnectionStatus | { not: ConnectionStatus },
    remove?: string[],
  ): Promise<ConnectionItem | undefined> {
    const condition =
      fromStatus === undefined
        ? { itemExists: true }
        : typeof fromStatus === 'string'
          ? { attr: 'status', op: '=' as const, value: fromStatus }
          : { and: [{ itemExists: true }, { attr: 'status', op: '<>' as const, value: fromStatus.not }] };
    try {
      const updated = await this.table.update<ConnectionItem>(connectionKey(id), { set, remove }, condition);
      await this.recordStatus(id, set.status, set.updatedAt);
      return updated;
    } catch (error) {
      if (error instanceof ConditionFailedError) return undefined;
      throw error;
    }
  }

  listConnections(
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

  async putLink(hash: string, link: LinkRecord): Promise<void> {
    await this.table.put({ ...linkKey(hash), ...link }, { itemExists: false });
  }

  async deleteLink(hash: string): Promise<void> {
    await this.table.delete(linkKey(hash));
  }

  getLink(hash: string): Promise<LinkItem | undefined> {
    return this.table.get<LinkItem>(linkKey(hash));
  }

  /** Single use: of any number of concurrent opens, exactly one wins. */
  consumeLink(hash: string, now: number): Promise<boolean> {
    return won(
      this.table.update(
        linkKey(hash),
        { set: { usedAt: now } },
        { and: [{ itemExists: true }, { attr: 'usedAt', exists: false }] },
      ),
    );
  }

  async putFlow(nonce: string, flow: FlowRecord): Promise<void> {
    await this.table.put({ ...flowKey(nonce), ...flow }, { itemExists: false });
  }

  getFlow(nonce: string): Promise<FlowItem | undefined> {
    return this.table.get<FlowItem>(flowKey(nonce));
  }

  consumeFlow(nonce: string, now: number): Promise<boolean> {
    return won(
      this.table.update(
        flowKey(nonce),
        { set: { consumedAt: now } },
        { and: [{ itemExists: true }, { attr: 'consumedAt', exists: false }] },
      ),
    );
  }

  getTokens(connectionId: string): Promise<TokenItem | undefined> {
    return this.table.get<TokenItem>(tokensKey(connectionId));
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
  queryDue(shard: number, cursor: string | undefined, limit: number): Promise<Page<Item>> {
    return this.table.query<Item>({ index: 'gsi2', partition: duePartition(shard), cursor, limit });
  }

  /** An update under an explicit condition; undefined when the condition did not hold. */
  async updateConnectionIf(
    id: string,
    update: Update,
    condition: Condition,
  ): Promise<ConnectionItem | undefined> {
    try {
      const updated = await this.table.update<ConnectionItem>(connectionKey(id), update, {
        and: [{ itemExists: true }, condition],
      });
      await this.recordStatus(id, update.set?.status, update.set?.updatedAt);
      return updated;
    } catch (error) {
      if (error instanceof ConditionFailedError) return undefined;
      throw error;
    }
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
