// Organization-wide provider switches over the Table port (the connectors table). The only code that knows their keys:
//   ORG#<org> / PROVIDER#<provider>   { enabled, updatedAt }; no item: on
import type { Item, Table, Deps } from '../../../platform/ports';
import type { ProviderId } from '../../domain/providers';
import { PROVIDER_IDS } from '../../domain/providers';

interface SettingItem extends Item {
  enabled: boolean;
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

  async set(
    organizationId: string,
    provider: ProviderId,
    enabled: boolean,
    updatedAt: number,
  ): Promise<void> {
    await this.table.put({ ...settingKey(organizationId, provider), enabled, updatedAt });
  }
}
