// The hosted OAuth flow's records over the Table port (the connectors table). The only code that knows their keys:
//   LINK#<sha256(token)> / LINK a connect link, consumed once
//   FLOW#<nonce> / FLOW         one consent flow: browser binding, sealed PKCE verifier, consumed once
import type { ConnectionParams } from '../../domain/connection-params';
import type { SealedValue } from '../../../platform/envelope';
import { won } from '../../../platform/errors';
import type { Item, Table, Deps } from '../../../platform/ports';
import type { ProviderId } from '../../domain/providers';

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
  /** Every param of the connection as the flow was started with (the connect page's answers included). */
  params?: ConnectionParams;
  browserHash: string;
  verifier: SealedValue;
  flowExpiresAt: number;
  consumedAt?: number;
  ttl?: number;
}

export type LinkItem = Item & LinkRecord;
export type FlowItem = Item & FlowRecord;

const linkKey = (hash: string) => ({ pk: `LINK#${hash}`, sk: 'LINK' });
const flowKey = (nonce: string) => ({ pk: `FLOW#${nonce}`, sk: 'FLOW' });

export class ConnectFlowRepository {
  constructor(private readonly table: Table) {}

  /** The repository over the connectors table of a composition's ports. */
  static of(deps: Pick<Deps, 'tables'>): ConnectFlowRepository {
    return new ConnectFlowRepository(deps.tables.connectors);
  }

  async putLink(hash: string, link: LinkRecord): Promise<void> {
    await this.table.put({ ...linkKey(hash), ...link }, { itemExists: false });
  }

  /** A link replaced by a newer one (a reissue) stops existing. */
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
}
