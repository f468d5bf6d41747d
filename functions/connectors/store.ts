// Connector records over the Table port (the connectors table):
//   CONN#<id> / CONN            the connection (gsi1: the organization's connections, newest first)
//   CONN#<id> / TOKENS          its sealed provider tokens, version-fenced
//   LINK#<sha256(token)> / LINK a connect link, consumed once
//   FLOW#<nonce> / FLOW         one consent flow: browser binding, sealed PKCE verifier, consumed once
//   ORG#<org> / ACCOUNT#<provider>#<external id>   which connection holds a provider account
import type { SealedValue } from '../platform/envelope';
import { ConditionFailedError } from '../platform/errors';
import type { Pagination, Window } from '../platform/pagination';
import { queryWindow } from '../platform/pagination';
import type { Item, Table } from '../platform/ports';
import type { ProviderId } from './providers';
import type { ConnectionStatus } from './schemas';

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
  createdAt: string;
  updatedAt: string;
  /** Set when a reconnect folded this pending connection into an existing one. */
  supersededBy?: string;
  revokedAt?: string;
  /** connection.revoked still to be published (a repeated DELETE publishes it). */
  revokedEventPending?: boolean;
}

export interface LinkRecord {
  connectionId: string;
  organizationId: string;
  provider: ProviderId;
  scopeTier: string;
  linkExpiresAt: number;
  usedAt?: number;
  expiresAt?: number;
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
  expiresAt?: number;
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
  accessTokenExpiresAt: string;
  obtainedAt: string;
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

/** Conditional writes that lose answer false instead of throwing. */
async function won(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (error instanceof ConditionFailedError) return false;
    throw error;
  }
}

export class ConnectorStore {
  constructor(private readonly table: Table) {}

  async putConnection(connection: ConnectionRecord): Promise<void> {
    await this.table.put(
      {
        ...connectionKey(connection.id),
        gsi1pk: organizationPartition(connection.organizationId),
        gsi1sk: `${connection.createdAt}#${connection.id}`,
        ...connection,
      },
      { itemExists: false },
    );
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
      return await this.table.update<ConnectionItem>(connectionKey(id), { set, remove }, condition);
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

  /** Writes version `previous + 1` only if `previous` (or nothing, for 0) is what is stored. */
  putTokens(tokens: TokenRecord, previousVersion: number): Promise<boolean> {
    return won(
      this.table.put(
        { ...tokensKey(tokens.connectionId), ...tokens },
        previousVersion === 0
          ? { itemExists: false }
          : { attr: 'tokenVersion', op: '=', value: previousVersion },
      ),
    );
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
