// Organization-wide provider switches: a provider can be turned off without disconnecting anything.
import type { Item, Table } from '../platform/ports';
import type { ProviderId } from './providers';
import { PROVIDERS, PROVIDER_IDS } from './providers';

interface SettingItem extends Item {
  enabled: boolean;
}

const settingKey = (organizationId: string, provider: ProviderId) => ({
  pk: `ORG#${organizationId}`,
  sk: `PROVIDER#${provider}`,
});

export async function isProviderEnabled(table: Table, organizationId: string, provider: ProviderId): Promise<boolean> {
  const item = await table.get<SettingItem>(settingKey(organizationId, provider));
  return item?.enabled ?? true;
}

export async function listProviders(table: Table, organizationId: string) {
  const settings = await table.query<SettingItem>({ partition: `ORG#${organizationId}`, beginsWith: 'PROVIDER#' });
  const disabled = new Set(settings.items.filter((s) => !s.enabled).map((s) => s.sk.slice('PROVIDER#'.length)));
  return PROVIDER_IDS.map((id) => {
    const p = PROVIDERS[id];
    return {
      id,
      display_name: p.displayName,
      kind: p.kind,
      enabled: !disabled.has(id),
      default_scope_tier: p.defaultTier,
      scope_tiers: Object.entries(p.scopeTiers).map(([name, tier]) => ({
        name,
        description: tier.description,
        scopes: tier.scopes,
      })),
    };
  });
}
