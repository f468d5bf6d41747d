// Which import link holds a provider file in a vault, in the connectors table under the connection's
// partition. The only code that knows the key:
//   CONN#<connection> / HOLD#<vault>#<provider file id>   {linkId}: the link whose document the file is
// Overlapping links of one connection into one vault (a folder and its subfolder) would otherwise each
// import the file as a document of their own. The first link to import the file holds it; another
// link's run leaves it to the holder. A hold whose link was deleted passes to the next link that meets
// the file (the deleted link's documents stay, as deleting a link always leaves them).
import { ConditionFailedError } from '../../../platform/errors';
import type { Deps, Table } from '../../../platform/ports';

const holdKey = (connectionId: string, vaultId: string, sourceId: string) => ({
  pk: `CONN#${connectionId}`,
  sk: `HOLD#${vaultId}#${sourceId}`,
});

export class FileHolds {
  constructor(private readonly table: Table) {}

  static of(deps: Pick<Deps, 'tables'>): FileHolds {
    return new FileHolds(deps.tables.connectors);
  }

  /**
   * Takes the file for `link` unless another link holds it: the holder's id either way. `alive` says
   * whether a holder still exists; a hold of a deleted link is taken over (conditionally, so two links
   * taking it over at once agree on one).
   */
  async hold(
    link: { id: string; connectionId: string; vaultId: string },
    sourceId: string,
    alive: (linkId: string) => Promise<boolean>,
  ): Promise<string> {
    const key = holdKey(link.connectionId, link.vaultId, sourceId);
    // Most files asked about are new to every link (a first run): taking the free hold is one write,
    // not a read and then the write; a hold already there is read as before.
    try {
      await this.table.put({ ...key, linkId: link.id }, { itemExists: false });
      return link.id;
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error;
    }
    for (let attempt = 0; attempt < 3; attempt++) {
      const current = await this.table.get<{ pk: string; sk: string; linkId: string }>(key);
      if (current && (current.linkId === link.id || (await alive(current.linkId)))) return current.linkId;
      try {
        await this.table.put(
          { ...key, linkId: link.id },
          current ? { attr: 'linkId', op: '=', value: current.linkId } : { itemExists: false },
        );
        return link.id;
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
      }
    }
    throw new Error(`The hold of ${sourceId} kept changing`);
  }
}
