// Which import link holds a provider file in a vault, in the connectors table under the connection's
// partition. The only code that knows the key:
//   CONN#<connection> / HOLD#<vault>#<provider file id>   {linkId, jobId}: the link whose document the
//                                                         file is, and the run that last took it
// Overlapping links of one connection into one vault (a folder and its subfolder) would otherwise each
// import the file as a document of their own. The first link to import the file holds it; another
// link's run leaves it to the holder. A hold whose link was deleted passes to the next link that meets
// the file (the deleted link's documents stay, as deleting a link always leaves them).
// A hold is also the record of a file's first import: a run takes it (naming itself) before it writes
// the document, and writes the file's ledger entry only after, so a document without an entry always
// has a hold, and a purge deletes the document a hold names (unless the hold's run is still in flight).
import { won } from '../../../platform/errors';
import type { Deps, Item, Page, Table } from '../../../platform/ports';

const PREFIX = 'HOLD#';
const holdKey = (connectionId: string, vaultId: string, sourceId: string) => ({
  pk: `CONN#${connectionId}`,
  sk: `${PREFIX}${vaultId}#${sourceId}`,
});

type HoldItem = Item & { linkId: string; jobId?: string };

/** A hold as a purge reads it: the document it names (its link's, in its vault), and its run. */
export interface FileHold {
  vaultId: string;
  sourceId: string;
  linkId: string;
  jobId?: string;
}

const holdOf = (item: HoldItem): FileHold => {
  // HOLD#<vault>#<provider file id>: vault ids hold no '#', a provider's file id may.
  const rest = item.sk.slice(PREFIX.length);
  const at = rest.indexOf('#');
  return {
    vaultId: rest.slice(0, at),
    sourceId: rest.slice(at + 1),
    linkId: item.linkId,
    ...(item.jobId !== undefined ? { jobId: item.jobId } : {}),
  };
};

export class FileHolds {
  constructor(private readonly table: Table) {}

  static of(deps: Pick<Deps, 'tables'>): FileHolds {
    return new FileHolds(deps.tables.connectors);
  }

  /**
   * Takes the file for `link` and names run `jobId` on it, unless another link holds it: the holder's
   * id either way. `alive` says whether a holder still exists; a hold of a deleted link is taken over
   * (conditionally, so two links taking it over at once agree on one). The link's own hold is named
   * with the run (a purge waits for it while it is in flight).
   */
  async hold(
    link: { id: string; connectionId: string; vaultId: string },
    sourceId: string,
    jobId: string,
    alive: (linkId: string) => Promise<boolean>,
  ): Promise<string> {
    const key = holdKey(link.connectionId, link.vaultId, sourceId);
    const mine = { ...key, linkId: link.id, jobId };
    // Most files asked about are new to every link (a first run): taking the free hold is one write,
    // not a read and then the write; a hold already there is read as before.
    if (await won(this.table.put(mine, { itemExists: false }))) return link.id;
    for (let attempt = 0; attempt < 3; attempt++) {
      const current = await this.table.get<HoldItem>(key);
      if (current?.linkId === link.id) {
        if (current.jobId === jobId) return link.id;
        const named = await won(
          this.table.update(key, { set: { jobId } }, { attr: 'linkId', op: '=', value: link.id }),
        );
        if (named) return link.id;
        continue; // a purge removed it meanwhile: take it again
      }
      if (current && (await alive(current.linkId))) return current.linkId;
      const taken = await won(
        this.table.put(
          mine,
          current ? { attr: 'linkId', op: '=', value: current.linkId } : { itemExists: false },
        ),
      );
      if (taken) return link.id;
    }
    throw new Error(`The hold of ${sourceId} kept changing`);
  }

  /** One page of the connection's holds, consistent (a purge checks it is empty right after deleting). */
  async page(connectionId: string, options: { cursor?: string; limit: number }): Promise<Page<FileHold>> {
    const page = await this.table.query<HoldItem>({
      partition: `CONN#${connectionId}`,
      beginsWith: PREFIX,
      limit: options.limit,
      cursor: options.cursor,
      consistent: true,
    });
    return { items: page.items.map(holdOf), cursor: page.cursor };
  }

  /** Removes the hold only as read (the same run named on it); false when a run took it since, or it is gone. */
  removeUnchanged(connectionId: string, hold: FileHold): Promise<boolean> {
    return won(
      this.table.delete(
        holdKey(connectionId, hold.vaultId, hold.sourceId),
        hold.jobId === undefined
          ? { and: [{ itemExists: true }, { attr: 'jobId', exists: false }] }
          : { attr: 'jobId', op: '=', value: hold.jobId },
      ),
    );
  }

  async exists(connectionId: string, hold: Pick<FileHold, 'vaultId' | 'sourceId'>): Promise<boolean> {
    return (await this.table.get(holdKey(connectionId, hold.vaultId, hold.sourceId))) !== undefined;
  }

  async isEmpty(connectionId: string): Promise<boolean> {
    return (await this.page(connectionId, { limit: 1 })).items.length === 0;
  }
}
