// Organization-wide provider switches: a provider can be turned off without disconnecting anything.
import { isoTime } from '../../platform/clock';
import type { Clock } from '../../platform/clock';
import type { Item, Table } from '../../platform/ports';
import type { ProviderId } from '../domain/providers';
import { PROVIDERS, PROVIDER_IDS, providerConfigured } from '../domain/providers';
import type { ProviderSetting, ProviderView } from '../domain/views';

interface SettingItem extends Item {
  enabled: boolean;
  updatedAt?: number;
}

const settingKey = (organizationId: string, provider: ProviderId) => ({
  pk: `ORG#${organizationId}`,
  sk: `PROVIDER#${provider}`,
});

export async function isProviderEnabled(
  table: Table,
  organizationId: string,
  provider: ProviderId,
): Promise<boolean> {
  const item = await table.get<SettingItem>(settingKey(organizationId, provider));
  return item?.enabled ?? true;
}

/** Every provider's switch for an organization (on unless turned off). */
export async function enabledProviders(
  table: Table,
  organizationId: string,
): Promise<Record<ProviderId, boolean>> {
  const settings = await table.query<SettingItem>({
    partition: `ORG#${organizationId}`,
    beginsWith: 'PROVIDER#',
    // Read after a PATCH of the switch (and by the routes it governs): the write must show at once.
    consistent: true,
  });
  const disabled = new Set(
    settings.items.filter((s) => !s.enabled).map((s) => s.sk.slice('PROVIDER#'.length)),
  );
  return Object.fromEntries(PROVIDER_IDS.map((id) => [id, !disabled.has(id)])) as Record<ProviderId, boolean>;
}

/** Turns a provider off (or on again) for the whole organization; connections and credentials stay. */
export async function setProviderEnabled(
  table: Table,
  clock: Clock,
  organizationId: string,
  provider: ProviderId,
  enabled: boolean,
): Promise<ProviderSetting> {
  const updatedAt = clock.now();
  await table.put({ ...settingKey(organizationId, provider), enabled, updatedAt });
  return { provider, enabled, updated_at: isoTime(updatedAt) };
}

/** The providers this deployment offers, with the organization's switch of each. */
export async function listProviders(table: Table, organizationId: string): Promise<ProviderView[]> {
  const enabled = await enabledProviders(table, organizationId);
  // A real provider without a configured client is not offered at all (not merely turned off).
  return PROVIDER_IDS.filter(providerConfigured).map((id) => {
    const p = PROVIDERS[id];
    return {
      id,
      display_name: p.displayName,
      kind: p.kind,
      enabled: enabled[id],
      default_scope_tier: p.defaultTier,
      scope_tiers: Object.entries(p.scopeTiers).map(([name, tier]) => ({
        name,
        description: tier.description,
        scopes: tier.scopes,
        required_scopes: tier.required,
      })),
    };
  });
}
