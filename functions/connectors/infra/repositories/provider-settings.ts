// Organization-wide provider switches over the Table port (the connectors table). The only code that knows their keys:
//   ORG#<org> / PROVIDER#<provider>   { enabled, allowedHosts?, updatedAt }; no item: on, any host
import type { Item, Table, Deps } from '../../../platform/ports';
import type { ProviderId } from '../../domain/providers';
import { PROVIDER_IDS } from '../../domain/providers';

interface SettingItem extends Item {
  enabled: boolean;
  /** The hosts the organization's connections of this provider may name (a host param); absent: any. */
  allowedHosts?: string[];
  updatedAt?: number;
}

const settingKey = (organizationId: string, provider: ProviderId) => ({
  pk: `ORG#${organizationId}`,
  sk: `PROVIDER#${provider}`,
});

export class ProviderSettings {
  constructor(private readonly table: Table) {}

  /** The repository over the connectors table of a composition's ports. */
  static of(deps: Pick<Deps, 'tables'>): ProviderSettings {
    return new ProviderSettings(deps.tables.connectors);
  }

  async isEnabled(organizationId: string, provider: ProviderId): Promise<boolean> {
    return (await this.table.get<SettingItem>(settingKey(organizationId, provider)))?.enabled ?? true;
  }

  /** Every provider's switch for an organization (on unless turned off). */
  async all(organizationId: string): Promise<Record<ProviderId, boolean>> {
    const settings = await this.table.query<SettingItem>({
      partition: `ORG#${organizationId}`,
      beginsWith: 'PROVIDER#',
      // Read after a PATCH of the switch (and by the routes it governs): the write must show at once.
      consistent: true,
    });
    const disabled = new Set(
      settings.items.filter((s) => !s.enabled).map((s) => s.sk.slice('PROVIDER#'.length)),
    );
    return Object.fromEntries(PROVIDER_IDS.map((id) => [id, !disabled.has(id)])) as Record<
      ProviderId,
      boolean
    >;
  }

  /** The hosts the organization allows for the provider's host params (empty: any). */
  async allowedHosts(organizationId: string, provider: ProviderId): Promise<string[]> {
    const item = await this.table.get<SettingItem>(settingKey(organizationId, provider));
    return item?.allowedHosts ?? [];
  }

  /**
   * The switch, and the allowed hosts when given (null or empty: any; undefined: kept as they are).
   * Returns the hosts now in force.
   */
  async set(
    organizationId: string,
    provider: ProviderId,
    enabled: boolean,
    updatedAt: number,
    allowedHosts?: string[] | null,
  ): Promise<string[]> {
    const key = settingKey(organizationId, provider);
    const hosts =
      allowedHosts === undefined
        ? ((await this.table.get<SettingItem>(key))?.allowedHosts ?? [])
        : (allowedHosts ?? []);
    await this.table.put({ ...key, enabled, updatedAt, ...(hosts.length ? { allowedHosts: hosts } : {}) });
    return hosts;
  }
}
